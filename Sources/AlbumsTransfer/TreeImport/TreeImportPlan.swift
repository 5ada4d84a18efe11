import AlbumsPersistence
import Foundation

/// What importing a folder tree makes of it, read against the library: a
/// folder holding photos becomes an album named after it; a folder holding
/// folders becomes a folder, with an album of its own photos inside it
/// when it holds both. A folder or album an earlier import of the same
/// source made is found again (the library remembers which it made of
/// what, else by its name in its place), and only the photos it does not
/// hold yet are added, so importing again adds what is new and never a
/// duplicate.
///
/// Album names are unique in the library: an album whose folder's name is
/// taken elsewhere is named after its parent too ("Summer (2024)"), then
/// numbered ("Summer 2").
public struct TreeImportPlan: Sendable {
    /// One folder or album the import makes or finds, in the tree's order.
    public struct Node: Hashable, Sendable {
        /// What a folder on disk becomes.
        public enum Kind: String, Hashable, Sendable {
            /// A folder of the library: the folder on disk holds folders.
            case folder
            /// An album: the folder on disk holds photos.
            case album
        }
        /// A folder or an album.
        public let kind: Kind
        /// Its name in the library.
        public let name: String
        /// Its path in the library's tree ("Travel/2024/Summer").
        public let path: String
        /// Where it comes from, for people (``SourceFolder/path``).
        public let source: String
        /// What the source calls it (``SourceFolder/key``).
        public let key: String
        /// How deep it stands under the import's destination (0: in it).
        public let depth: Int
        /// The index in ``TreeImportPlan/nodes`` of the folder it stands in; nil: the destination.
        public let parent: Int?
        /// The album or folder found from an earlier import; nil: a new one.
        public let existing: Int64?
        /// An album's photos to add, in order, at its end.
        public let photos: [String]
        /// An album's photos it holds already (or that are still loading into it).
        public let alreadyThere: Int
        /// Whether the import makes it.
        public var isNew: Bool { existing == nil }
    }

    /// What is imported: `tree` for folders on disk, or a catalog's kind and path.
    public let source: String
    /// The folder the tree goes into; nil: the top level.
    public let destination: Folder?
    /// Its path in the tree; nil: the top level.
    public let destinationPath: String?
    /// Every folder and album, each folder before what it holds.
    public let nodes: [Node]
    /// Files and folders left out, with the reasons.
    public let skipped: [SourceFolder.SkippedSource]
    /// Placeholders of an earlier import of the tree whose process is gone:
    /// the import runs their loads again in their slots.
    public let stalePlaceholders: [PendingPlaceholder]

    /// The photos the import adds.
    public var photoCount: Int { nodes.reduce(0) { $0 + $1.photos.count } }

    /// Plans importing `root`, from `source`, into `destination` (nil: the
    /// top level) as `reader` sees the library.
    ///
    /// - Throws: ``LibraryError/folderNotFound(_:)`` for a destination that does not exist.
    public init(importing root: SourceFolder, from source: String = "tree", into destination: FolderReference?, reader: LibraryReader) throws {
        let destinationFolder = try destination.map { try reader.folder($0) }
        var planner = Planner(
            reader: reader, albums: try reader.albums(), folders: try reader.folders(), origins: try reader.importOrigins(of: source))
        let base = try destinationFolder.map { try reader.path(of: $0.id) }
        try planner.visit(root, parent: nil, folderID: destinationFolder?.id, exists: true, path: base, parentName: destinationFolder?.name, depth: 0)
        self.source = source
        self.destination = destinationFolder
        destinationPath = base
        nodes = planner.nodes
        skipped = root.allSkipped
        stalePlaceholders = planner.stale
    }

    /// The tree read against the library, node by node.
    private struct Planner {
        let reader: LibraryReader
        var nodes: [Node] = []
        var stale: [PendingPlaceholder] = []
        /// Album names in use in the library or claimed by this plan.
        var albumNames: Set<String>
        /// Albums by parent folder (0: the top level) and name.
        let albumsByPlace: [Int64: [String: Album]]
        /// Folders by parent folder (0: the top level) and name.
        let foldersByPlace: [Int64: [String: Folder]]
        let albumsByID: [AlbumID: Album]
        let foldersByID: [FolderID: Folder]
        /// What earlier imports of the source made.
        let origins: ImportOrigins

        init(reader: LibraryReader, albums: [Album], folders: [Folder], origins: ImportOrigins) {
            self.reader = reader
            self.origins = origins
            albumsByID = Dictionary(albums.map { ($0.id, $0) }) { a, _ in a }
            foldersByID = Dictionary(folders.map { ($0.id, $0) }) { a, _ in a }
            albumNames = Set(albums.map(\.name))
            albumsByPlace = Dictionary(grouping: albums) { $0.parentID?.rawValue ?? 0 }.mapValues { Dictionary($0.map { ($0.name, $0) }) { a, _ in a } }
            foldersByPlace = Dictionary(grouping: folders) { $0.parentID?.rawValue ?? 0 }.mapValues { Dictionary($0.map { ($0.name, $0) }) { a, _ in a } }
        }

        /// `folderID`: the library folder `source` goes into, when `exists` (nil: the top level);
        /// a folder this plan makes when not.
        mutating func visit(_ source: SourceFolder, parent: Int?, folderID: FolderID?, exists: Bool, path: String?, parentName: String?, depth: Int) throws {
            func joined(_ name: String) -> String { path.map { "\($0)/\(name)" } ?? name }
            guard !source.folders.isEmpty else {
                try addAlbum(of: source, parent: parent, folderID: folderID, exists: exists, path: path, parentName: parentName, depth: depth)
                return
            }
            let remembered = origins.folders[source.key].flatMap { foldersByID[$0] }
            let found = remembered ?? (exists ? foldersByPlace[folderID?.rawValue ?? 0]?[source.name] : nil)
            let name = found?.name ?? freeFolderName(source.name, in: exists ? folderID : nil, exists: exists)
            nodes.append(
                Node(
                    kind: .folder, name: name, path: joined(name), source: source.path, key: source.key, depth: depth, parent: parent,
                    existing: found?.id.rawValue, photos: [], alreadyThere: 0))
            let index = nodes.count - 1
            if !source.photos.isEmpty {
                var own = source
                own.folders = []
                own.key = source.key + "#photos"
                try addAlbum(of: own, parent: index, folderID: found?.id, exists: found != nil, path: joined(name), parentName: name, depth: depth + 1)
            }
            for child in source.folders {
                try visit(child, parent: index, folderID: found?.id, exists: found != nil, path: joined(name), parentName: name, depth: depth + 1)
            }
        }

        private mutating func addAlbum(of source: SourceFolder, parent: Int?, folderID: FolderID?, exists: Bool, path: String?, parentName: String?, depth: Int) throws {
            let here = exists ? albumsByPlace[folderID?.rawValue ?? 0] ?? [:] : [:]
            var candidates = [source.name]
            if let parentName, parentName != source.name { candidates.append("\(source.name) (\(parentName))") }
            var chosen: (name: String, album: Album?)? = origins.albums[source.key].flatMap { albumsByID[$0] }.map { ($0.name, $0) }
            var number = 1
            while chosen == nil, number <= 100_000 {
                let candidate = number <= candidates.count ? candidates[number - 1] : "\(source.name) \(number - candidates.count + 1)"
                number += 1
                if let album = here[candidate] {
                    chosen = (candidate, album)
                } else if !albumNames.contains(candidate) && (exists ? foldersByPlace[folderID?.rawValue ?? 0]?[candidate] == nil : true) {
                    chosen = (candidate, nil)
                }
            }
            guard let chosen else { throw LibraryError.albumNameTaken(source.name) }
            albumNames.insert(chosen.name)
            var photos = source.photos
            var alreadyThere = 0
            if let album = chosen.album {
                var held = Set<String>()
                try reader.forEachListedItem(in: album.id) { item, photo in
                    if let photo { held.insert(photo.content.sourcePath) }
                    if case .placeholder(let load) = item.content { held.insert(load.source) }
                    return true
                }
                let sources = Set(source.photos)
                // Left by a killed import: loaded again, unless the file is still missing (it holds its slot).
                stale += try reader.pendingPlaceholders(in: album.id).filter {
                    $0.isStale && sources.contains($0.load.source) && FileManager.default.fileExists(atPath: $0.load.source)
                }
                photos = source.photos.filter { !held.contains($0) }
                alreadyThere = source.photos.count - photos.count
            }
            nodes.append(
                Node(
                    kind: .album, name: chosen.name, path: path.map { "\($0)/\(chosen.name)" } ?? chosen.name, source: source.path, key: source.key,
                    depth: depth, parent: parent, existing: chosen.album?.id.rawValue, photos: photos, alreadyThere: alreadyThere))
        }

        /// A name for a new folder: its own, unless an album stands under it in that place.
        private func freeFolderName(_ name: String, in folderID: FolderID?, exists: Bool) -> String {
            guard exists, let albums = albumsByPlace[folderID?.rawValue ?? 0], albums[name] != nil else { return name }
            var number = 2
            while albums["\(name) \(number)"] != nil || foldersByPlace[folderID?.rawValue ?? 0]?["\(name) \(number)"] != nil { number += 1 }
            return "\(name) \(number)"
        }
    }
}
