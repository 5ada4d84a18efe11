import AlbumsPersistence
import Foundation
import Synchronization

/// Slows guessing: after a few failed sign-ins for one name, or from one
/// address, each further attempt must wait, twice as long each time (up to
/// five minutes). A success clears the name's and the address's count.
///
/// An attempt is counted as a failure when it is admitted, before its
/// password is checked, and a success takes the count back: so attempts sent
/// together cannot all pass the check before any of them has failed.
final class SignInThrottle: Sendable {
    private struct Record {
        var failures = 0
        var lastFailure = Date.distantPast
    }

    private let records = Mutex<[String: Record]>([:])
    /// What time it is; tests hold it still, so that no window depends on
    /// how fast the machine runs them.
    private let now: @Sendable () -> Date
    /// Failures forgiven before waits begin.
    static let freeFailures = 3
    static let longestWait: TimeInterval = 300
    /// A count is forgotten after this long without a failure.
    static let memory: TimeInterval = 3600

    init(clock now: @escaping @Sendable () -> Date = { Date() }) {
        self.now = now
    }

    /// Whether an attempt may go ahead now: `.admitted` counts it as a
    /// failure until ``noteSuccess(name:address:)`` takes that back;
    /// `.wait(seconds)` counts nothing. A name no person can have (too long,
    /// other characters) is not remembered: it cannot be guessed at, and
    /// keeping what a stranger typed would let them fill the server's
    /// memory (32 sign-ins with 2 MiB names kept 43 MiB for an hour).
    func admit(name: String, address: String?) -> Admission {
        let now = now()
        return records.withLock { records in
            let keys = Self.keys(name: name, address: address)
            let wait = keys.map { key in
                guard let record = records[key], now.timeIntervalSince(record.lastFailure) < Self.memory else { return 0 }
                return max(0, record.lastFailure.addingTimeInterval(Self.waitAfter(record.failures)).timeIntervalSince(now))
            }.max() ?? 0
            if wait > 0 { return .wait(seconds: wait) }
            for key in keys {
                var record = records[key] ?? Record()
                if now.timeIntervalSince(record.lastFailure) >= Self.memory { record.failures = 0 }
                record.failures += 1
                record.lastFailure = now
                records[key] = record
            }
            // Forgotten counts go, so that guessing many names cannot fill memory.
            if records.count > 10_000 { records = records.filter { now.timeIntervalSince($0.value.lastFailure) < Self.memory } }
            return .admitted
        }
    }

    /// The admitted attempt succeeded: the name's and the address's counts are cleared.
    func noteSuccess(name: String, address: String?) {
        records.withLock { records in
            for key in Self.keys(name: name, address: address) { records[key] = nil }
        }
    }

    /// The answer to ``admit(name:address:)``.
    enum Admission: Equatable {
        case admitted
        case wait(seconds: TimeInterval)
    }

    static func waitAfter(_ failures: Int) -> TimeInterval {
        guard failures >= freeFailures else { return 0 }
        return min(longestWait, pow(2, Double(failures - freeFailures)))
    }

    /// How many names and addresses it remembers now.
    var rememberedCount: Int { records.withLock { $0.count } }

    private static func keys(name: String, address: String?) -> [String] {
        // Share links are counted under a key of their own ("link " and the token's start).
        let isRemembered = name.hasPrefix("link ") ? name.utf8.count <= 64 : Person.problem(withName: name) == nil
        return (isRemembered ? ["name:" + name.lowercased()] : []) + (address.map { ["address:" + $0] } ?? [])
    }
}
