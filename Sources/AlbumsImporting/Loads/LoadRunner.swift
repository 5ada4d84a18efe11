import AlbumsPersistence
import AlbumsTransfer
import Foundation
import Synchronization

/// Runs loads through placeholders, as a collection view's drop does:
/// placeholders first, in one transaction, then each slot filled as its
/// load completes.
///
/// - Loads run concurrently, at most ``jobs`` at a time, with no lock held
///   while they read, and never wait for a commit (unless the library has
///   fallen far behind them).
/// - Each completed load commits into its placeholder's slot wherever that
///   slot stands now. Completion order therefore never changes the final
///   order. Loads that end while the one before is written commit together
///   in one transaction.
/// - A failed load deletes only its own placeholder. One whose copy the
///   library's place did not take (``LoadFailure/waiting(_:)``) leaves it
///   holding its slot, stale once this process ends, for `pending resume`.
/// - A load acts for the session's principal from its placeholder to its
///   commit: one whose role on the album ended meanwhile does not commit.
/// - If the surrounding task is cancelled, finished loads stay committed and
///   the placeholders still pending are deleted.
///
/// ```swift
/// let runner = LoadRunner(session: session, jobs: 4)
/// let report = try await runner.load(paths, at: .at(0, in: "Trip")) { progress in
///     print("\(progress.finished)/\(progress.total): \(progress.source)")
/// }
/// print("\(report.committed.count) in, \(report.failed.count) failed")
/// ```
public struct LoadRunner: Sendable {
    /// The session the loads write through.
    public let session: TransferSession
    /// What reads each source.
    public let loader: any PhotoLoader
    /// Where the loads it begins keep copies of what they read; nil: they
    /// keep none, and the library refers to the sources.
    public let keeper: (any OriginalKeeper)?
    /// How many loads run at once.
    public let jobs: Int

    /// A runner of `jobs` loads at once, each read by `loader`, and kept
    /// by `keeper` if one is given (`import --copy`).
    public init(
        session: TransferSession, loader: any PhotoLoader = FileLoader(), keeper: (any OriginalKeeper)? = nil,
        jobs: Int = ProcessInfo.processInfo.activeProcessorCount
    ) {
        self.session = session
        self.loader = loader
        self.keeper = keeper
        self.jobs = max(1, jobs)
    }

    /// A begun load: its placeholder (none for a load into the library
    /// alone, in no album), what it reads, and the group it is counted in.
    public struct Load: Sendable, Hashable {
        /// The placeholder holding its slot; nil for a load into the library alone.
        public let placeholder: AlbumItemID?
        /// What it loads.
        public let source: String
        /// Which of the report's ``LoadReport/tallies`` counts it (an album of a tree import, say).
        public let group: Int
        /// Whether it keeps a copy of what it reads (the runner's ``LoadRunner/keeper``).
        public let keepsCopy: Bool

        /// A load begun: its placeholder, its source, the group it is counted in, and whether it keeps a copy.
        public init(placeholder: AlbumItemID?, source: String, group: Int = 0, keepsCopy: Bool = false) {
            self.placeholder = placeholder
            self.source = source
            self.group = group
            self.keepsCopy = keepsCopy
        }
    }

    /// Inserts one placeholder per source at `destination`, in one
    /// transaction, before any bytes are read.
    ///
    /// - Parameter expecting: Revisions the caller last saw, checked in the
    ///   same transaction (optimistic concurrency).
    /// - Throws: ``LibraryError`` for a destination that is not allowed
    ///   (locked, out of range, changed since, …); nothing is inserted.
    public func begin(_ sources: [String], at destination: Destination, expecting revisions: [AlbumReference: Int64] = [:]) throws -> [Load] {
        let keeps = keeper != nil
        let ids = try session.write { try Self.insertPlaceholders(for: sources, at: destination, expecting: revisions, keepingCopies: keeps, $0) }
        return zip(ids, sources).map { Load(placeholder: $0, source: $1, keepsCopy: keeps) }
    }

    /// ``begin(_:at:expecting:)`` for async callers (a server): the write
    /// waits without holding a thread of Swift's cooperative pool.
    public func begin(_ sources: [String], at destination: Destination, expecting revisions: [AlbumReference: Int64] = [:]) async throws -> [Load] {
        let keeps = keeper != nil
        let ids = try await session.write { try Self.insertPlaceholders(for: sources, at: destination, expecting: revisions, keepingCopies: keeps, $0) }
        return zip(ids, sources).map { Load(placeholder: $0, source: $1, keepsCopy: keeps) }
    }

    /// The placeholders of `sources`, in their order. A source that a stale
    /// placeholder of the destination album still waits for (an import of
    /// the same files that died) takes that placeholder over, in its slot:
    /// running a crashed import again finishes it instead of appending the
    /// files a second time. The others get new placeholders at `destination`.
    private static func insertPlaceholders(
        for sources: [String], at destination: Destination, expecting revisions: [AlbumReference: Int64], keepingCopies: Bool,
        _ writer: LibraryWriter
    ) throws -> [AlbumItemID] {
        try writer.requireRevisions(revisions)
        let (album, index) = try writer.landing(at: destination)
        guard !sources.isEmpty else { return [] }
        var stale: [String: [AlbumItemID]] = [:]
        if album.placeholderCount > 0 {
            let wanted = Set(sources)
            for placeholder in try writer.pendingPlaceholders(in: album.id) where placeholder.isStale && wanted.contains(placeholder.load.source) {
                stale[placeholder.load.source, default: []].append(placeholder.id)
            }
        }
        var reused: [AlbumItemID?] = []
        for source in sources {
            reused.append(stale[source]?.isEmpty == false ? stale[source]?.removeFirst() : nil)
        }
        let claimed = reused.compactMap { $0 }
        if !claimed.isEmpty {
            try writer.claimPlaceholders(claimed)
            try writer.markCopies(of: claimed, kept: keepingCopies)
        }
        let fresh = zip(sources, reused).compactMap { $1 == nil ? PendingLoad(source: $0, keepsCopy: keepingCopies) : nil }
        var inserted = fresh.isEmpty ? [] : try writer.insertPlaceholders(fresh, into: album.id, at: index)[...]
        return reused.map { reused in reused ?? inserted.removeFirst() }
    }

    /// Where loads at `destination` would go: the album and the 0-based
    /// index of the first one. Reads only.
    ///
    /// - Throws: ``LibraryError`` for a destination that is not allowed.
    public func checkDestination(_ destination: Destination, expecting revisions: [AlbumReference: Int64] = [:]) throws -> (album: Album, index: Int) {
        try session.read { try Self.check(destination, expecting: revisions, $0) }
    }

    /// ``checkDestination(_:expecting:)`` for async callers.
    public func checkDestination(_ destination: Destination, expecting revisions: [AlbumReference: Int64] = [:]) async throws -> (album: Album, index: Int) {
        try await session.read { try Self.check(destination, expecting: revisions, $0) }
    }

    private static func check(_ destination: Destination, expecting revisions: [AlbumReference: Int64], _ reader: LibraryReader) throws -> (album: Album, index: Int) {
        try reader.requireRevisions(revisions)
        return try reader.landing(at: destination)
    }

    /// Begins loads of `sources` at `destination` and runs them.
    public func load(
        _ sources: [String], at destination: Destination, expecting revisions: [AlbumReference: Int64] = [:],
        progress: @Sendable (LoadProgress) -> Void = { _ in }
    ) async throws -> LoadReport {
        await run(try begin(sources, at: destination, expecting: revisions), progress: progress)
    }

    /// Loads `sources` into the library alone, in no album: no placeholders,
    /// each photo added as its load completes.
    public func loadIntoLibrary(_ sources: [String], progress: @Sendable (LoadProgress) -> Void = { _ in }) async -> LoadReport {
        await run(sources.map { Load(placeholder: nil, source: $0, keepsCopy: keeper != nil) }, progress: progress)
    }

    /// Takes over pending placeholders (stale ones, after a crash) and runs their loads again from their recorded source.
    /// A load begun to keep a copy keeps it with the runner's ``keeper``;
    /// without one, it fails and its placeholder vanishes.
    ///
    /// - Parameter expecting: Revisions the caller last saw, checked in the
    ///   transaction that claims the placeholders.
    public func resume(
        _ placeholders: [PendingPlaceholder], expecting revisions: [AlbumReference: Int64] = [:],
        progress: @Sendable (LoadProgress) -> Void = { _ in }
    ) async throws -> LoadReport {
        try await session.library.write { writer in
            try writer.requireRevisions(revisions)
            try writer.claimPlaceholders(placeholders.map(\.id))
        }
        return await run(
            placeholders.map { Load(placeholder: $0.id, source: $0.load.source, keepsCopy: $0.load.keepsCopy) }, progress: progress)
    }

    /// Runs begun loads to completion (or cancellation) and commits each as it finishes.
    ///
    /// - Parameter itemizing: Whether the report lists the loads that went
    ///   well, one by one, or only counts them; those that went wrong are
    ///   always listed.
    public func run(_ loads: [Load], itemizing: Bool = true, progress: @Sendable (LoadProgress) -> Void = { _ in }) async -> LoadReport {
        var report = LoadReportBuilder(itemizing: itemizing, loads: loads.count)
        var pending = Set(loads.compactMap(\.placeholder))
        let order = RunOrder(loads)
        let loader = self.loader
        let keeping = keeper.map { KeepingLoader(base: loader, keeper: $0) }
        let readers = min(jobs, loads.count)
        let queue = LoadQueue(count: loads.count, readers: readers)
        let (signals, signal) = AsyncStream.makeStream(of: Void.self)
        var finished = 0
        // Settles loads that ended: records each, and commits together those that read their photo.
        func settle(_ ended: [(index: Int, result: Result<PhotoContent, any Error>)]) async {
            var loaded: [(index: Int, placeholder: AlbumItemID, content: PhotoContent)] = []
            for (index, result) in ended {
                let load = loads[index]
                if Task.isCancelled, case .failure = result {
                    finished += 1
                    report.cancelled(load, at: index)
                    continue
                }
                if case .success(let content) = result, let placeholder = load.placeholder {
                    loaded.append((index, placeholder, content))
                    continue
                }
                record(result, of: load, at: index, order: order, in: &report)
                if let placeholder = load.placeholder { pending.remove(placeholder) }
                finished += 1
                progress(LoadProgress(finished: finished, total: loads.count, source: load.source))
            }
            await commit(loaded, of: loads, order: order, in: &report)
            for (index, placeholder, _) in loaded {
                pending.remove(placeholder)
                finished += 1
                progress(LoadProgress(finished: finished, total: loads.count, source: loads[index].source))
            }
        }
        await withTaskGroup(of: Void.self) { group in
            // `jobs` readers, each taking the next load as it ends one: they
            // never wait for a commit, so the loads that end while one is
            // written are committed together by the next.
            group.addTask {
                await withTaskGroup(of: Void.self) { group in
                    for _ in 0..<readers {
                        group.addTask {
                            while !Task.isCancelled, let index = queue.claim() {
                                await queue.waitForRoom()
                                let load = loads[index]
                                queue.add(index, await Self.attempt(load.keepsCopy ? keeping : loader, load.source))
                                signal.yield()
                            }
                        }
                    }
                }
                signal.finish()
            }
            for await _ in signals {
                await settle(queue.takeEnded())
            }
            queue.close()
            // Cancelled, the signals end early: what the readers still finish is settled here.
            await group.waitForAll()
            while case let ended = queue.takeEnded(), !ended.isEmpty {
                await settle(ended)
            }
        }
        // Cancelled: whatever never committed vanishes, in one transaction.
        var unfinished: [AlbumItemID] = []
        for (index, load) in loads.enumerated() {
            guard let placeholder = load.placeholder, pending.contains(placeholder) else { continue }
            report.cancelled(load, at: index)
            unfinished.append(placeholder)
        }
        if !unfinished.isEmpty { deleteStillPending(unfinished) }
        // The imports' history says what came in: what their undo takes out.
        recountImports(holding: loads.compactMap(\.placeholder))
        return report.finished()
    }

    /// Runs one load; nil: it keeps a copy and the runner has nowhere to keep it.
    private static func attempt(_ loader: (any PhotoLoader)?, _ source: String) async -> Result<PhotoContent, any Error> {
        guard let loader else { return .failure(LoadFailure.failed("it keeps a copy of the original, and the library keeps its originals nowhere this program can write")) }
        do {
            return .success(try await loader.load(source))
        } catch {
            return .failure(error)
        }
    }

    private func record(
        _ result: Result<PhotoContent, any Error>, of load: Load, at index: Int, order: RunOrder, in report: inout LoadReportBuilder
    ) {
        guard let placeholder = load.placeholder else {
            recordIntoLibrary(result, of: load, at: index, in: &report)
            return
        }
        switch result {
        case .success(let content):
            do {
                // As the session's principal: a load acts for whoever began it, with the rights they hold when it commits.
                let commit = try session.write {
                    try $0.commitLoad(placeholder, content: content, displacing: { order.comesAfter($0, index) })
                }
                order.record(commit, of: index, in: &report)
            } catch LibraryError.itemNotFound {
                report.cancelled(load, at: index)  // its placeholder was removed meanwhile
            } catch {
                report.failed(load, at: index, reason: "could not be saved: \(error)")
                deleteStillPending([placeholder])
            }
        case .failure(LoadFailure.waiting(let reason)):
            report.waiting(load, at: index, reason: reason)
        case .failure(let error):
            recordFailure(error, of: load, at: index, in: &report)
            deleteStillPending([placeholder])
        }
    }

    /// Commits loads that ended together in one transaction: the library's
    /// indexes (names', words') write one segment for them all rather than
    /// one each. Each load still lands in its own placeholder's slot; if any
    /// cannot (its placeholder removed meanwhile, its role ended), each
    /// commits on its own, as it would have alone.
    ///
    /// The write waits without holding a thread, so that loads go on reading
    /// meanwhile (and end together), and runs in a task of its own: a
    /// cancelled import still commits what it read.
    private func commit(
        _ loaded: [(index: Int, placeholder: AlbumItemID, content: PhotoContent)], of loads: [Load], order: RunOrder,
        in report: inout LoadReportBuilder
    ) async {
        guard !loaded.isEmpty else { return }
        let session = session
        let entries = loaded.map { (index: $0.index, placeholder: $0.placeholder, content: $0.content) }
        let written = await Task {
            try await session.write { writer in
                try entries.map { entry in
                    try writer.commitLoad(entry.placeholder, content: entry.content, displacing: { order.comesAfter($0, entry.index) })
                }
            }
        }.result
        guard case .success(let commits) = written else {
            for (index, _, content) in loaded { record(.success(content), of: loads[index], at: index, order: order, in: &report) }
            return
        }
        for ((index, _, _), commit) in zip(loaded, commits) {
            order.record(commit, of: index, in: &report)
        }
    }

    private func recordIntoLibrary(_ result: Result<PhotoContent, any Error>, of load: Load, at index: Int, in report: inout LoadReportBuilder) {
        switch result {
        case .success(let content):
            do {
                let (photo, isNew) = try session.write { try $0.addPhoto(content) }
                report.committed(load, at: index, item: nil, photo: photo.id, isNew: isNew)
            } catch {
                report.failed(load, at: index, reason: "could not be saved: \(error)")
            }
        case .failure(let error):
            recordFailure(error, of: load, at: index, in: &report)
        }
    }

    private func recordFailure(_ error: any Error, of load: Load, at index: Int, in report: inout LoadReportBuilder) {
        switch error {
        case LoadFailure.skipped(let reason): report.skipped(load, at: index, reason: reason)
        case LoadFailure.failed(let reason), LoadFailure.waiting(let reason): report.failed(load, at: index, reason: reason)
        case is CancellationError: report.cancelled(load, at: index)
        default: report.failed(load, at: index, reason: String(describing: error))
        }
    }

    /// Deletes those of `placeholders` that are still pending (another
    /// process may have removed some meanwhile). Best effort: a placeholder
    /// that cannot be deleted stays, stale, for `albums pending` to resolve.
    private func deleteStillPending(_ placeholders: [AlbumItemID]) {
        _ = try? session.library.write { writer in
            let existing = placeholders.filter { (try? writer.item($0))?.isPlaceholder == true }
            try writer.deletePlaceholders(existing)
        }
    }

    /// Has the history entries of the imports that began `placeholders`
    /// count what came in. Best effort: an entry left as it was still
    /// counts what it was given.
    private func recountImports(holding placeholders: [AlbumItemID]) {
        guard !placeholders.isEmpty else { return }
        _ = try? session.library.write { try $0.recountImports(holding: placeholders) }
    }
}

/// The order of a run's loads, which decides between two of them that
/// bring the same photo into one album: the one given first keeps its slot
/// and name, whichever ended first, so that the album comes out the same
/// however fast each file was read.
private struct RunOrder: Sendable {
    let loads: [LoadRunner.Load]
    /// Each placeholder's load, by index.
    private let indexes: [AlbumItemID: Int]

    init(_ loads: [LoadRunner.Load]) {
        self.loads = loads
        indexes = Dictionary(loads.enumerated().compactMap { index, load in load.placeholder.map { ($0, index) } }) { first, _ in first }
    }

    /// Whether `item` is the placeholder, committed or not, of a load given after the one at `index`.
    func comesAfter(_ item: AlbumItemID, _ index: Int) -> Bool {
        indexes[item].map { $0 > index } ?? false
    }

    /// Reports what committing the load at `index` did.
    func record(_ commit: LoadCommit, of index: Int, in report: inout LoadReportBuilder) {
        let load = loads[index]
        switch commit {
        case .committed(let item, let photo, _, let displaced?):
            if let later = indexes[displaced] {
                report.committed(load, at: index, item: item, photo: photo.id, displacing: loads[later], at: later)
            } else {
                report.committed(load, at: index, item: item, photo: photo.id, isNew: false)
            }
        case .committed(let item, let photo, let isNew, nil):
            report.committed(load, at: index, item: item, photo: photo.id, isNew: isNew)
        case .alreadyInAlbum(let photo):
            report.alreadyInAlbum(load, at: index, photo: photo.id)
        }
    }
}

/// What the readers of a run share: which load is read next, and the
/// results of those that ended and are not yet settled.
private final class LoadQueue: Sendable {
    /// The most loads one transaction commits: a writer waiting behind it
    /// (the page's drop, another import) waits for no more than these.
    static let largestCommit = 64
    /// The most results left unsettled before readers wait for the writer:
    /// a library slower to write than its files are to read holds only these.
    static let largestBacklog = 2 * largestCommit

    /// The most results left unsettled before the readers wait: one for a
    /// single reader, so that one load at a time (`--jobs 1`) also commits
    /// one at a time, each its own transaction, as a script counting an
    /// album's revisions expects.
    private let backlog: Int

    private struct State {
        var next = 0
        var ended: [(index: Int, result: Result<PhotoContent, any Error>)] = []
        var waiting: [CheckedContinuation<Void, Never>] = []
        var isClosed = false
    }

    private let state = Mutex(State())
    private let count: Int

    init(count: Int, readers: Int) {
        self.count = count
        backlog = readers <= 1 ? 1 : Self.largestBacklog
    }

    /// The index of the next load to read; nil when every load is taken.
    func claim() -> Int? {
        state.withLock { state in
            guard state.next < count else { return nil }
            defer { state.next += 1 }
            return state.next
        }
    }

    /// Returns once fewer results than the backlog allows wait to be
    /// settled, or the queue is closed.
    func waitForRoom() async {
        await withCheckedContinuation { continuation in
            let hasRoom = state.withLock { state in
                guard !state.isClosed && state.ended.count >= backlog else { return true }
                state.waiting.append(continuation)
                return false
            }
            if hasRoom { continuation.resume() }
        }
    }

    func add(_ index: Int, _ result: sending Result<PhotoContent, any Error>) {
        state.withLock { $0.ended.append((index, result)) }
    }

    /// The results left so far (at most ``largestCommit``), in the loads' order.
    func takeEnded() -> [(index: Int, result: Result<PhotoContent, any Error>)] {
        let (taken, waiting) = state.withLock { state in
            let taken = state.ended.prefix(Self.largestCommit)
            state.ended.removeFirst(taken.count)
            defer { state.waiting.removeAll() }
            return (taken.sorted { $0.index < $1.index }, state.waiting)
        }
        for reader in waiting { reader.resume() }
        return taken
    }

    /// No reader waits for room any more: the settling has stopped (a cancelled run).
    func close() {
        let waiting = state.withLock { state in
            state.isClosed = true
            defer { state.waiting.removeAll() }
            return state.waiting
        }
        for reader in waiting { reader.resume() }
    }
}
