import AlbumsPersistence
import Foundation

/// An Apple Photos library (a `.photoslibrary` folder, from Photos 5 on,
/// macOS 10.15): its albums become albums and its folders folders, in the
/// order Photos shows them, inside a folder "Photos"; each album in the
/// order Photos shows it (by hand, by date either way, or by title).
/// Originals are read from the library's own `originals` folder. Smart
/// albums, shared albums and projects are counted, not
/// imported; so are the photos Photos does not show in an album (hidden,
/// in the trash, burst frames not picked): a library shared with others
/// must not show what its owner hid. Each photo's title, caption,
/// favourite mark and keywords come along on its item.
///
/// Read from `database/Photos.sqlite`, a Core Data store: albums and
/// folders are `ZGENERICALBUM` rows (`ZKIND` 2 an album, 4000 a folder,
/// 3999 the library's root), photos `ZASSET` rows (`ZGENERICASSET` in
/// Photos 5), and an album's photos a join table whose name and columns
/// carry Core Data's entity numbers, which change between versions of
/// Photos (`Z_26ASSETS (Z_26ALBUMS, Z_34ASSETS, Z_FOK_34ASSETS)` in
/// Photos 5, `Z_3ASSETS`… later): it is found by its shape, `Z_FOK_`
/// giving the manual order.
public enum ApplePhotosLibrary {
    /// Reads the library at `path` (the `.photoslibrary` folder, or its `Photos.sqlite`).
    ///
    /// - Throws: ``CatalogFailure``.
    /// With `edited`, a photo edited in Photos comes as Photos rendered its
    /// edit (`resources/renders/X/UUID_1_201_a.jpeg`, or `.heic`), a turn or
    /// a crop included, where the render is there; else as its original.
    public static func read(_ path: String, map: PathMap = .none, edited: Bool = false) throws(CatalogFailure) -> CatalogImport {
        let library: String
        let database: String
        if path.hasSuffix(".sqlite") {
            database = path
            library = ((path as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent
        } else {
            library = path
            database = (path as NSString).appendingPathComponent("database/Photos.sqlite")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue,
                !FileManager.default.fileExists(atPath: database)
            {
                let older = (path as NSString).appendingPathComponent("database/photos.db")
                let reason =
                    FileManager.default.fileExists(atPath: older)
                    ? "it was made by Photos 4 or earlier (before macOS 10.15), whose database albums does not read"
                    : "it has no database/Photos.sqlite"
                throw .notACatalog(path: path, kind: "Apple Photos", reason: reason)
            }
        }
        return try CatalogFailure.reading(database) { file in try read(file, library: library, map: map, edited: edited) }
    }

    private static let albumKind: Int64 = 2
    private static let folderKind: Int64 = 4000
    private static let rootKind: Int64 = 3999
    private static let sharedKind: Int64 = 1505
    /// An import session: Photos' record of one import, not a collection anyone made.
    private static let importSessionKind: Int64 = 1506

    /// A photo of an album, with what each of Photos' sorts reads.
    struct Member {
        /// Its place in the album's manual order (`Z_FOK_…`).
        let position: Int64
        /// `ZDATECREATED`: seconds since 2001, as Core Data keeps dates.
        let created: Double?
        /// Its title (`ZADDITIONALASSETATTRIBUTES.ZTITLE`), "" for none.
        let title: String
        let path: String
    }

    /// How Photos sorts an album (View → Sort): `ZCUSTOMSORTKEY` 0 by hand
    /// (the join's `Z_FOK_`), 1 by date taken (`ZCUSTOMSORTASCENDING` 1
    /// oldest first, 0 newest first), 5 by title; osxphotos reads them so.
    /// Ties, and a photo without what the sort reads, keep the manual order.
    struct AlbumSort {
        let key: Int64?
        let ascending: Int64?

        func ordered(_ members: [Member]) -> [Member] {
            switch key {
            case 1:
                let oldestFirst = ascending != 0
                return members.sorted { a, b in
                    switch (a.created, b.created) {
                    case (let x?, let y?) where x != y: oldestFirst ? x < y : x > y
                    case (.some, nil): true
                    case (nil, .some): false
                    default: a.position < b.position
                    }
                }
            case 5:
                return members.sorted { a, b in
                    let order = a.title.compare(b.title, options: [.caseInsensitive])
                    return order != .orderedSame ? order == .orderedAscending : a.position < b.position
                }
            default:
                return members.sorted { $0.position < $1.position }
            }
        }
    }

    /// The join table of albums and their photos, as this version of Photos names it.
    struct Join {
        let table: String
        let album: String
        let asset: String
        let order: String

        init?(_ table: String, columns: Set<String>) {
            guard table.wholeMatch(of: /Z_[0-9]+ASSETS/) != nil,
                let album = columns.first(where: { $0.wholeMatch(of: /Z_[0-9]+ALBUMS/) != nil }),
                let asset = columns.first(where: { $0.wholeMatch(of: /Z_[0-9]+ASSETS/) != nil }),
                let order = columns.first(where: { $0.wholeMatch(of: /Z_FOK_[0-9]+ASSETS/) != nil })
            else { return nil }
            (self.table, self.album, self.asset, self.order) = (table, album, asset, order)
        }
    }

    private static func read(_ file: ForeignDatabaseFile, library: String, map: PathMap, edited: Bool) throws -> CatalogImport {
        let columns = try file.columns()
        let assets = columns["ZASSET"] != nil ? "ZASSET" : "ZGENERICASSET"
        let refuse = { (reason: String) in CatalogFailure.notACatalog(path: library, kind: "Apple Photos", reason: reason) }
        guard (columns[assets] ?? []).isSuperset(of: ["Z_PK", "ZFILENAME", "ZDIRECTORY", "ZTRASHEDSTATE", "ZKIND"]) else {
            throw refuse("it has no ZASSET (or ZGENERICASSET) with ZFILENAME, ZDIRECTORY, ZTRASHEDSTATE and ZKIND")
        }
        let albumColumns = columns["ZGENERICALBUM"] ?? []
        guard albumColumns.isSuperset(of: ["Z_PK", "ZKIND", "ZTITLE", "ZPARENTFOLDER", "ZTRASHEDSTATE"]) else {
            throw refuse("it has no ZGENERICALBUM with ZKIND, ZTITLE, ZPARENTFOLDER and ZTRASHEDSTATE")
        }
        guard let join = columns.sorted(by: { $0.key < $1.key }).lazy.compactMap({ Join($0.key, columns: $0.value) }).first else {
            throw refuse("it has no table joining albums to their photos (Z_nnASSETS with Z_FOK_nnASSETS)")
        }
        let placeInParent = albumColumns.contains("Z_FOK_PARENTFOLDER") ? "Z_FOK_PARENTFOLDER" : "NULL"

        struct Node {
            let id: Int64
            let kind: Int64
            let title: String
            let parent: Int64?
            let place: Int64?
            let sort: AlbumSort
        }
        // How each album is sorted, where this version of Photos keeps it.
        let sortKey = albumColumns.contains("ZCUSTOMSORTKEY") ? "ZCUSTOMSORTKEY" : "0"
        let ascending = albumColumns.contains("ZCUSTOMSORTASCENDING") ? "ZCUSTOMSORTASCENDING" : "1"
        var nodes: [Node] = []
        var skipped: [Int64: Int] = [:]
        for row in try file.rows(
            """
            SELECT Z_PK, ZKIND, ZTITLE, ZPARENTFOLDER, \(placeInParent) AS place, \(sortKey) AS sort_key, \(ascending) AS ascending
            FROM ZGENERICALBUM WHERE coalesce(ZTRASHEDSTATE, 0) = 0
            """)
        {
            guard let id = row.integer("Z_PK"), let kind = row.integer("ZKIND") else { continue }
            guard [albumKind, folderKind, rootKind].contains(kind) else {
                if kind != importSessionKind { skipped[kind, default: 0] += 1 }
                continue
            }
            nodes.append(Node(
                id: id, kind: kind, title: row.text("ZTITLE") ?? "Untitled", parent: row.integer("ZPARENTFOLDER"), place: row.integer("place"),
                sort: AlbumSort(key: row.integer("sort_key"), ascending: row.integer("ascending"))))
        }

        // What Photos shows in an album: a photo or a video (ZKIND 0 or 1), not in the
        // trash, not hidden (ZHIDDEN: in the Hidden album only, behind a
        // password), and of a burst only the frames picked (pick type 2 is a
        // frame not selected, which Photos keeps in the burst's stack);
        // osxphotos reads these columns so. What it hides stays out.
        let assetColumns = columns[assets] ?? []
        var shown = ["coalesce(a.ZTRASHEDSTATE, 0) = 0", "a.ZKIND IN (0, 1)"]
        if assetColumns.contains("ZHIDDEN") { shown.append("coalesce(a.ZHIDDEN, 0) = 0") }
        if assetColumns.contains("ZAVALANCHEPICKTYPE") { shown.append("(coalesce(a.ZAVALANCHEPICKTYPE, 0) & 2) = 0") }
        var photos: [Int64: [Member]] = [:]
        var files = try OriginalFiles(file, columns: columns, assets: assets, library: library, map: map, edited: edited)
        // What each query reads of an asset to find its file.
        let located = "a.Z_PK AS asset, a.ZDIRECTORY AS directory, a.ZFILENAME AS name, "
            + (assetColumns.contains("ZUUID") ? "a.ZUUID AS uuid, " : "NULL AS uuid, ")
            + (assetColumns.contains("ZHASADJUSTMENTS") ? "a.ZHASADJUSTMENTS AS adjusted" : "0 AS adjusted")
        let created = assetColumns.contains("ZDATECREATED") ? "a.ZDATECREATED" : "NULL"
        // A photo's title is an attribute of its own table, joined where this version has it.
        let titled = assetColumns.contains("ZADDITIONALATTRIBUTES") && (columns["ZADDITIONALASSETATTRIBUTES"] ?? []).isSuperset(of: ["Z_PK", "ZTITLE"])
        try file.forEachRow("""
            SELECT j.\(join.album) AS album, j.\(join.order) AS position, \(located),
                \(created) AS created, \(titled ? "t.ZTITLE" : "NULL") AS title
            FROM \(join.table) j JOIN \(assets) a ON a.Z_PK = j.\(join.asset)
            \(titled ? "LEFT JOIN ZADDITIONALASSETATTRIBUTES t ON t.Z_PK = a.ZADDITIONALATTRIBUTES" : "")
            WHERE \(shown.joined(separator: " AND "))
            """) { row in
            guard let album = row.integer("album"), let path = files.path(of: row) else { return }
            photos[album, default: []].append(Member(
                position: row.integer("position") ?? .max, created: row.real("created"), title: row.text("title") ?? "", path: path))
        }

        // The photos Photos shows that no album holds: the library's own.
        var loose: [String] = []
        try file.forEachRow("""
            SELECT \(located) FROM \(assets) a
            WHERE \(shown.joined(separator: " AND ")) AND NOT EXISTS (SELECT 1 FROM \(join.table) j WHERE j.\(join.asset) = a.Z_PK)
            ORDER BY a.Z_PK
            """) { row in
            if let path = files.path(of: row) { loose.append(path) }
        }
        // What Photos does not show, by path, for an import that asks for it.
        var setAside: [String] = []
        try file.forEachRow("""
            SELECT \(located) FROM \(assets) a
            WHERE a.ZKIND IN (0, 1) AND NOT (\(shown.joined(separator: " AND "))) ORDER BY a.Z_PK
            """) { row in
            if let path = files.path(of: row) { setAside.append(path) }
        }

        // What people wrote on each photo: its title, its caption, its heart and its keywords.
        var marks: [String: ItemMarks] = [:]
        let keywords = try Self.keywords(file, columns: columns)
        let described = titled && (columns["ZASSETDESCRIPTION"] ?? []).isSuperset(of: ["ZASSETATTRIBUTES", "ZLONGDESCRIPTION"])
        try file.forEachRow("""
            SELECT \(located), \(assetColumns.contains("ZFAVORITE") ? "a.ZFAVORITE" : "0") AS favorite,
                \(titled ? "t.Z_PK" : "NULL") AS attributes, \(titled ? "t.ZTITLE" : "NULL") AS title,
                \(described ? "d.ZLONGDESCRIPTION" : "NULL") AS description
            FROM \(assets) a
            \(titled ? "LEFT JOIN ZADDITIONALASSETATTRIBUTES t ON t.Z_PK = a.ZADDITIONALATTRIBUTES" : "")
            \(described ? "LEFT JOIN ZASSETDESCRIPTION d ON d.ZASSETATTRIBUTES = t.Z_PK" : "")
            WHERE a.ZKIND IN (0, 1)
            """) { row in
            let found = ItemMarks(
                foundTitle: row.text("title"), caption: row.text("description"), isFavorite: row.integer("favorite") == 1, rating: nil,
                keywords: row.integer("attributes").flatMap { keywords[$0] } ?? [])
            if !found.isEmpty, let path = files.path(of: row) { marks[path] = found }
        }

        // As Photos' sidebar shows them: by their place in their folder, then by title.
        func precedes(_ a: Node, _ b: Node) -> Bool {
            (a.place ?? .max, a.title.lowercased(), a.id) < (b.place ?? .max, b.title.lowercased(), b.id)
        }
        let children = Dictionary(grouping: nodes.filter { $0.kind != rootKind }) { $0.parent }
        func folder(for node: Node) -> SourceFolder? {
            var folder = SourceFolder(name: node.title, path: "\(node.kind == albumKind ? "album" : "folder") \(node.id)", key: "album/\(node.id)")
            guard node.kind == albumKind else {
                folder.folders = (children[node.id] ?? []).sorted(by: precedes).compactMap(folder(for:))
                return folder.folders.isEmpty ? nil : folder
            }
            folder.photos = node.sort.ordered(photos[node.id] ?? []).map(\.path)
            return folder
        }
        let rootIDs = Set(nodes.filter { $0.kind == rootKind }.map(\.id))
        let ids = Set(nodes.map(\.id))
        var root = SourceFolder(name: "Photos", path: library, key: "library")
        root.folders = nodes.filter { $0.kind != rootKind && ($0.parent.map { rootIDs.contains($0) || !ids.contains($0) } ?? true) }
            .sorted(by: precedes).compactMap(folder(for:))

        let notCarried: [(what: String, count: Int)] = [
            ("shared albums", skipped[sharedKind] ?? 0), ("smart albums, projects and other collections", skipped.filter { $0.key != sharedKind }.values.reduce(0, +)),
        ] + [
            try file.counted("photos in the trash", "SELECT count(*) AS n FROM \(assets) WHERE ZTRASHEDSTATE = 1", needs: assets, in: columns),
            try file.counted(
                "hidden photos", "SELECT count(*) AS n FROM \(assets) WHERE ZHIDDEN = 1 AND coalesce(ZTRASHEDSTATE, 0) = 0 AND ZKIND IN (0, 1)",
                needs: assets, ["ZHIDDEN"], in: columns),
            try file.counted(
                "burst frames not picked",
                "SELECT count(*) AS n FROM \(assets) WHERE (coalesce(ZAVALANCHEPICKTYPE, 0) & 2) != 0 AND coalesce(ZTRASHEDSTATE, 0) = 0 AND ZKIND IN (0, 1)",
                needs: assets, ["ZAVALANCHEPICKTYPE"], in: columns),
            // A turn, a crop or a filter made in Photos is an adjustment it renders; the original comes in.
            try file.counted(
                "edited photos (turns, crops, filters)", "SELECT count(*) AS n FROM \(assets) WHERE ZHASADJUSTMENTS = 1 AND ZKIND IN (0, 1)",
                needs: assets, ["ZHASADJUSTMENTS"], in: columns
            ).map { ($0.what, $0.count - files.rendered.count) },
        ].compactMap { $0 }
        return CatalogImport(
            kind: .applePhotos, catalog: library, root: root, orderInferred: false, notCarried: notCarried, loose: loose, setAside: setAside,
            whyMissing: files.whyMissing, marks: marks)
    }

    /// The keywords of each photo, by its additional attributes' `Z_PK`:
    /// `ZKEYWORD.ZTITLE`, joined by a table whose name and columns carry
    /// Core Data's entity numbers (`Z_1KEYWORDS (Z_1ASSETATTRIBUTES,
    /// Z_37KEYWORDS)`), found by its shape as the albums' join is.
    private static func keywords(_ file: ForeignDatabaseFile, columns: [String: Set<String>]) throws -> [Int64: [String]] {
        guard (columns["ZKEYWORD"] ?? []).isSuperset(of: ["Z_PK", "ZTITLE"]) else { return [:] }
        func numbered(_ name: String, _ suffix: String) -> Bool {
            name.hasPrefix("Z_") && name.hasSuffix(suffix) && name.dropFirst(2).dropLast(suffix.count).allSatisfy { $0.isASCII && $0.isNumber }
                && name.count > 2 + suffix.count
        }
        for (table, have) in columns.sorted(by: { $0.key < $1.key }) where numbered(table, "KEYWORDS") {
            guard let attributes = have.sorted().first(where: { numbered($0, "ASSETATTRIBUTES") }),
                let keyword = have.sorted().first(where: { numbered($0, "KEYWORDS") })
            else { continue }
            var found: [Int64: [String]] = [:]
            try file.forEachRow("""
                SELECT j.\(attributes) AS attributes, k.ZTITLE AS title FROM \(table) j JOIN ZKEYWORD k ON k.Z_PK = j.\(keyword)
                ORDER BY j.\(attributes), k.ZTITLE
                """) { row in
                if let owner = row.integer("attributes"), let title = row.text("title") { found[owner, default: []].append(title) }
            }
            return found
        }
        return [:]
    }

    /// Where a photo's original is: in the library's `originals` folder
    /// (`ZDIRECTORY/ZFILENAME`), or, for a file Photos references where it
    /// was imported from ("Copy items to the Photos library" off:
    /// `ZSAVEDASSETTYPE` 10), on its volume, as `/Volumes/NAME/PATH` (macOS
    /// mounts every volume there, the startup disk too), from
    /// `ZINTERNALRESOURCE`'s bookmark (`ZPATHRELATIVETOVOLUME`) and volume
    /// (`ZNAME`). And why an original may not be there: kept only in iCloud
    /// (its original resource, `ZDATASTORESUBTYPE` 1, not available here,
    /// `ZLOCALAVAILABILITY` other than 1, as osxphotos reads it), or a
    /// referenced file on a volume this machine may lack.
    struct OriginalFiles {
        let originals: String
        /// Where Photos keeps its renders of edited photos, when they are asked for.
        let renders: String?
        let map: PathMap
        /// The assets that come as Photos rendered their edits.
        private(set) var rendered = Set<Int64>()
        /// Referenced files by asset: the volume's name and the path on it.
        private(set) var referenced: [Int64: (volume: String, path: String)] = [:]
        /// Assets whose original only iCloud holds.
        private(set) var inCloudOnly: Set<Int64> = []
        /// Why a photo's file may not be here, by its path.
        private(set) var whyMissing: [String: MissingOriginal] = [:]

        init(_ file: ForeignDatabaseFile, columns: [String: Set<String>], assets: String, library: String, map: PathMap, edited: Bool) throws {
            originals = (library as NSString).appendingPathComponent("originals")
            renders = edited ? (library as NSString).appendingPathComponent("resources/renders") : nil
            self.map = map
            let resources = columns["ZINTERNALRESOURCE"] ?? []
            if resources.isSuperset(of: ["ZASSET", "ZFILESYSTEMBOOKMARK", "ZFILESYSTEMVOLUME"]),
                (columns["ZFILESYSTEMBOOKMARK"] ?? []).isSuperset(of: ["Z_PK", "ZPATHRELATIVETOVOLUME"]),
                (columns["ZFILESYSTEMVOLUME"] ?? []).isSuperset(of: ["Z_PK", "ZNAME"])
            {
                let isReference = columns[assets]?.contains("ZSAVEDASSETTYPE") == true ? "AND a.ZSAVEDASSETTYPE = 10" : ""
                try file.forEachRow("""
                    SELECT r.ZASSET AS asset, v.ZNAME AS volume, b.ZPATHRELATIVETOVOLUME AS path FROM ZINTERNALRESOURCE r
                    JOIN ZFILESYSTEMBOOKMARK b ON b.Z_PK = r.ZFILESYSTEMBOOKMARK JOIN ZFILESYSTEMVOLUME v ON v.Z_PK = r.ZFILESYSTEMVOLUME
                    JOIN \(assets) a ON a.Z_PK = r.ZASSET WHERE 1 \(isReference)
                    """) { row in
                    guard let asset = row.integer("asset"), let volume = row.text("volume"), let path = row.text("path"), !path.isEmpty else { return }
                    referenced[asset] = (volume, path)
                }
            }
            if resources.isSuperset(of: ["ZASSET", "ZDATASTORESUBTYPE", "ZLOCALAVAILABILITY"]) {
                try file.forEachRow("SELECT DISTINCT ZASSET AS asset FROM ZINTERNALRESOURCE WHERE ZDATASTORESUBTYPE = 1 AND coalesce(ZLOCALAVAILABILITY, 0) != 1") {
                    row in
                    if let asset = row.integer("asset") { inCloudOnly.insert(asset) }
                }
            }
        }

        /// The render of the edited asset `row` names, where renders are asked for and it is there.
        private func render(of row: ForeignDatabaseFile.Row) -> String? {
            guard let renders, row.integer("adjusted") == 1, let uuid = row.text("uuid"), let first = uuid.first, uuid.allSatisfy({ $0.isHexDigit || $0 == "-" })
            else { return nil }
            let folder = (renders as NSString).appendingPathComponent(String(first))
            return ["jpeg", "heic"].lazy.map { (folder as NSString).appendingPathComponent("\(uuid)_1_201_a.\($0)") }
                .first { FileManager.default.fileExists(atPath: $0) }.map(map.local)
        }

        /// The path of the original of the asset `row` names (its `asset`, `directory` and `name`), as it lies here.
        mutating func path(of row: ForeignDatabaseFile.Row) -> String? {
            guard let asset = row.integer("asset") else { return nil }
            if let render = render(of: row) {
                rendered.insert(asset)
                return render
            }
            let path: String
            if let reference = referenced[asset] {
                let volume = "/Volumes/" + reference.volume
                path = map.local(volume + (reference.path.hasPrefix("/") ? "" : "/") + reference.path)
                whyMissing[path] = .referenced(volume: reference.volume)
            } else {
                guard let name = row.text("name") else { return nil }
                let directory = row.text("directory").map { (originals as NSString).appendingPathComponent($0) } ?? originals
                path = map.local((directory as NSString).appendingPathComponent(name))
            }
            if inCloudOnly.contains(asset), referenced[asset] == nil {
                whyMissing[path] = .onlyInCloud
            }
            return path
        }
    }
}
