import AlbumsImporting
import AlbumsPersistence
import AlbumsTransfer
import AlbumsWire
import Foundation

/// How `import --tree` tells what it made or would make: the tree, each
/// node new or found, and each album's photos (imported, already in the
/// library, already in the album, failed), as text or JSON.
struct TreeImportOutput {
    let console: Console
    /// The catalog imported, if one was.
    var catalog: CatalogImport?

    /// One album's or folder's line of the report.
    struct NodeJSON: Encodable {
        let kind: String
        let path: String
        let source: String
        let new: Bool
        /// Albums: photos to add (dry run) or added.
        let photos: Int
        let alreadyThere: Int
        /// After the loads, albums only: how the photos came.
        @KeptNull var imported: Int?
        @KeptNull var alreadyInLibrary: Int?
        @KeptNull var alreadyInAlbum: Int?
        /// Photos whose files are not there: placeholders hold their slots.
        @KeptNull var missing: Int?

        /// The JSON keys, in snake_case.
        enum CodingKeys: String, CodingKey {
            case kind, path, source, new, photos, imported, missing
            case alreadyThere = "already_there"
            case alreadyInLibrary = "already_in_library"
            case alreadyInAlbum = "already_in_album"
        }
    }

    struct ReportJSON: Encodable {
        let dryRun: Bool
        @KeptNull var into: String?
        let nodes: [NodeJSON]
        let skipped: [LoadReportJSON.Problem]
        let failed: [LoadReportJSON.Problem]
        let cancelled: [String]
        /// Loads whose copy the library's place did not take: their placeholders keep their slots.
        let waiting: [LoadReportJSON.Problem]
        /// What the catalog holds that is not carried, counted; empty for a folder tree.
        let notCarried: [String: Int]
        let orderInferred: Bool
        /// The catalog's folders this machine does not have, with their photos.
        let unreached: [UnreachedJSON]
        /// Photos not found whose organizer says why.
        let whyMissing: [LoadReportJSON.Problem]

        /// The JSON keys, in snake_case.
        enum CodingKeys: String, CodingKey {
            case dryRun = "dry_run"
            case into, nodes, skipped, failed, cancelled, waiting
            case notCarried = "not_carried"
            case orderInferred = "order_inferred"
            case unreached
            case whyMissing = "why_missing"
        }
    }

    /// A folder of the catalog's originals that is not there.
    struct UnreachedJSON: Encodable {
        let path: String
        let photos: Int
    }

    /// Prints `plan`, and, after a run (`report`), what its loads did;
    /// `missing`: the photos whose files are not there.
    func print(_ plan: TreeImportPlan, report: LoadReport?, missing: Set<String>) throws {
        let tallies = plan.nodes.indices.map { report?.tallies[$0] ?? LoadReport.Tally() }
        let imported = tallies.map(\.committed)
        let reused = tallies.map(\.alreadyInLibrary)
        let inAlbum = tallies.map(\.alreadyInAlbum)
        let absent = plan.nodes.map { node in missing.isEmpty ? 0 : node.photos.count { missing.contains($0) } }
        let into = plan.destinationPath
        let skipped = plan.skipped.map { LoadReportJSON.Problem(source: $0.path, reason: $0.reason) } + (report?.skipped ?? []).map { .init(source: $0.source, reason: $0.reason) }
        let failed = (report?.failed ?? []).map { LoadReportJSON.Problem(source: $0.source, reason: $0.reason) }
        // Archives' photos are never missing (they are extracted), so this asks only of catalogs read where they lie.
        let unreached = missing.isEmpty ? [] : catalog?.unreachedFolders() ?? []
        let whyMissing = missing.sorted().compactMap { path in catalog?.whyMissing[path].map { LoadReportJSON.Problem(source: path, reason: $0.description) } }
        if console.json {
            let nodes = plan.nodes.enumerated().map { index, node in
                let isAlbum = node.kind == .album && report != nil
                return NodeJSON(
                    kind: node.kind.rawValue, path: node.path, source: node.source, new: node.isNew, photos: node.photos.count,
                    alreadyThere: node.alreadyThere, imported: isAlbum ? imported[index] : nil, alreadyInLibrary: isAlbum ? reused[index] : nil,
                    alreadyInAlbum: isAlbum ? inAlbum[index] : nil, missing: node.kind == .album ? absent[index] : nil)
            }
            try console.result(
                json: ReportJSON(
                    dryRun: report == nil, into: into, nodes: nodes, skipped: skipped, failed: failed, cancelled: report?.cancelled ?? [],
                    waiting: (report?.waiting ?? []).map { .init(source: $0.source, reason: $0.reason) },
                    notCarried: Dictionary((catalog?.notCarried ?? []).map { ($0.what, $0.count) }) { a, _ in a },
                    orderInferred: catalog?.orderInferred ?? false, unreached: unreached.map { UnreachedJSON(path: $0.path, photos: $0.photoCount) },
                    whyMissing: whyMissing))
            return
        }
        let albums = plan.nodes.filter { $0.kind == .album }
        let made = (folders: plan.nodes.filter { $0.kind == .folder && $0.isNew }.count, albums: albums.filter(\.isNew).count)
        let place = into.map { " into \(LibraryError.quoted($0))" } ?? ""
        let before = albums.reduce(0) { $0 + $1.alreadyThere }
        if plan.photoCount == 0 && plan.resumed.isEmpty && made == (0, 0) {
            console.result("nothing new\(place): \(LibraryError.counted(albums.count, "album")) found, \(LibraryError.counted(before, "photo")) there from before")
        } else if let report {
            let count = report.total.committed
            console.result("imported \(LibraryError.counted(count, "photo"))\(place): \(LibraryError.counted(made.folders, "new folder")), \(LibraryError.counted(made.albums, "new album"))")
        } else {
            console.result("would import \(LibraryError.counted(plan.photoCount, "photo"))\(place): \(LibraryError.counted(made.folders, "new folder")), \(LibraryError.counted(made.albums, "new album"))")
        }
        for (index, node) in plan.nodes.enumerated() {
            let indent = String(repeating: "  ", count: node.depth + 1)
            let state = node.isNew ? "new" : "found"
            guard node.kind == .album else {
                console.result("\(indent)\(node.name)/  (\(state) folder)")
                continue
            }
            var parts: [String] = []
            if report != nil {
                parts.append("\(imported[index]) imported")
                if reused[index] > 0 { parts.append("\(reused[index]) already in the library") }
                if inAlbum[index] > 0 { parts.append("\(inAlbum[index]) already in the album") }
                if absent[index] > 0 { parts.append("\(absent[index]) missing, holding their places") }
            } else {
                parts.append("\(node.photos.count) to import")
                if absent[index] > 0 { parts.append("\(absent[index]) of them missing") }
            }
            if node.alreadyThere > 0 { parts.append("\(node.alreadyThere) there from before") }
            console.result("\(indent)\(node.name)  (\(state) album: \(parts.joined(separator: ", ")))")
        }
        for problem in skipped { console.result("  skipped  \(problem.source): \(problem.reason)") }
        if let catalog, !catalog.notCarried.isEmpty {
            console.result("  not carried: " + catalog.notCarried.map { "\($0.count) \($0.what)" }.joined(separator: ", "))
        }
        if catalog?.orderInferred == true { console.result("  the catalog keeps no order: each album is in capture-time order") }
        for problem in failed { console.note("  failed   \(problem.source): \(problem.reason)") }
        for problem in whyMissing { console.note("  not here \(problem.source): \(problem.reason)") }
        for folder in unreached {
            console.note("  not on this machine: \(folder.path) (\(LibraryError.counted(folder.photoCount, "photo"))); --map \(folder.path)=WHERE says where it is here")
        }
        if report != nil && !missing.isEmpty {
            let holds = missing.count == 1 ? "holds its place" : "hold their places"
            console.note("  \(LibraryError.counted(missing.count, "photo")) not found \(holds); once the files are back, albums pending resume loads them")
        }
        if let report, !report.cancelled.isEmpty {
            console.note("  cancelled \(LibraryError.counted(report.cancelled.count, "load")) that had not finished; importing again finishes them")
        }
        if let report { LoadSession.noteWaiting(report, on: console) }
    }
}
