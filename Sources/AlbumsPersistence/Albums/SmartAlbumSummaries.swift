import Synchronization

/// What each smart album shows each asker (how many photos, how many of
/// them videos, and the first),
/// kept from one committed state of the library to the next.
///
/// A smart album's count and cover are a search, and the album list shows
/// every smart album's: without this, each read of the list searched again
/// for each of them. They change only when a transaction commits that
/// changes albums, rights or photos, and each such transaction has an entry
/// in the change journal. So what is kept is tied to the journal's newest
/// sequence, and all of it goes when that moves: a read of the list costs
/// one indexed query until something commits.
///
/// Keyed by what the asker sees (every album, or which), never by who
/// asks: two people who see the same albums get the same answers.
final class SmartAlbumSummaries: Sendable {
    /// At most this many answers are kept; past it, all go (a household
    /// has a few people, each a few smart albums).
    static let capacity = 10_000

    struct Key: Hashable, Sendable {
        let album: AlbumID
        /// The albums the asker sees, sorted; nil: all of them.
        let seeing: [AlbumID]?
    }

    struct Summary: Sendable {
        var count: Int?
        var videoCount: Int?
        var cover: AlbumCovers.Cover??
    }

    private struct State {
        var sequence: Int64 = -1
        var summaries: [Key: Summary] = [:]
    }

    private let state = Mutex(State())

    /// What is kept for `key` at the journal's `sequence`.
    func summary(for key: Key, at sequence: Int64) -> Summary? {
        state.withLock { $0.sequence == sequence ? $0.summaries[key] : nil }
    }

    /// Keeps what `update` changes of `key`'s summary, read at `sequence`.
    func update(_ key: Key, at sequence: Int64, _ update: (inout Summary) -> Void) {
        state.withLock { state in
            if state.sequence != sequence {
                // A newer state read meanwhile keeps its own; an older one gives way to this.
                guard sequence > state.sequence else { return }
                state = State(sequence: sequence)
            }
            if state.summaries.count >= Self.capacity, state.summaries[key] == nil { state.summaries = [:] }
            update(&state.summaries[key, default: Summary()])
        }
    }
}
