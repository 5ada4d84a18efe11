import AlbumsImageFacts
import AlbumsPersistence
import Foundation

/// Lightroom Classic's catalog (`.lrcat`): collections become albums and
/// collection sets folders, nested as in Lightroom, inside a folder
/// "Lightroom"; each collection in its custom order
/// (`AgLibraryCollectionImage.positionInCollection`), photos without a
/// custom place after, by capture time. Smart collections are counted, not
/// imported: they are searches, not lists. Each photo's title, caption,
/// rating, flag and keywords come along on its item.
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
        func optional(_ table: String, _ column: String, as alias: String) -> String {
            columns[table]?.contains(column) == true ? "\(column) AS \(alias)" : "NULL AS \(alias)"
        }
        let systemOnly = columns["AgLibraryCollection"]?.contains("systemOnly") == true ? "c.systemOnly" : "0"

        let roots = try readRoots(file, columns: columns, map: map)
        // Every photo of the catalog, where its file lies here.
        var images: [Int64: Image] = [:]
        var imageOrder: [Int64] = []
        var folders: [Int64: (root: Int64, path: String)] = [:]
        for row in try file.rows("SELECT id_local AS id, rootFolder AS root, pathFromRoot AS path FROM AgLibraryFolder") {
            guard let id = row.integer("id"), let root = row.integer("root") else { continue }
            folders[id] = (root, row.text("path") ?? "")
        }
        try file.forEachRow("""
            SELECT i.id_local AS image, l.folder AS folder, l.baseName AS base, l.extension AS extension,
                \(optional("AgLibraryFile", "sidecarExtensions", as: "sidecars")),
                \(optional("Adobe_images", "captureTime", as: "time")), \(optional("Adobe_images", "rating", as: "rating")),
                \(optional("Adobe_images", "pick", as: "pick")), \(optional("Adobe_images", "fileFormat", as: "format")),
                \(optional("Adobe_images", "masterImage", as: "master")), \(optional("Adobe_images", "orientation", as: "orientation"))
            FROM Adobe_images i JOIN AgLibraryFile l ON l.id_local = i.rootFile
            ORDER BY i.id_local
            """
        ) { row in
            guard let id = row.integer("image"), let base = row.text("base"), let folderID = row.integer("folder"),
                let folder = folders[folderID], let root = roots[folder.root]
            else { return }
            let format = row.text("format") ?? ""
            // A raw file Lightroom imported with its camera's JPEG (RAW+JPEG, the
            // JPEG a sidecar of the raw) comes in as that JPEG: albums reads no raw file.
            let jpeg = format == "RAW" ? (row.text("sidecars") ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                .first { ["jpg", "jpeg"].contains($0.lowercased()) } : nil
            let name = Self.fileName(base, jpeg ?? row.text("extension"))
            images[id] = Image(
                path: map.local(join(root.path, folder.path) + name), name: name, folder: folderID, time: row.text("time"),
                rating: row.integer("rating") ?? 0, isRejected: row.integer("pick") == -1,
                isVirtualCopy: row.integer("master") != nil, orientation: row.text("orientation").flatMap(Self.orientation(lightroom:)))
            imageOrder.append(id)
        }

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

        // A photo or video flagged rejected (pick -1) is one its owner marked to throw
        // away: it stays out of the albums, counted, and comes in set aside.
        func isShown(_ image: Image) -> Bool { !image.isRejected }
        var members: [Int64: [Member]] = [:]
        try file.forEachRow("SELECT collection, image, positionInCollection AS position FROM AgLibraryCollectionImage") { row in
            guard let collection = row.integer("collection"), let id = row.integer("image"), let image = images[id], isShown(image) else { return }
            members[collection, default: []].append(Member(
                path: image.path, position: row.real("position"), time: image.time, image: id, rating: image.rating, name: image.name))
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
        // Beside the collections, the Folders panel: every photo, where it lies.
        let shown = imageOrder.compactMap { images[$0] }.filter { isShown($0) && !$0.isVirtualCopy }
        if let tree = folderTree(shown, roots: roots, folders: folders, taken: Set(root.folders.map(\.name))) { root.folders.append(tree) }

        let all = imageOrder.compactMap { images[$0] }
        let notCarried: [(what: String, count: Int)] = [
            ("smart collections", smartCount), ("saved books, slideshows, prints and web galleries", creations),
            ("rejected photos", all.count { $0.isRejected }),
        ] + [
            try file.counted("virtual copies", "SELECT count(*) AS n FROM Adobe_images WHERE masterImage IS NOT NULL", needs: "Adobe_images", ["masterImage"], in: columns),
            // Develop settings are a Lua table of text: a crop says HasCrop = true.
            try file.counted(
                "crops", "SELECT count(*) AS n FROM Adobe_imageDevelopSettings WHERE instr(text, 'HasCrop = true') > 0", needs: "Adobe_imageDevelopSettings",
                ["text"], in: columns),
            // Every photo has settings; those changed from the defaults say so, where the catalog is new enough to.
            try file.counted(
                "other edits",
                columns["Adobe_imageDevelopSettings"]?.contains("hasDevelopAdjustmentsEx") == true
                    ? "SELECT count(*) AS n FROM Adobe_imageDevelopSettings WHERE hasDevelopAdjustmentsEx > 0 AND instr(text, 'HasCrop = true') = 0"
                    : "SELECT count(*) AS n FROM Adobe_imageDevelopSettings WHERE length(text) > 0 AND instr(text, 'HasCrop = true') = 0",
                needs: "Adobe_imageDevelopSettings", ["text"], in: columns),
        ].compactMap { $0 }
        let written = try Self.marks(file, columns: columns)
        var marks: [String: ItemMarks] = [:]
        for id in imageOrder {
            if let image = images[id], let found = written[id] { marks[image.path] = found }
        }
        return CatalogImport(
            kind: .lightroom, catalog: file.path, root: root, orderInferred: false, notCarried: notCarried,
            orientations: Dictionary(all.compactMap { image in image.orientation.map { (image.path, $0) } }) { a, _ in a },
            setAside: all.filter(\.isRejected).map(\.path), roots: roots.values.sorted { $0.id < $1.id }.map(\.path), marks: marks)
    }

    /// What people wrote on each photo in Lightroom, by `Adobe_images.id_local`:
    /// its caption (`AgLibraryIPTC.caption`), its title (kept only in the
    /// XMP Lightroom holds for it, `Adobe_AdditionalMetadata.xmp`), its
    /// rating (`Adobe_images.rating`), its flag (`pick`: 1 flagged, a
    /// favourite here; -1 rejected) and its keywords (`AgLibraryKeywordImage`
    /// and `AgLibraryKeyword.name`, the keyword itself without its parents).
    private static func marks(_ file: ForeignDatabaseFile, columns: [String: Set<String>]) throws -> [Int64: ItemMarks] {
        var words = CatalogWords()
        if (columns["AgLibraryIPTC"] ?? []).isSuperset(of: ["image", "caption"]) {
            try file.forEachRow("SELECT image, caption FROM AgLibraryIPTC WHERE length(trim(caption)) > 0 ORDER BY id_local") { row in
                if let image = row.integer("image"), let caption = row.text("caption"), words.captions[image] == nil { words.captions[image] = caption }
            }
        }
        if (columns["Adobe_AdditionalMetadata"] ?? []).isSuperset(of: ["image", "xmp"]) {
            try file.forEachRow("SELECT image, xmp FROM Adobe_AdditionalMetadata WHERE instr(xmp, 'dc:title') > 0") { row in
                if let image = row.integer("image"), let xmp = row.text("xmp"), let title = ImageWords(xmp: Data(xmp.utf8)).title { words.titles[image] = title }
            }
        }
        if (columns["AgLibraryKeywordImage"] ?? []).isSuperset(of: ["image", "tag"]), (columns["AgLibraryKeyword"] ?? []).isSuperset(of: ["id_local", "name"]) {
            try file.forEachRow("""
                SELECT ki.image AS image, k.name AS name FROM AgLibraryKeywordImage ki JOIN AgLibraryKeyword k ON k.id_local = ki.tag
                WHERE k.name IS NOT NULL ORDER BY ki.image, ki.id_local
                """) { row in
                if let image = row.integer("image"), let name = row.text("name") { words.keywords[image, default: []].append(name) }
            }
        }
        if (columns["Adobe_images"] ?? []).isSuperset(of: ["id_local", "rating", "pick"]) {
            try file.forEachRow("SELECT id_local AS image, rating, pick FROM Adobe_images WHERE rating >= 1 OR pick != 0") { row in
                guard let image = row.integer("image") else { return }
                // Clamped before it becomes an Int: a catalog's REAL may hold anything.
                if let stars = row.real("rating"), stars.isFinite, stars >= 1 { words.ratings[image] = Int(min(stars, 5).rounded()) }
                if let pick = row.real("pick") {
                    if pick < 0 { words.ratings[image] = -1 } else if pick > 0 { words.favourites.insert(image) }
                }
            }
        }
        return words.marks
    }

    /// A photo of the catalog: its file where it lies here, and what sorts and filters read.
    struct Image {
        let path: String
        /// The file's name, as Lightroom's "File Name" sort reads it.
        let name: String
        /// Its `AgLibraryFolder`.
        let folder: Int64
        let time: String?
        let rating: Int64
        let isRejected: Bool
        /// A virtual copy: the same file as its master, with other edits.
        let isVirtualCopy: Bool
        /// How Lightroom shows it (`Adobe_images.orientation`), a turn made in Lightroom included.
        let orientation: PhotoOrientation?
    }

    /// An orientation as Lightroom writes it: where the stored picture's
    /// top-left and top-right corners (A and B, going round to C and D)
    /// are seen. "AB" upright, "BC" turned a quarter clockwise (EXIF 6),
    /// "CD" half a turn, "DA" a quarter anticlockwise; mirrored: "BA",
    /// "DC", "AD" (the transpose) and "CB" (the transverse).
    static func orientation(lightroom code: String) -> PhotoOrientation? {
        switch code.uppercased() {
        case "AB": .up
        case "BA": .upMirrored
        case "CD": .down
        case "DC": .downMirrored
        case "AD": .leftMirrored
        case "BC": .right
        case "CB": .rightMirrored
        case "DA": .left
        default: nil
        }
    }

    /// A root folder, where it lies here.
    struct Root {
        let id: Int64
        /// Its name in the Folders panel.
        let name: String
        /// Its path, ending in a slash.
        let path: String
    }

    /// The catalog's root folders, where they lie here: by `map`; else, where
    /// the absolute path is not there but the path Lightroom also keeps from
    /// the catalog is (`relativePathFromCatalog`: a catalog moved or copied
    /// with its photos, as Lightroom finds them then), there.
    private static func readRoots(_ file: ForeignDatabaseFile, columns: [String: Set<String>], map: PathMap) throws -> [Int64: Root] {
        let relative = columns["AgLibraryRootFolder"]?.contains("relativePathFromCatalog") == true ? "relativePathFromCatalog" : "NULL"
        let named = columns["AgLibraryRootFolder"]?.contains("name") == true ? "name" : "NULL"
        let catalogFolder = (file.path as NSString).deletingLastPathComponent
        var roots: [Int64: Root] = [:]
        for row in try file.rows("SELECT id_local AS id, absolutePath AS path, \(named) AS name, \(relative) AS relative FROM AgLibraryRootFolder") {
            guard let id = row.integer("id"), let absolute = row.text("path") else { continue }
            var path = map.local(absolute)
            if path == absolute, !FileManager.default.fileExists(atPath: path), let relative = row.text("relative"), !relative.isEmpty {
                let beside = URL(fileURLWithPath: relative.replacingOccurrences(of: "\\", with: "/"), relativeTo: URL(fileURLWithPath: catalogFolder, isDirectory: true))
                    .standardizedFileURL.path
                if FileManager.default.fileExists(atPath: beside) { path = beside }
            }
            if !path.hasSuffix("/") { path += "/" }
            let name = row.text("name").flatMap { $0.isEmpty ? nil : $0 } ?? (absolute.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? absolute)
            roots[id] = Root(id: id, name: name, path: path)
        }
        return roots
    }

    /// The Folders panel as a folder "Folders": each root folder (by its
    /// name), its folders below it, each folder's photos by capture time
    /// as Lightroom's Library shows a folder by default, then by name;
    /// nil for a catalog with no photo. Named "Lightroom Folders" if a
    /// collection or set at the top is named "Folders".
    private static func folderTree(
        _ images: [Image], roots: [Int64: Root], folders: [Int64: (root: Int64, path: String)], taken: Set<String>
    ) -> SourceFolder? {
        guard !images.isEmpty else { return nil }
        let byFolder = Dictionary(grouping: images, by: \.folder)
        var tree = SourceFolder(name: taken.contains("Folders") ? "Lightroom Folders" : "Folders", path: "folders", key: "folders")
        for root in roots.values.sorted(by: { $0.name.localizedStandardCompare($1.name) == .orderedAscending }) {
            var top = SourceFolder(name: root.name, path: root.path, key: "root/\(root.id)")
            // Outer folders first, so that each is made (and known by its id) before the folders in it.
            for (folderID, place) in folders.filter({ $0.value.root == root.id }).sorted(by: { ($0.value.path, $0.key) < ($1.value.path, $1.key) }) {
                guard let photos = byFolder[folderID] else { continue }
                let components = place.path.split(separator: "/").map(String.init)
                let ordered = photos.sorted { a, b in
                    a.time != b.time ? (a.time ?? "~") < (b.time ?? "~") : a.name.localizedStandardCompare(b.name) == .orderedAscending
                }
                if components.isEmpty {
                    top.photos += ordered.map(\.path)  // the root folder's own photos
                    top.key = "folder/\(folderID)"
                } else {
                    top.nest(ordered.map(\.path), at: components, key: "folder/\(folderID)", walked: "/root/\(root.id)")
                }
            }
            top.pruneEmpty()
            if top.photoCount > 0 { tree.folders.append(top) }
        }
        return tree.photoCount > 0 ? tree : nil
    }
    /// `base.extension`, or `base` alone for a file without one.
    private static func fileName(_ base: String, _ fileExtension: String?) -> String {
        guard let fileExtension, !fileExtension.isEmpty else { return base }
        return "\(base).\(fileExtension)"
    }

    /// A root's path and a folder's path from it, which Lightroom writes with a trailing slash each.
    private static func join(_ root: String, _ folder: String) -> String {
        let base = root.hasSuffix("/") ? root : root + "/"
        guard !folder.isEmpty else { return base }
        return base + (folder.hasSuffix("/") ? folder : folder + "/")
    }
}
