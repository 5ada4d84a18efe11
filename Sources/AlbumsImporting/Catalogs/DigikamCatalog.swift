import AlbumsImageFacts
import AlbumsPersistence
import Foundation

/// digiKam's catalog (`digikam4.db`): each album root becomes a folder
/// named by its label (or its folder's name), and the physical albums
/// under it become albums and folders as their relative paths nest (the
/// same rule as a folder tree: an album holding photos is an album, one
/// holding albums a folder, with an album of its own photos when it holds
/// both). Each photo's title, caption, rating, pick and tags come along
/// on its item. Each album is in the order digiKam shows it: the sort kept in
/// the `digikamrc` beside the catalog (``DigikamItemSort``), else its
/// manual order (`Images.manualOrder`, an unset one read as 0, so first,
/// as digiKam reads it), ties in name order; catalogs from before manual
/// ordering are in name order.
///
/// Read from the tables digiKam creates (its `dbconfig.xml`; the schemas
/// of its `tests/databases`): `AlbumRoots (id, label, identifier,
/// specificPath, …)`, `Albums (id, albumRoot, relativePath, …)` and
/// `Images (id, album, name, status, category, …, manualOrder)`.
public enum DigikamCatalog {
    /// Reads the catalog at `path`, its originals' paths mapped by `map`.
    ///
    /// - Throws: ``CatalogFailure``.
    /// Each album is in `order` where given (by name, or by the date
    /// digiKam says each photo was taken); else as the `digikamrc` beside the
    /// catalog says digiKam shows it; else in its manual order.
    public static func read(_ path: String, map: PathMap = .none, order: TreeImportOrder? = nil) throws(CatalogFailure) -> CatalogImport {
        let sort: DigikamItemSort =
            switch order {
            case .name?: DigikamItemSort(role: .fileName)
            case .captureDate?: DigikamItemSort(role: .creationDate, unknownLast: true)
            case nil: DigikamItemSort.configured(besideDatabase: path) ?? .manual
            }
        return try read(path, map: map, volumes: .system(), sort: sort)
    }

    /// Reads the catalog at `path` against the volumes `volumes` mounts, each album in `sort`'s order.
    static func read(_ path: String, map: PathMap, volumes: MountedVolumes, sort: DigikamItemSort = .manual) throws(CatalogFailure) -> CatalogImport {
        try CatalogFailure.reading(path) { file in try read(file, map: map, volumes: volumes, sort: sort) }
    }

    /// Where a root lies, as digiKam's collection manager finds it: its
    /// `specificPath` is a path on a volume, which `identifier` names by
    /// the filesystem's UUID (`volumeid:?uuid=…`: where that volume is
    /// mounted here; the path as written when it is not), by the volume's
    /// mount path (`volumeid:?path=…`, percent-encoded, a Windows drive
    /// too), or as a network share by its mount paths
    /// (`networkshareid:?mountpath=…&mountpath=…`: the first one there,
    /// else the first).
    static func rootPath(identifier: String?, specificPath: String, volumes: MountedVolumes) -> String {
        func joined(_ mount: String, _ path: String) -> String {
            let trimmed = mount.hasSuffix("/") ? String(mount.dropLast()) : mount
            guard !path.isEmpty, path != "/" else { return trimmed.isEmpty ? "/" : trimmed }
            return trimmed + (path.hasPrefix("/") ? path : "/" + path)
        }
        guard let identifier, let query = identifier.split(separator: "?", maxSplits: 1).dropFirst().first else { return specificPath }
        var fields: [(key: Substring, value: String)] = []
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { continue }
            fields.append((parts[0], String(parts[1]).removingPercentEncoding ?? String(parts[1])))
        }
        if identifier.hasPrefix("networkshareid:") {
            let mounts = fields.filter { $0.key == "mountpath" }.map(\.value)
            guard let mount = mounts.first(where: { FileManager.default.fileExists(atPath: $0) }) ?? mounts.first else { return specificPath }
            return joined(mount, specificPath)
        }
        if let uuid = fields.first(where: { $0.key == "uuid" })?.value {
            return volumes.mountPoint(ofVolume: uuid).map { joined($0, specificPath) } ?? specificPath
        }
        if let mount = fields.first(where: { $0.key == "path" })?.value { return joined(mount, specificPath) }
        return specificPath
    }

    /// Images.status of a photo shown in its album (not hidden, trashed or obsolete).
    private static let visible = 1
    /// Images.category of a still image, and of a video (both come in; 3, audio, does not).
    private static let image = 1
    private static let video = 2

    private static func read(_ file: ForeignDatabaseFile, map: PathMap, volumes: MountedVolumes, sort: DigikamItemSort) throws -> CatalogImport {
        let columns = try file.columns(
            requiring: [
                "AlbumRoots": ["id", "label", "identifier", "specificPath"], "Albums": ["id", "albumRoot", "relativePath"],
                "Images": ["id", "album", "name", "status", "category"],
            ], of: "digiKam")
        let hasManualOrder = columns["Images"]?.contains("manualOrder") == true

        var roots: [(id: Int64, name: String, path: String)] = []
        for row in try file.rows("SELECT id, label, identifier, specificPath FROM AlbumRoots ORDER BY id") {
            guard let id = row.integer("id"), let specific = row.text("specificPath") else { continue }
            let base = rootPath(identifier: row.text("identifier"), specificPath: specific, volumes: volumes)
            let label = row.text("label").flatMap { $0.isEmpty ? nil : $0 }
            roots.append((id, label ?? (base as NSString).lastPathComponent, base))
        }

        let written = try Self.marks(file, columns: columns)
        // Each album's photos' ids, by name: what digiKam wrote on them is kept by id.
        var ids: [Int64: [String: Int64]] = [:]
        var photos: [Int64: [DigikamItemSort.Photo]] = [:]
        var turned: [Int64: [String: PhotoOrientation]] = [:]
        var hidden: [Int64: [String]] = [:]
        let order = hasManualOrder ? "i.manualOrder" : "NULL"
        // What the sorts read of each photo, where this version of the schema has it.
        let imageColumns = columns["Images"] ?? []
        let information = columns["ImageInformation"] ?? []
        func column(_ name: String, in have: Set<String>, as prefix: String) -> String { have.contains(name) ? "\(prefix).\(name)" : "NULL" }
        let joined = information.contains("imageid") ? "LEFT JOIN ImageInformation ii ON ii.imageid = i.id" : ""
        let info = joined.isEmpty ? Set<String>() : information
        try file.forEachRow(
            """
            SELECT i.id AS id, i.album AS album, i.name AS name, i.status AS status, \(order) AS manualOrder,
                \(column("modificationDate", in: imageColumns, as: "i")) AS modified, \(column("fileSize", in: imageColumns, as: "i")) AS size,
                \(column("creationDate", in: info, as: "ii")) AS created, \(column("rating", in: info, as: "ii")) AS rating,
                \(column("width", in: info, as: "ii")) AS width, \(column("height", in: info, as: "ii")) AS height,
                \(column("orientation", in: info, as: "ii")) AS orientation
            FROM Images i \(joined) WHERE i.album IS NOT NULL AND i.category IN (\(image), \(video)) ORDER BY i.id
            """) { row in
            guard let album = row.integer("album"), let name = row.text("name") else { return }
            if let id = row.integer("id"), written[id] != nil { ids[album, default: [:]][name] = id }
            guard row.integer("status") == Int64(visible) else {
                // Hidden (2) and trashed (3) photos are still on disk; obsolete ones (4) are gone.
                if let status = row.integer("status"), status == 2 || status == 3 { hidden[album, default: []].append(name) }
                return
            }
            // digiKam reads an unset order (NULL) as 0, like one set to 0.
            // How digiKam shows it: a turn made there with writing to files off lives only here.
            if let value = row.integer("orientation"), let orientation = PhotoOrientation(rawValue: Int(value)) {
                turned[album, default: [:]][name] = orientation
            }
            photos[album, default: []].append(DigikamItemSort.Photo(
                name: name, manualOrder: row.integer("manualOrder") ?? 0, created: row.text("created"), modified: row.text("modified"),
                fileSize: row.integer("size"), rating: row.integer("rating"), width: row.integer("width"), height: row.integer("height")))
        }

        var top = SourceFolder(name: "digiKam", path: file.path, key: "catalog")
        var orientations: [String: PhotoOrientation] = [:]
        var marks: [String: ItemMarks] = [:]
        var setAside: [String] = []
        for root in roots {
            var folder = SourceFolder(name: root.name, path: root.path, key: "root/\(root.id)")
            let caption = (columns["Albums"] ?? []).contains("caption") ? "caption" : "NULL"
            let albums = try file.rows(
                "SELECT id, relativePath, \(caption) AS caption FROM Albums WHERE albumRoot = ? ORDER BY relativePath", arguments: ["\(root.id)"])
            for row in albums {
                guard let id = row.integer("id"), let relative = row.text("relativePath") else { continue }
                let parts = relative.split(separator: "/").map(String.init)
                let ordered = sort.ordered(photos[id] ?? [])
                let directory = (root.path.hasSuffix("/") ? String(root.path.dropLast()) : root.path) + (relative == "/" ? "" : relative)
                let files = ordered.map { map.local(directory + "/" + $0.name) }
                for (photo, path) in zip(ordered, files) { orientations[path] = turned[id]?[photo.name] }
                setAside += (hidden[id] ?? []).map { map.local(directory + "/" + $0) }
                for (name, image) in ids[id] ?? [:] { marks[map.local(directory + "/" + name)] = written[image] }
                if parts.isEmpty {
                    folder.photos = files  // the root's own photos
                    folder.description = row.text("caption")
                } else {
                    folder.nest(files, at: parts, key: "album/\(id)", path: directory, description: row.text("caption"), walked: "/root/\(root.id)")
                }
            }
            folder.pruneEmpty()
            if folder.photoCount > 0 { top.folders.append(folder) }
        }
        let notCarried: [(what: String, count: Int)] = [
            try file.counted("hidden or trashed photos", "SELECT count(*) AS n FROM Images WHERE status != \(visible)", needs: "Images", in: columns),
        ].compactMap { $0 }
        // One root imports as its own folder at the top; several stand under a folder "digiKam".
        let root = top.folders.count == 1 ? top.folders[0] : top
        return CatalogImport(
            kind: .digikam, catalog: file.path, root: root, orderInferred: false, notCarried: notCarried, orientations: orientations, setAside: setAside,
            roots: roots.map { map.local($0.path) }, marks: marks)
    }

    /// `ImageComments.type` of a caption (digiKam's "comment") and of a title.
    private static let commentType = 1
    private static let titleType = 3

    /// What people wrote on each image in digiKam, by its id: its title
    /// and caption (`ImageComments`, the default language's first), its
    /// rating (`ImageInformation.rating`, 1–5; -1 and 0 are none) and its
    /// tags. digiKam keeps its own labels as tags under
    /// `_Digikam_Internal_Tags_`: of those, a rejected pick is a rejected
    /// rating and an accepted pick a favourite; the colour labels and the
    /// rest are not the person's tags.
    private static func marks(_ file: ForeignDatabaseFile, columns: [String: Set<String>]) throws -> [Int64: ItemMarks] {
        var words = CatalogWords()
        if (columns["ImageComments"] ?? []).isSuperset(of: ["imageid", "type", "language", "comment"]) {
            try file.forEachRow("""
                SELECT imageid, type, comment FROM ImageComments WHERE type IN (\(commentType), \(titleType)) AND length(trim(comment)) > 0
                ORDER BY imageid, language = 'x-default' DESC, id
                """) { row in
                guard let image = row.integer("imageid"), let text = row.text("comment") else { return }
                if row.integer("type") == Int64(titleType) {
                    if words.titles[image] == nil { words.titles[image] = text }
                } else if words.captions[image] == nil {
                    words.captions[image] = text
                }
            }
        }
        if (columns["ImageInformation"] ?? []).isSuperset(of: ["imageid", "rating"]) {
            try file.forEachRow("SELECT imageid, rating FROM ImageInformation WHERE rating BETWEEN 1 AND 5") { row in
                if let image = row.integer("imageid"), let rating = row.integer("rating") { words.ratings[image] = Int(rating) }
            }
        }
        if (columns["Tags"] ?? []).isSuperset(of: ["id", "pid", "name"]), (columns["ImageTags"] ?? []).isSuperset(of: ["imageid", "tagid"]) {
            try file.forEachRow("""
                WITH RECURSIVE internal (id) AS (SELECT id FROM Tags WHERE name = '_Digikam_Internal_Tags_'
                    UNION SELECT t.id FROM Tags t JOIN internal ON t.pid = internal.id)
                SELECT it.imageid AS image, t.name AS name, t.id IN (SELECT id FROM internal) AS internal
                FROM ImageTags it JOIN Tags t ON t.id = it.tagid ORDER BY it.imageid, t.id
                """) { row in
                guard let image = row.integer("image"), let name = row.text("name") else { return }
                if row.integer("internal") == 1 {
                    if name == "Pick Label Rejected" { words.ratings[image] = -1 }
                    if name == "Pick Label Accepted" { words.favourites.insert(image) }
                } else {
                    words.keywords[image, default: []].append(name)
                }
            }
        }
        return words.marks
    }
}
