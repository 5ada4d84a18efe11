import AlbumsPersistence

/// What a run of loads did: how many of each outcome, by group, and the
/// loads themselves.
///
/// Loads that went wrong (skipped, failed, cancelled) are always listed.
/// Those that went well are listed only when the run was asked to itemize
/// them (``LoadRunner/run(_:itemizing:progress:)``): an import of a
/// hundred thousand photos counts them instead, so its memory does not
/// grow with the photos it imports.
public struct LoadReport: Sendable {
    /// A load that committed its photo.
    public struct Committed: Sendable {
        /// What was loaded: a path, a URL, …
        public let source: String
        /// The item now holding the photo; nil for a load into the library alone.
        public let item: AlbumItemID?
        /// The photo it became (or was already).
        public let photo: PhotoID
        /// False when the library already had these bytes (another file, or an earlier import).
        public let isNewPhoto: Bool
    }

    /// How many loads of one group (an album of a tree import, say) ended each way.
    public struct Tally: Sendable, Hashable {
        /// Loads whose placeholder became a photo.
        public internal(set) var committed = 0
        /// Of ``committed``, those whose bytes the library already had.
        public internal(set) var alreadyInLibrary = 0
        /// Loads of a photo the album already held.
        public internal(set) var alreadyInAlbum = 0
        /// Loads knowingly not imported.
        public internal(set) var skipped = 0
        /// Loads that failed.
        public internal(set) var failed = 0
        /// Loads stopped before they finished.
        public internal(set) var cancelled = 0
        /// Loads whose placeholder waits for the place copies are kept in.
        public internal(set) var waiting = 0

        /// No loads.
        public init() {}
    }

    /// Loads whose placeholder became a photo; empty unless the run itemized them.
    public internal(set) var committed: [Committed] = []
    /// Loads of a photo the album already held (their placeholder was
    /// deleted); empty unless the run itemized them.
    public internal(set) var alreadyInAlbum: [(source: String, photo: PhotoID)] = []
    /// Loads knowingly not imported, with the reason (not an image, …).
    public internal(set) var skipped: [(source: String, reason: String)] = []
    /// Loads that failed, with the reason; their placeholder was deleted.
    public internal(set) var failed: [(source: String, reason: String)] = []
    /// Loads stopped before they finished; their placeholder was deleted.
    public internal(set) var cancelled: [String] = []
    /// Loads whose copy the place did not take, with why: their
    /// placeholder keeps its slot, for `albums pending resume`.
    public internal(set) var waiting: [(source: String, reason: String)] = []
    /// Each group's outcomes, by the ``LoadRunner/Load/group`` its loads were begun with.
    public internal(set) var tallies: [Int: Tally] = [:]

    /// An empty report.
    public init() {}

    /// All groups' outcomes together.
    public var total: Tally {
        tallies.values.reduce(into: Tally()) { sum, tally in
            sum.committed += tally.committed
            sum.alreadyInLibrary += tally.alreadyInLibrary
            sum.alreadyInAlbum += tally.alreadyInAlbum
            sum.skipped += tally.skipped
            sum.failed += tally.failed
            sum.cancelled += tally.cancelled
            sum.waiting += tally.waiting
        }
    }

    /// Whether every load committed or was knowingly skipped.
    public var succeeded: Bool { failed.isEmpty && cancelled.isEmpty && waiting.isEmpty }
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
        tallies[0, default: Tally()].skipped += skipped.count
        tallies[0, default: Tally()].failed += failed.count
    }
}

/// A report being written as loads finish, in whatever order they finish,
/// and put in the order the loads were given when it is done.
struct LoadReportBuilder {
    /// Whether loads that went well are listed, not only counted.
    let itemizing: Bool
    private var report = LoadReport()
    // Each listed entry with the index of its load, to order by at the end:
    // loads finish in any order, and sources may repeat.
    private var committed: [(Int, LoadReport.Committed)] = []
    private var alreadyInAlbum: [(Int, (source: String, photo: PhotoID))] = []
    private var skipped: [(Int, (source: String, reason: String))] = []
    private var failed: [(Int, (source: String, reason: String))] = []
    private var cancelled: [(Int, String)] = []
    private var waiting: [(Int, (source: String, reason: String))] = []
    private var cancelledIndices: Set<Int> = []
    /// Whether each load (by index) committed bytes new to the library: a
    /// load that later gives its place up to an earlier one hands that on.
    /// A byte a load, however many photos the run counts without listing.
    private var broughtNewPhoto: [Bool]

    init(itemizing: Bool, loads count: Int) {
        self.itemizing = itemizing
        broughtNewPhoto = Array(repeating: false, count: count)
    }

    mutating func committed(_ load: LoadRunner.Load, at index: Int, item: AlbumItemID?, photo: PhotoID, isNew: Bool) {
        report.tallies[load.group, default: .init()].committed += 1
        broughtNewPhoto[index] = isNew
        if !isNew { report.tallies[load.group, default: .init()].alreadyInLibrary += 1 }
        if itemizing { committed.append((index, .init(source: load.source, item: item, photo: photo, isNewPhoto: isNew))) }
    }

    /// `load` took the place of `later`, a load after it in the run's order
    /// that had committed the same photo first: `later` is now one whose
    /// photo the album already held, and what it brought new is `load`'s.
    mutating func committed(
        _ load: LoadRunner.Load, at index: Int, item: AlbumItemID, photo: PhotoID, displacing later: LoadRunner.Load, at laterIndex: Int
    ) {
        let wasNew = broughtNewPhoto[laterIndex]
        broughtNewPhoto[laterIndex] = false
        report.tallies[later.group, default: .init()].committed -= 1
        if !wasNew { report.tallies[later.group, default: .init()].alreadyInLibrary -= 1 }
        committed.removeAll { $0.0 == laterIndex }
        alreadyInAlbum(later, at: laterIndex, photo: photo)
        committed(load, at: index, item: item, photo: photo, isNew: wasNew)
    }

    mutating func alreadyInAlbum(_ load: LoadRunner.Load, at index: Int, photo: PhotoID) {
        report.tallies[load.group, default: .init()].alreadyInAlbum += 1
        if itemizing { alreadyInAlbum.append((index, (load.source, photo))) }
    }

    mutating func skipped(_ load: LoadRunner.Load, at index: Int, reason: String) {
        report.tallies[load.group, default: .init()].skipped += 1
        skipped.append((index, (load.source, reason)))
    }

    mutating func failed(_ load: LoadRunner.Load, at index: Int, reason: String) {
        report.tallies[load.group, default: .init()].failed += 1
        failed.append((index, (load.source, reason)))
    }

    mutating func waiting(_ load: LoadRunner.Load, at index: Int, reason: String) {
        report.tallies[load.group, default: .init()].waiting += 1
        waiting.append((index, (load.source, reason)))
    }

    /// Records `load` as cancelled unless it already is.
    mutating func cancelled(_ load: LoadRunner.Load, at index: Int) {
        guard cancelledIndices.insert(index).inserted else { return }
        report.tallies[load.group, default: .init()].cancelled += 1
        cancelled.append((index, load.source))
    }

    /// The report, each list in the order its loads were given.
    func finished() -> LoadReport {
        func ordered<Entry>(_ entries: [(Int, Entry)]) -> [Entry] {
            // Stable: an index appears once, so ties cannot happen.
            entries.sorted { $0.0 < $1.0 }.map(\.1)
        }
        var report = report
        report.committed = ordered(committed)
        report.alreadyInAlbum = ordered(alreadyInAlbum)
        report.skipped = ordered(skipped)
        report.failed = ordered(failed)
        report.cancelled = ordered(cancelled)
        report.waiting = ordered(waiting)
        return report
    }
}
