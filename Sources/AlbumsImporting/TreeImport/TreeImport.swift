import AlbumsPersistence
import Foundation

/// The order of the albums a tree import makes.
public enum TreeImportOrder: String, Hashable, Sendable, CaseIterable {
    /// By file name, as a file browser sorts names ("IMG_2" before "IMG_10").
    case name
    /// By the capture date each photo records (photos without one last), once every load has committed.
    case captureDate = "capture-date"
}

/// Imports a folder tree as folders and albums (see ``TreeImportPlan``):
/// the folders, the albums and a placeholder for every photo are made in
/// one transaction, so each album's order is fixed before any bytes are
/// read; then the loads fill their slots, as any import's do.
///
/// A photo whose file is not there (a catalog's original on a drive not
/// mounted) keeps its slot as a placeholder whose load is stopped:
/// `albums pending` lists it, and `pending resume` (or importing again)
/// loads it once the file is back.
///
/// ```swift
/// let tree = try SourceFolder.read("/Users/ana/Pictures/Travel")
/// let result = try await TreeImport(runner: LoadRunner(session: session)).run(tree, into: nil)
/// print("\(result.report.total.committed) photos in \(result.plan.nodes.filter { $0.kind == .album }.count) albums")
/// ```
public struct TreeImport: Sendable {
    /// Runs the loads.
    public let runner: LoadRunner

    /// An importer whose loads `runner` runs, acting for its session's principal.
    public init(runner: LoadRunner) {
        self.runner = runner
    }

    /// What an import did: its plan, the ids of what it made or found, and its loads' report.
    public struct Result: Sendable {
        /// What the import made and found.
        public let plan: TreeImportPlan
        /// Photos whose files were not there: placeholders hold their slots.
        public let missing: Set<String>
        /// The library id of each node of the plan, by index: made or found.
        public let ids: [Int64]
        /// What the loads did: counted by album (``LoadReport/tallies``, by
        /// the index of its node in ``plan``), problems listed.
        public let report: LoadReport
    }

    /// Plans importing `root`, from `source`, into `destination` without writing.
    public func plan(_ root: SourceFolder, from source: String = "tree", into destination: FolderReference?) throws -> TreeImportPlan {
        try runner.session.read { try TreeImportPlan(importing: root, from: source, into: destination, reader: $0) }
    }

    /// Imports `root` into `destination` (nil: the top level), then sorts
    /// the albums it made by `order`; albums found from an earlier import
    /// keep their order, and their new photos come at their end.
    ///
    /// - Throws: ``LibraryError`` when the tree cannot be made (nothing is
    ///   written then); a load that fails is in the report instead.
    public func run(
        _ root: SourceFolder, from source: String = "tree", into destination: FolderReference?, order: TreeImportOrder = .name,
        progress: @escaping @Sendable (LoadProgress) -> Void = { _ in }
    ) async throws -> Result {
        // Which files are not there, asked before the transaction rather than while it holds the library.
        let missing = root.photosNotFound()
        let keeps = runner.keeper != nil
        let (plan, ids, loads) = try await runner.session.write { writer in
            let plan = try TreeImportPlan(importing: root, from: source, into: destination, reader: writer)
            var ids: [Int64] = []
            var loads: [LoadRunner.Load] = []
            for node in plan.nodes {
                let parent: FolderReference? = node.parent.map { .id(FolderID(rawValue: ids[$0])) } ?? plan.destination.map { .id($0.id) }
                let id: Int64 =
                    switch (node.kind, node.existing) {
                    case (_, let existing?): existing
                    case (.folder, nil): try writer.createFolder(named: node.name, placement: .into(parent)).id.rawValue
                    case (.album, nil): try writer.createAlbum(named: node.name, placement: .into(parent)).id.rawValue
                    }
                ids.append(id)
                guard node.kind == .album else {
                    try writer.recordImportOrigin(source: plan.source, key: node.key, folder: FolderID(rawValue: id))
                    continue
                }
                let album = AlbumID(rawValue: id)
                try writer.recordImportOrigin(source: plan.source, key: node.key, album: album)
                if node.isNew, let description = node.description.flatMap(ItemMarks.mendedDescription) {
                    _ = try writer.apply(try writer.checkAlbumDescription(album, to: description))
                }
                guard !node.photos.isEmpty else { continue }
                try writer.requireChangeable(try writer.album(album))
                let now = Date()
                let pending = node.photos.map {
                    PendingLoad(source: $0, owner: missing.contains($0) ? .stopped : .current, createdAt: now, keepsCopy: keeps)
                }
                let placeholders = try writer.insertPlaceholders(pending, into: album)
                let group = ids.count - 1
                loads += zip(placeholders, node.photos).filter { !missing.contains($0.1) }.map {
                    LoadRunner.Load(placeholder: $0, source: $1, group: group, keepsCopy: keeps)
                }
            }
            // What a killed import left behind, taken over to load again.
            try writer.claimPlaceholders(plan.resumed.filter { !$0.isRetargeted }.map(\.placeholder))
            try writer.markCopies(of: plan.resumed.map(\.placeholder), kept: keeps)
            // Pointed at where the file should be now; one still missing there keeps its slot, stopped, as a new one would.
            func retargeted(missing isMissing: Bool) -> [AlbumItemID: String] {
                Dictionary(plan.resumed.filter { $0.isRetargeted && missing.contains($0.source) == isMissing }.map { ($0.placeholder, $0.source) }) { a, _ in a }
            }
            try writer.retargetPlaceholders(retargeted(missing: false))
            try writer.retargetPlaceholders(retargeted(missing: true), owner: .stopped)
            loads += plan.resumed.filter { !missing.contains($0.source) }.map {
                LoadRunner.Load(placeholder: $0.placeholder, source: $0.source, group: $0.node, keepsCopy: keeps)
            }
            return (plan, ids, loads)
        }
        // Counted by album, not listed: memory stays flat however many photos come.
        let report = await runner.run(loads, itemizing: false, progress: progress)
        if order == .captureDate && !Task.isCancelled {
            let made = zip(plan.nodes, ids).compactMap { node, id in node.kind == .album && node.isNew ? AlbumID(rawValue: id) : nil }
            if !made.isEmpty {
                try await runner.session.write { writer in
                    for album in made { try writer.sortAlbum(.id(album), by: .captureDate) }
                }
            }
        }
        return Result(plan: plan, missing: missing.intersection(plan.nodes.lazy.flatMap(\.photos)), ids: ids, report: report)
    }
}
