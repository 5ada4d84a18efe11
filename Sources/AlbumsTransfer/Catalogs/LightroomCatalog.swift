import AlbumsPersistence
import Foundation

/// Lightroom Classic's catalog (`.lrcat`): collections become albums and
/// collection sets folders, nested as in Lightroom, inside a folder
/// "Lightroom"; each collection in its custom order
/// (`AgLibraryCollectionImage.positionInCollection`), photos without a
/// custom place after, by capture time. Smart collections are counted, not
/// imported: they are searches, not lists.
///
/// Read from the tables a catalog holds (an `.lrcat` is SQLite):
/// `AgLibraryCollection (id_local, name, parent, creationId, systemOnly)`,
/// `AgLibraryCollectionImage (collection, image, positionInCollection)`,
/// `Adobe_images (id_local, rootFile, captureTime, masterImage)` and the
/// file's place in `AgLibraryFile`, `AgLibraryFolder` and `AgLibraryRootFolder`.
public enum LightroomCatalog {
    /// Reads the catalog at `path`, its originals' paths mapped by `map`.
    ///
    /// - Throws: ``CatalogFailure``.
    public static func read(_ path: String, map: PathMap = .none) throws(CatalogFailure) -> CatalogImport {
        try CatalogFailure.reading(path) { file in try read(file, map: map) }
    }

    private static let sortType = "com.adobe.ag.library.sortType"
    private static let sortDirection = "com.adobe.ag.library.sortDirection"

    /// A photo of a collection, with what each of Lightroom's sorts reads.
    struct Member {
        let path: String
        /// `positionInCollection`: its place in the custom order.
        let position: Double?
        /// `captureTime`, ISO 8601 text.
        let time: String?
        /// `Adobe_images.id_local`, which grows as photos are added.
        let image: Int64
        let rating: Int64
        /// The file's name, as Lightroom's "File Name" sort reads it.
        let name: String
    }

    /// How Lightroom sorts a collection (`AgLibraryCollectionContent`'s
    /// `sortType`, and `sortDirection` "ascending" or "descending"):
    /// `user` (the custom order), `captureTime`, `fileName`, `addedOrder`
    /// and `rating` are followed; any other sort (by edit count, by label,
    /// …) keeps the custom order. Ties keep the custom order too.
    struct CollectionSort {
        var type = "user"
        var descending = false

        func ordered(_ members: [Member]) -> [Member] {
            // The custom order; photos without a place after, by capture time, then path.
            let custom = members.sorted { a, b in
                switch (a.position, b.position) {
                case (let x?, let y?) where x != y: x < y
                case (.some, nil): true
                case (nil, .some): false
                default: (a.time ?? "~", a.path) < (b.time ?? "~", b.path)
                }
            }
            // Each with its place in the custom order, which breaks ties.
            typealias Ranked = (rank: Int, member: Member)
            let ascending: (Ranked, Ranked) -> Bool
            switch type {
            case "captureTime":
                ascending = { a, b in a.member.time != b.member.time ? (a.member.time ?? "") < (b.member.time ?? "") : a.rank < b.rank }
            case "fileName":
                ascending = { a, b in
                    let order = a.member.name.localizedStandardCompare(b.member.name)
                    return order != .orderedSame ? order == .orderedAscending : a.rank < b.rank
                }
            case "addedOrder": ascending = { a, b in a.member.image != b.member.image ? a.member.image < b.member.image : a.rank < b.rank }
            case "rating": ascending = { a, b in a.member.rating != b.member.rating ? a.member.rating < b.member.rating : a.rank < b.rank }
            default: return descending ? custom.reversed() : custom
            }
            let ranked: [Ranked] = custom.enumerated().map { ($0.offset, $0.element) }
            return ranked.sorted { descending ? ascending($1, $0) : ascending($0, $1) }.map(\.member)
        }
    }

    private static let collection = "com.adobe.ag.library.collection"
    private static let set = "com.adobe.ag.library.group"
    private static let smart = "com.adobe.ag.library.smart_collection"

    private static func read(_ file: ForeignDatabaseFile, map: PathMap) throws -> CatalogImport {
        let columns = try file.columns(
            requiring: [
                "AgLibraryCollection": ["id_local", "name", "parent", "creationId"],
                "AgLibraryCollectionImage": ["collection", "image", "positionInCollection"], "Adobe_images": ["id_local", "rootFile"],
                "AgLibraryFile": ["id_local", "baseName", "extension", "folder"], "AgLibraryFolder": ["id_local", "pathFromRoot", "rootFolder"],
                "AgLibraryRootFolder": ["id_local", "absolutePath"],
            ], of: "Lightroom Classic")
        let captureTime = columns["Adobe_images"]?.contains("captureTime") == true ? "i.captureTime" : "NULL"
        // A photo flagged rejected (pick -1) is one its owner marked to throw away: it stays out, counted.
        let picked = columns["Adobe_images"]?.contains("pick") == true ? "WHERE coalesce(i.pick, 0) != -1" : ""
        let systemOnly = columns["AgLibraryCollection"]?.contains("systemOnly") == true ? "c.systemOnly" : "0"

        struct Node {
            let id: Int64
            let name: String
            let parent: Int64?
            let isSet: Bool
        }
        var nodes: [Node] = []
        var smartCount = 0
        var creations = 0
        let knowsSystem = columns["AgLibraryCollection"]?.contains("systemOnly") == true
        for row in try file.rows("SELECT c.id_local AS id, c.name AS name, c.parent AS parent, c.creationId AS kind, \(systemOnly) AS system FROM AgLibraryCollection c ORDER BY c.id_local") {
            guard let id = row.integer("id") else { continue }
            let kind = row.text("kind") ?? ""
            if kind == smart { smartCount += 1 }
            // A saved book, slideshow, print or web gallery is a creation, not a collection;
            // the modules' unsaved scratch state is nobody's.
            if kind.hasPrefix("com.adobe.ag."), !kind.hasPrefix("com.adobe.ag.library."), !kind.hasSuffix(".unsaved") { creations += 1 }
            // Quick Collection and other collections Lightroom keeps for itself are not the
            // person's; a catalog older than systemOnly knows its Quick Collection by name.
            guard kind == collection || kind == set, (row.integer("system") ?? 0) == 0 else { continue }
            if !knowsSystem, kind == collection, row.text("name") == "Quick Collection", row.integer("parent") == nil { continue }
            nodes.append(Node(id: id, name: row.text("name") ?? "Collection \(id)", parent: row.integer("parent"), isSet: kind == set))
        }

        var members: [Int64: [Member]] = [:]
        let rating = columns["Adobe_images"]?.contains("rating") == true ? "i.rating" : "NULL"
        try file.forEachRow("""
            SELECT ci.collection AS collection, ci.positionInCollection AS position, \(captureTime) AS time, i.id_local AS image,
                \(rating) AS rating, r.absolutePath AS root, f.pathFromRoot AS folder, l.baseName AS base, l.extension AS extension
            FROM AgLibraryCollectionImage ci
            JOIN Adobe_images i ON i.id_local = ci.image
            JOIN AgLibraryFile l ON l.id_local = i.rootFile
            JOIN AgLibraryFolder f ON f.id_local = l.folder
            JOIN AgLibraryRootFolder r ON r.id_local = f.rootFolder
            \(picked)
            """
        ) { row in
            guard let collection = row.integer("collection"), let root = row.text("root"), let base = row.text("base") else { return }
            let folder = row.text("folder") ?? ""
            let name = (row.text("extension").map { $0.isEmpty ? base : "\(base).\($0)" }) ?? base
            let path = map.local(join(root, folder) + name)
            members[collection, default: []].append(Member(
                path: path, position: row.real("position"), time: row.text("time"), image: row.integer("image") ?? 0,
                rating: row.integer("rating") ?? 0, name: name))
        }
        // The photos flagged rejected, wherever they are, for an import that asks for them.
        var setAside: [String] = []
        if columns["Adobe_images"]?.contains("pick") == true {
            try file.forEachRow("""
                SELECT r.absolutePath AS root, f.pathFromRoot AS folder, l.baseName AS base, l.extension AS extension
                FROM Adobe_images i
                JOIN AgLibraryFile l ON l.id_local = i.rootFile
                JOIN AgLibraryFolder f ON f.id_local = l.folder
                JOIN AgLibraryRootFolder r ON r.id_local = f.rootFolder
                WHERE i.pick = -1 ORDER BY i.id_local
                """) { row in
                guard let root = row.text("root"), let base = row.text("base") else { return }
                let name = (row.text("extension").map { $0.isEmpty ? base : "\(base).\($0)" }) ?? base
                setAside.append(map.local(join(root, row.text("folder") ?? "") + name))
            }
        }
        // How each collection is sorted (the Library's sort, kept per collection).
        var sorts: [Int64: CollectionSort] = [:]
        if (columns["AgLibraryCollectionContent"] ?? []).isSuperset(of: ["collection", "content", "owningModule"]) {
            for row in try file.rows(
                "SELECT collection, content, owningModule FROM AgLibraryCollectionContent WHERE owningModule IN ('\(sortType)', '\(sortDirection)')")
            {
                guard let collection = row.integer("collection"), let content = row.text("content") else { continue }
                if row.text("owningModule") == sortType {
                    sorts[collection, default: CollectionSort()].type = content
                } else {
                    sorts[collection, default: CollectionSort()].descending = content == "descending"
                }
            }
        }

        // As Lightroom's panel shows them: by name; a set with nothing in it has nothing to become.
        func byName(_ a: SourceFolder, _ b: SourceFolder) -> Bool { a.name.localizedStandardCompare(b.name) == .orderedAscending }
        let children = Dictionary(grouping: nodes) { $0.parent }
        func folder(for node: Node) -> SourceFolder? {
            var folder = SourceFolder(name: node.name, path: "\(node.isSet ? "collection set" : "collection") \(node.id)", key: "collection/\(node.id)")
            guard !node.isSet else {
                folder.folders = (children[node.id] ?? []).compactMap(folder(for:)).sorted(by: byName)
                return folder.folders.isEmpty ? nil : folder
            }
            folder.photos = (sorts[node.id] ?? CollectionSort()).ordered(members[node.id] ?? []).map(\.path)
            return folder
        }
        var root = SourceFolder(name: "Lightroom", path: file.path, key: "catalog")
        let ids = Set(nodes.map(\.id))
        root.folders = nodes.filter { $0.parent.map { !ids.contains($0) } ?? true }.compactMap(folder(for:)).sorted(by: byName)

        let notCarried: [(what: String, count: Int)] = [("smart collections", smartCount), ("saved books, slideshows, prints and web galleries", creations)] + [
            try file.counted("rejected photos", "SELECT count(*) AS n FROM Adobe_images WHERE pick = -1", needs: "Adobe_images", ["pick"], in: columns),
            try file.counted("ratings", "SELECT count(*) AS n FROM Adobe_images WHERE rating > 0", needs: "Adobe_images", ["rating"], in: columns),
            try file.counted("keywords", "SELECT count(*) AS n FROM AgLibraryKeywordImage", needs: "AgLibraryKeywordImage", ["image"], in: columns),
            try file.counted("virtual copies", "SELECT count(*) AS n FROM Adobe_images WHERE masterImage IS NOT NULL", needs: "Adobe_images", ["masterImage"], in: columns),
            try file.counted("edits", "SELECT count(*) AS n FROM Adobe_imageDevelopSettings WHERE length(text) > 0", needs: "Adobe_imageDevelopSettings", ["text"], in: columns),
        ].compactMap { $0 }
        return CatalogImport(kind: .lightroom, catalog: file.path, root: root, orderInferred: false, notCarried: notCarried, setAside: setAside)
    }

    /// A root's path and a folder's path from it, which Lightroom writes with a trailing slash each.
    private static func join(_ root: String, _ folder: String) -> String {
        let base = root.hasSuffix("/") ? root : root + "/"
        guard !folder.isEmpty else { return base }
        return base + (folder.hasSuffix("/") ? folder : folder + "/")
    }
}
