import AlbumsPersistence

/// What a run of loads did, load by load.
public struct LoadReport: Sendable {
    /// A load that committed its photo.
    public struct Committed: Sendable {
        /// What was loaded: a path, a URL, …
        public let source: String
        /// The item now holding the photo; nil for a load into the library alone.
        public let item: AlbumItemID?
        /// The photo it became (or was already).
        public let photo: Photo
        /// False when the library already had these bytes (another file, or an earlier import).
        public let isNewPhoto: Bool
    }

    /// Loads whose placeholder became a photo.
    public internal(set) var committed: [Committed] = []
    /// Loads of a photo the album already held: their placeholder was deleted.
    public internal(set) var alreadyInAlbum: [(source: String, photo: Photo)] = []
    /// Loads knowingly not imported, with the reason (not an image, …).
    public internal(set) var skipped: [(source: String, reason: String)] = []
    /// Loads that failed, with the reason; their placeholder was deleted.
    public internal(set) var failed: [(source: String, reason: String)] = []
    /// Loads stopped before they finished; their placeholder was deleted.
    public internal(set) var cancelled: [String] = []

    /// An empty report.
    public init() {}

    /// Puts each list in the order the loads were given, not the order they finished.
    mutating func sort(byOrderOf sources: [String]) {
        var position: [String: Int] = [:]
        for (index, source) in sources.enumerated() where position[source] == nil { position[source] = index }
        // Stable: loads of the same source keep the order they finished in.
        func ordered<Entry>(_ entries: [Entry], by source: (Entry) -> String) -> [Entry] {
            entries.enumerated().sorted {
                (position[source($0.element)] ?? Int.max, $0.offset) < (position[source($1.element)] ?? Int.max, $1.offset)
            }.map(\.element)
        }
        committed = ordered(committed, by: \.source)
        alreadyInAlbum = ordered(alreadyInAlbum, by: \.source)
        skipped = ordered(skipped, by: \.source)
        failed = ordered(failed, by: \.source)
        cancelled = ordered(cancelled, by: { $0 })
    }

    /// Whether every load committed or was knowingly skipped.
    public var succeeded: Bool { failed.isEmpty && cancelled.isEmpty }
}

/// One finished load, for progress displays.
public struct LoadProgress: Sendable {
    /// Loads finished so far, committed or not.
    public let finished: Int
    /// Loads in all.
    public let total: Int
    /// The load that just finished.
    public let source: String
}

extension LoadReport {
    /// Adds outcomes decided before any load ran (paths that were folders, or missing).
    public mutating func add(skipped: [(path: String, reason: String)], failed: [(path: String, reason: String)]) {
        self.skipped += skipped.map { ($0.path, $0.reason) }
        self.failed += failed.map { ($0.path, $0.reason) }
    }
}
