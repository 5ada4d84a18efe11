import AlbumsPersistence
import Foundation
import Synchronization

/// Slows guessing without letting anyone lock a person out.
///
/// Three counts, each slowing after a few failures with a wait that doubles
/// each time (up to five minutes):
/// - per address: one client guessing many names;
/// - per name from one address: one client guessing one name;
/// - per name, counting the distinct addresses that failed it: guessing one
///   name from many clients. A flood from one address counts once there, so
///   it slows that address alone, and the person signs in from another; an
///   address this name signed in from before is never slowed by it.
///
/// An attempt is counted as a failure when it is admitted, before its
/// password is checked, and a success takes back only what it proves: its
/// own count, and that name's from that address. The address keeps the
/// failures it made with other names, so signing in to one's own account
/// (or opening a link) between guesses forgives none of them. Attempts sent
/// together cannot all pass the check before any of them has failed.
///
/// Sign-ins and share links' passwords each have a throttle of their own
/// (``AlbumsServer``'s router makes both): a link that needs no password
/// always opens, and must not count as a success of a sign-in.
final class SignInThrottle: Sendable {
    private struct Record {
        var failures = 0
        var lastFailure = Date.distantPast
        /// For a name's count: the addresses that failed it (their number is the count).
        var addresses: Set<String> = []
    }

    private struct State {
        var records: [String: Record] = [:]
        /// Name and address pairs that signed in: a name's count does not slow them.
        var signedInFrom: [String: Date] = [:]
    }

    private let state = Mutex(State())
    /// What time it is; tests hold it still, so that no window depends on
    /// how fast the machine runs them.
    let now: @Sendable () -> Date
    /// Failures forgiven before waits begin.
    static let freeFailures = 3
    static let longestWait: TimeInterval = 300
    /// A count is forgotten after this long without a failure.
    static let memory: TimeInterval = 3600
    /// How long an address a name signed in from stays known.
    static let knownAddressMemory: TimeInterval = 30 * 24 * 3600
    /// At most this many addresses are kept per name: past it, the count still grows.
    static let addressesKeptPerName = 1_000

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
        return state.withLock { state in
            let keys = Self.keys(name: name, address: address)
            let known = keys.pair.map { state.signedInFrom[$0].map { now.timeIntervalSince($0) < Self.knownAddressMemory } ?? false } ?? false
            let slowing = [keys.address, keys.pair, known ? nil : keys.name].compactMap { $0 }
            let wait = slowing.map { key in
                guard let record = state.records[key], now.timeIntervalSince(record.lastFailure) < Self.memory else { return 0 }
                return max(0, record.lastFailure.addingTimeInterval(Self.waitAfter(record.failures)).timeIntervalSince(now))
            }.max() ?? 0
            if wait > 0 { return .wait(seconds: wait) }
            for key in [keys.address, keys.pair, keys.name].compactMap({ $0 }) {
                var record = state.records[key] ?? Record()
                if now.timeIntervalSince(record.lastFailure) >= Self.memory { record = Record() }
                if key == keys.name {
                    // One more only for an address not counted yet.
                    let from = address ?? "unknown"
                    if !record.addresses.contains(from) {
                        if record.addresses.count < Self.addressesKeptPerName { record.addresses.insert(from) }
                        record.failures += 1
                    }
                } else {
                    record.failures += 1
                }
                record.lastFailure = now
                state.records[key] = record
            }
            // Forgotten counts go, so that guessing many names cannot fill memory.
            if state.records.count > 10_000 { state.records = state.records.filter { now.timeIntervalSince($0.value.lastFailure) < Self.memory } }
            return .admitted
        }
    }

    /// The admitted attempt succeeded: its own count is taken back, the
    /// name's failures from this address are forgiven, and the address is
    /// known for the name from now on. The address's failures with other
    /// names stay: a success proves nothing of them.
    func noteSuccess(name: String, address: String?) {
        let now = now()
        state.withLock { state in
            let keys = Self.keys(name: name, address: address)
            if let key = keys.address, var record = state.records[key] {
                record.failures -= 1
                state.records[key] = record.failures > 0 ? record : nil
            }
            if let pair = keys.pair { state.records[pair] = nil }
            if let key = keys.name, var record = state.records[key] {
                // This address's failure is taken back; others' stay.
                if record.addresses.remove(address ?? "unknown") != nil { record.failures -= 1 }
                state.records[key] = record.failures > 0 ? record : nil
            }
            if let pair = keys.pair {
                state.signedInFrom[pair] = now
                if state.signedInFrom.count > 10_000 {
                    state.signedInFrom = state.signedInFrom.filter { now.timeIntervalSince($0.value) < Self.knownAddressMemory }
                }
            }
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

    /// How many names, addresses and pairs it remembers now.
    var rememberedCount: Int { state.withLock { $0.records.count } }

    /// The counts an attempt touches: its address's, its name's from that
    /// address, and its name's; nil for what is not remembered.
    private static func keys(name: String, address: String?) -> (address: String?, pair: String?, name: String?) {
        // Share links are counted under a key of their own ("link " and the token's start).
        let isRemembered = name.hasPrefix("link ") ? name.utf8.count <= 64 : Person.problem(withName: name) == nil
        let name = isRemembered ? name.lowercased() : nil
        return (
            address.map { "address:" + $0 }, name.map { "pair:" + $0 + "\u{0}" + (address ?? "unknown") }, name.map { "name:" + $0 }
        )
    }
}
