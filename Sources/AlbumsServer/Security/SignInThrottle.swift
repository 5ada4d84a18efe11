import Foundation
import Synchronization

/// Slows guessing: after a few failed sign-ins for one name, or from one
/// address, each further attempt must wait, twice as long each time (up to
/// five minutes). A success clears the name's and the address's count.
final class SignInThrottle: Sendable {
    private struct Record {
        var failures = 0
        var lastFailure = Date.distantPast
    }

    private let records = Mutex<[String: Record]>([:])
    /// Failures forgiven before waits begin.
    static let freeFailures = 3
    static let longestWait: TimeInterval = 300
    /// A count is forgotten after this long without a failure.
    static let memory: TimeInterval = 3600

    /// How long the attempt must still wait (0: it may go ahead).
    func wait(name: String, address: String?, now: Date = Date()) -> TimeInterval {
        records.withLock { records in
            Self.keys(name: name, address: address).map { key in
                guard let record = records[key], now.timeIntervalSince(record.lastFailure) < Self.memory else { return 0 }
                return max(0, record.lastFailure.addingTimeInterval(Self.waitAfter(record.failures)).timeIntervalSince(now))
            }.max() ?? 0
        }
    }

    func noteFailure(name: String, address: String?, now: Date = Date()) {
        records.withLock { records in
            for key in Self.keys(name: name, address: address) {
                var record = records[key] ?? Record()
                if now.timeIntervalSince(record.lastFailure) >= Self.memory { record.failures = 0 }
                record.failures += 1
                record.lastFailure = now
                records[key] = record
            }
            // Forgotten counts go, so that guessing many names cannot fill memory.
            if records.count > 10_000 { records = records.filter { now.timeIntervalSince($0.value.lastFailure) < Self.memory } }
        }
    }

    func noteSuccess(name: String, address: String?) {
        records.withLock { records in
            for key in Self.keys(name: name, address: address) { records[key] = nil }
        }
    }

    static func waitAfter(_ failures: Int) -> TimeInterval {
        guard failures >= freeFailures else { return 0 }
        return min(longestWait, pow(2, Double(failures - freeFailures)))
    }

    private static func keys(name: String, address: String?) -> [String] {
        ["name:" + name.lowercased()] + (address.map { ["address:" + $0] } ?? [])
    }
}
