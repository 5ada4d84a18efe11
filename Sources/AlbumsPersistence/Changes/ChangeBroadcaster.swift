import Foundation
import Synchronization

/// Hands committed changes to every subscriber of a library, once each and
/// in commit order, whether they came from this library's writes or from
/// polling the journal for other processes' commits.
final class ChangeBroadcaster: Sendable {
    /// Reads the journal after a sequence.
    typealias JournalReader = @Sendable (Int64) async throws -> [CommittedChange]

    private struct State {
        var subscribers: [UUID: AsyncStream<CommittedChange>.Continuation] = [:]
        /// The newest sequence handed out (or seen when watching began).
        var lastDelivered: Int64?
        var poller: Task<Void, Never>?
    }

    private let state = Mutex(State())

    /// The sequence writes should report changes after, or nil when nobody watches.
    var watchedSequence: Int64? {
        state.withLock { $0.subscribers.isEmpty ? nil : $0.lastDelivered }
    }

    /// How often the watched file is stat'ed.
    static let watchInterval = 0.02

    /// A stream of the changes after `start` (the journal's newest entry
    /// when the caller began watching), read with `read` as soon as
    /// `watchedFile` (the write-ahead log) changes, and at least every
    /// `pollingInterval` seconds.
    func subscribe(
        startingAfter start: Int64, watching watchedFile: String, pollingInterval: Double, read: @escaping JournalReader
    ) -> AsyncStream<CommittedChange> {
        let id = UUID()
        let (stream, continuation) = AsyncStream.makeStream(of: CommittedChange.self, bufferingPolicy: .unbounded)
        continuation.onTermination = { [weak self] _ in self?.unsubscribe(id) }
        let startsPolling = state.withLock { state in
            state.subscribers[id] = continuation
            // A later subscriber hears from where the others are; nothing
            // committed after `start` has been handed out without it.
            if state.lastDelivered == nil { state.lastDelivered = start }
            return state.poller == nil
        }
        guard startsPolling else { return stream }
        let poller = Task { [weak self] in
            var stamp = FileStamp.of(watchedFile)
            // The first tick reads whatever the stamp says: this task may
            // start after a commit that followed `start`.
            var lastRead = ContinuousClock.now - .seconds(pollingInterval)
            // After the log changed with nothing new to read yet (a writer
            // appends its frames, then publishes them), look again each tick for a while.
            var lookAgainUntil: ContinuousClock.Instant?
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(min(Self.watchInterval, pollingInterval)))
                // Every commit appends to the log; reading the journal only
                // then keeps the latency to tens of milliseconds at the cost
                // of a stat. The periodic read catches what a stat cannot
                // see (two commits of one size within the clock's tick).
                let now = FileStamp.of(watchedFile)
                let changed = now != stamp
                let lookingAgain = lookAgainUntil.map { ContinuousClock.now < $0 } ?? false
                guard changed || lookingAgain || ContinuousClock.now - lastRead >= .seconds(pollingInterval) else { continue }
                stamp = now
                lastRead = .now
                guard let self, let after = self.state.withLock({ $0.lastDelivered }) else { continue }
                let entries = (try? await read(after)) ?? []
                if !entries.isEmpty {
                    lookAgainUntil = nil
                } else if changed {
                    lookAgainUntil = .now + .seconds(min(0.5, pollingInterval))
                }
                self.deliver(entries)
            }
        }
        state.withLock { $0.poller = poller }
        return stream
    }

    /// Hands out the entries newer than any handed out before, in order.
    func deliver(_ entries: [CommittedChange]) {
        guard !entries.isEmpty else { return }
        state.withLock { state in
            for entry in entries where entry.sequence > (state.lastDelivered ?? 0) {
                for subscriber in state.subscribers.values { subscriber.yield(entry) }
                state.lastDelivered = entry.sequence
            }
        }
    }

    private func unsubscribe(_ id: UUID) {
        let poller = state.withLock { state -> Task<Void, Never>? in
            state.subscribers.removeValue(forKey: id)
            guard state.subscribers.isEmpty else { return nil }
            defer {
                state.poller = nil
                state.lastDelivered = nil
            }
            return state.poller
        }
        poller?.cancel()
    }

    deinit {
        state.withLock { state in
            state.poller?.cancel()
            for subscriber in state.subscribers.values { subscriber.finish() }
        }
    }
}
