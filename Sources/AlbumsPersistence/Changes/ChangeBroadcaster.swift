import Foundation
import Synchronization

/// Hands committed changes to every subscriber of a library, once each and
/// in commit order, whether they came from this library's writes or from
/// polling the journal for other processes' commits.
final class ChangeBroadcaster: Sendable {
    /// Reads the journal after a sequence.
    typealias JournalReader = @Sendable (Int64) async throws -> [CommittedChange]

    private struct Subscriber {
        let continuation: AsyncStream<CommittedChange>.Continuation
        /// A change was dropped since the last one this subscriber took:
        /// the next one it gets says it follows a gap.
        var missedChanges = false
    }

    private struct State {
        var subscribers: [UUID: Subscriber] = [:]
        /// The newest sequence handed out (or seen when watching began).
        var lastDelivered: Int64?
        var poller: Task<Void, Never>?
    }

    private let state = Mutex(State())
    /// How many pollers this broadcaster has started, for the tests that
    /// hold it to one at a time.
    let pollersStarted = Atomic<Int>(0)
    /// How many changes wait for a subscriber that does not read; past
    /// that, later ones are dropped and the next it takes follows a gap,
    /// so a reader that stalls costs a bounded amount of memory.
    let bufferLimit: Int

    init(bufferLimit: Int = 256) {
        self.bufferLimit = bufferLimit
    }

    /// The sequence writes should report changes after, or nil when nobody watches.
    var watchedSequence: Int64? {
        state.withLock { $0.subscribers.isEmpty ? nil : $0.lastDelivered }
    }

    /// How often the watched file is stat'ed where its writes cannot be
    /// heard (``FileWriteWatch``), and the longest wait while a change is
    /// looked for again.
    static let watchInterval = 0.02

    /// The first wait before looking again for a change whose write was
    /// heard before it could be read: a writer publishes its commit
    /// moments after writing its log, so soon, then twice as long each
    /// time up to ``watchInterval``.
    static let firstLookAgain = 0.001

    /// A stream of the changes after `start` (the journal's newest entry
    /// when the caller began watching), read with `read` as soon as
    /// `watchedFile` (the write-ahead log) changes, and at least every
    /// `pollingInterval` seconds.
    func subscribe(
        startingAfter start: Int64, watching watchedFile: String, pollingInterval: Double, read: @escaping JournalReader
    ) -> AsyncStream<CommittedChange> {
        let id = UUID()
        let (stream, continuation) = AsyncStream.makeStream(of: CommittedChange.self, bufferingPolicy: .bufferingOldest(bufferLimit))
        continuation.onTermination = { [weak self] _ in self?.unsubscribe(id) }
        state.withLock { state in
            state.subscribers[id] = Subscriber(continuation: continuation)
            // A later subscriber hears from where the others are; nothing
            // committed after `start` has been handed out without it.
            if state.lastDelivered == nil { state.lastDelivered = start }
            // Decided and stored under one lock: streams opened together start one poller.
            if state.poller == nil { state.poller = poll(watching: watchedFile, pollingInterval: pollingInterval, read: read) }
        }
        return stream
    }

    /// Reads the journal whenever the watched file changes, and at least
    /// every `pollingInterval` seconds, until cancelled.
    private func poll(watching watchedFile: String, pollingInterval asked: Double, read: @escaping JournalReader) -> Task<Void, Never> {
        pollersStarted.add(1, ordering: .relaxed)
        let pollingInterval = Self.pollingInterval(asked)
        return Task { [weak self] in
            // Writes heard as they happen where the kernel tells of them;
            // else the file's stamp looked at every `watchInterval`.
            let watch = FileWriteWatch(file: watchedFile, tick: pollingInterval)
            defer { watch?.stop() }
            var wakeUps = watch?.wakeUps.makeAsyncIterator()
            var stamp = FileStamp.of(watchedFile)
            // The first tick reads whatever the stamp says: this task may
            // start after a commit that followed `start`.
            var lastRead = ContinuousClock.now - .seconds(pollingInterval)
            // After the log changed with nothing new to read yet (a writer
            // appends its frames, then publishes them; or the last frames
            // of a commit already read are heard late), look again for a
            // while: soon at first, then less often. A write heard
            // meanwhile is read at once (the next commit), but never
            // sooner than `firstLookAgain` after the last read, so that a
            // long transaction, writing all along, is not read without end.
            var lookAgainUntil: ContinuousClock.Instant?
            var nextLook = ContinuousClock.now
            var lookAgainWait = Self.firstLookAgain
            func lookingAgain() -> Bool { lookAgainUntil.map { ContinuousClock.now < $0 } ?? false }
            var first = true
            while !Task.isCancelled {
                if var waiting = wakeUps, !first {
                    // Until the file is written, the periodic read is due or, looking again, the next look.
                    watch?.wake(after: lookingAgain() ? max(0, (nextLook - .now) / .seconds(1)) : nil)
                    guard await waiting.next() != nil else { return }
                    wakeUps = waiting
                } else if lookingAgain() {
                    try? await Task.sleep(until: nextLook, clock: .continuous)
                } else {
                    try? await Task.sleep(for: .seconds(min(Self.watchInterval, pollingInterval)))
                }
                first = false
                let heard = watch?.takeHeard() == true
                // Every commit appends to the log; reading the journal only
                // then keeps the latency to a millisecond where writes are
                // heard, and to a stat's 20 ms where not. The periodic read catches
                // what a stat cannot see (two commits of one size within the clock's tick).
                let now = FileStamp.of(watchedFile)
                let changed = heard || now != stamp
                let stillLookingAgain = lookingAgain()
                if stillLookingAgain {
                    let earliest = changed ? lastRead + .seconds(Self.firstLookAgain) : nextLook
                    if ContinuousClock.now < earliest {
                        // Read at the look, which a write heard may bring nearer.
                        nextLook = min(nextLook, earliest)
                        continue
                    }
                }
                // A watch's wake-up that heard nothing is its periodic tick.
                let due = (watch != nil && !heard && !stillLookingAgain) || ContinuousClock.now - lastRead >= .seconds(pollingInterval)
                guard changed || stillLookingAgain || due else { continue }
                stamp = now
                lastRead = .now
                guard let self, let after = self.state.withLock({ $0.lastDelivered }) else { continue }
                let entries = (try? await read(after)) ?? []
                if !entries.isEmpty {
                    lookAgainUntil = nil
                } else if changed {
                    if !stillLookingAgain { lookAgainWait = Self.firstLookAgain }
                    lookAgainUntil = .now + .seconds(min(0.5, pollingInterval))
                }
                if lookAgainUntil != nil {
                    nextLook = .now + .seconds(min(lookAgainWait, pollingInterval))
                    lookAgainWait = min(lookAgainWait * 2, Self.watchInterval)
                }
                self.deliver(entries)
            }
        }
    }

    /// `asked` as timers and clocks take it: a millisecond at least and a
    /// year at most (an infinite or NaN interval would trap them), a year
    /// for anything that is no number.
    static func pollingInterval(_ asked: Double) -> Double {
        let year = 365 * 86_400.0
        return asked.isNaN ? year : min(max(asked, 0.001), year)
    }

    /// Hands out the entries newer than any handed out before, in order.
    func deliver(_ entries: [CommittedChange]) {
        guard !entries.isEmpty else { return }
        state.withLock { state in
            for entry in entries where entry.sequence > (state.lastDelivered ?? 0) {
                for id in Array(state.subscribers.keys) {
                    guard let subscriber = state.subscribers[id] else { continue }
                    switch subscriber.continuation.yield(subscriber.missedChanges ? entry.followingAGap() : entry) {
                    case .dropped: state.subscribers[id]?.missedChanges = true
                    case .enqueued: if subscriber.missedChanges { state.subscribers[id]?.missedChanges = false }
                    case .terminated: break
                    @unknown default: break
                    }
                }
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
            for subscriber in state.subscribers.values { subscriber.continuation.finish() }
        }
    }
}
