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
        /// An album's photos it holds already (or that are still loading
        /// into it), not counting those whose placeholders load again now.
        public let alreadyThere: Int
        /// What the organizer says of an album (its caption, its
        /// description): a new album takes it as its description.
        public var description: String? = nil
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
    /// Placeholders of an earlier import of the source whose process is
    /// gone and whose file is there: the import runs their loads again in their slots.
    public let resumed: [ResumedLoad]

    /// A placeholder left by an earlier import, to be loaded again.
    public struct ResumedLoad: Hashable, Sendable {
        /// The placeholder, where it stands now.
        public let placeholder: AlbumItemID
        /// The file it loads.
        public let source: String
        /// The index in ``TreeImportPlan/nodes`` of its album.
        public let node: Int
        /// Whether the placeholder recorded another path for its file, one
        /// that was never there (a catalog's originals mapped wrongly the
        /// first time): it is pointed at ``source`` before it loads.
        public let isRetargeted: Bool
    }

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
        try planner.visit(root, in: Planner.Place(parent: nil, folder: .library(destinationFolder?.id), path: base, name: destinationFolder?.name, depth: 0))
        self.source = source
        self.destination = destinationFolder
        destinationPath = base
        nodes = planner.nodes
        skipped = root.allSkipped
        resumed = planner.resumed
    }

    /// The tree read against the library, node by node.
    private struct Planner {
        /// Where a node goes.
        struct Place {
            /// A library folder (nil: the top level), or one this plan makes.
            enum Folder {
                case library(FolderID?)
                case planned
            }
            /// The index of the node it stands in; nil: the destination.
            let parent: Int?
            let folder: Folder
            /// The folder's path in the tree and its name; nil: the top level.
            let path: String?
            let name: String?
            let depth: Int

            /// The key of the library folder in the maps by place; nil for one the plan makes, which holds nothing yet.
            var key: Int64? {
                guard case .library(let id) = folder else { return nil }
                return id?.rawValue ?? 0
            }

            func joined(_ name: String) -> String { path.map { "\($0)/\(name)" } ?? name }

            /// The place inside the node at `index`, named `name`, found in the library as `found` or made by the plan.
            func inside(_ index: Int, named name: String, found: FolderID?) -> Place {
                Place(parent: index, folder: found.map { .library($0) } ?? .planned, path: joined(name), name: name, depth: depth + 1)
            }
        }

        let reader: LibraryReader
        var nodes: [Node] = []
        var resumed: [ResumedLoad] = []
        /// Album names in use in the library or claimed by this plan.
        var albumNames: Set<String>
        /// Albums by parent folder (0: the top level) and name.
        let albumsByPlace: [Int64: [String: Album]]
        /// Folders by parent folder (0: the top level) and name.
        let foldersByPlace: [Int64: [String: AlbumsPersistence.Folder]]
        let albumsByID: [AlbumID: Album]
        let foldersByID: [FolderID: AlbumsPersistence.Folder]
        /// What earlier imports of the source made.
        let origins: ImportOrigins

        init(reader: LibraryReader, albums: [Album], folders: [AlbumsPersistence.Folder], origins: ImportOrigins) {
            self.reader = reader
            self.origins = origins
            albumsByID = Dictionary(albums.map { ($0.id, $0) }) { a, _ in a }
            foldersByID = Dictionary(folders.map { ($0.id, $0) }) { a, _ in a }
            albumNames = Set(albums.map(\.name))
            albumsByPlace = Dictionary(grouping: albums) { $0.parentID?.rawValue ?? 0 }.mapValues { Dictionary($0.map { ($0.name, $0) }) { a, _ in a } }
            foldersByPlace = Dictionary(grouping: folders) { $0.parentID?.rawValue ?? 0 }.mapValues { Dictionary($0.map { ($0.name, $0) }) { a, _ in a } }
        }

        mutating func visit(_ source: SourceFolder, in place: Place) throws {
            guard !source.folders.isEmpty else { return try addAlbum(of: source, in: place) }
            let remembered = origins.folders[source.key].flatMap { foldersByID[$0] }
            let found = remembered ?? place.key.flatMap { foldersByPlace[$0]?[source.name] }
            let name = found?.name ?? freeFolderName(source.name, in: place)
            nodes.append(
                Node(
                    kind: .folder, name: name, path: place.joined(name), source: source.path, key: source.key, depth: place.depth,
                    parent: place.parent, existing: found?.id.rawValue, photos: [], alreadyThere: 0))
            let inside = place.inside(nodes.count - 1, named: name, found: found?.id)
            if !source.photos.isEmpty {
                var own = source
                own.folders = []
                own.key = source.key + "#photos"
                try addAlbum(of: own, in: inside)
            }
            for child in source.folders { try visit(child, in: inside) }
        }

        private mutating func addAlbum(of source: SourceFolder, in place: Place) throws {
            let here = place.key.flatMap { albumsByPlace[$0] } ?? [:]
            var candidates = [source.name]
            if let parentName = place.name, parentName != source.name { candidates.append("\(source.name) (\(parentName))") }
            var chosen: (name: String, album: Album?)? = origins.albums[source.key].flatMap { albumsByID[$0] }.map { ($0.name, $0) }
            var number = 1
            while chosen == nil, number <= 100_000 {
                let candidate = number <= candidates.count ? candidates[number - 1] : "\(source.name) \(number - candidates.count + 1)"
                number += 1
                if let album = here[candidate] {
                    chosen = (candidate, album)
                } else if !albumNames.contains(candidate) && place.key.flatMap({ foldersByPlace[$0]?[candidate] }) == nil {
                    chosen = (candidate, nil)
                }
            }
            guard let chosen else { throw LibraryError.albumNameTaken(source.name) }
            albumNames.insert(chosen.name)
            var photos = source.photos
            var alreadyThere = 0
            let resumedBefore = resumed.count
            if let album = chosen.album {
                // What it holds already, by where it was loaded from; what a
                // killed import left behind is loaded again, unless its file
                // is still missing (then it holds its slot).
                let sources = Set(source.photos)
                var held = Set<String>()
                var unfound: [(placeholder: AlbumItemID, source: String)] = []
                try reader.forEachListedItem(in: album.id) { item, photo in
                    switch item.content {
                    case .photo: if let photo { held.insert(photo.content.sourcePath) }
                    case .placeholder(let load):
                        guard load.owner.isGone, !sources.contains(load.source) || FileManager.default.fileExists(atPath: load.source) else {
                            held.insert(load.source)
                            break
                        }
                        if sources.contains(load.source) {
                            held.insert(load.source)
                            resumed.append(ResumedLoad(placeholder: item.id, source: load.source, node: nodes.count, isRetargeted: false))
                        } else if !FileManager.default.fileExists(atPath: load.source) {
                            unfound.append((item.id, load.source))
                        } else {
                            held.insert(load.source)
                        }
                    }
                    return true
                }
                // A placeholder whose file was never where it said (an
                // import whose paths were mapped wrongly) takes the photo
                // this import finds in its stead, in its slot, rather than
                // the photo coming again at the album's end.
                let found = TreeImportPlan.sameFiles(unfound.map(\.source), among: source.photos.filter { !held.contains($0) })
                for (placeholder, old) in unfound {
                    guard let new = found[old] else { continue }
                    held.insert(new)
                    resumed.append(ResumedLoad(placeholder: placeholder, source: new, node: nodes.count, isRetargeted: true))
                }
                photos = source.photos.filter { !held.contains($0) }
                // What loads again in its slot comes now, not from before.
                alreadyThere = source.photos.count - photos.count - (resumed.count - resumedBefore)
            }
            nodes.append(
                Node(
                    kind: .album, name: chosen.name, path: place.joined(chosen.name), source: source.path, key: source.key,
                    depth: place.depth, parent: place.parent, existing: chosen.album?.id.rawValue, photos: photos, alreadyThere: alreadyThere,
                    description: source.description))
        }

        /// A name for a new folder: its own, unless an album stands under it in that place.
        private func freeFolderName(_ name: String, in place: Place) -> String {
            guard let key = place.key, let albums = albumsByPlace[key], albums[name] != nil else { return name }
            var number = 2
            while albums["\(name) \(number)"] != nil || foldersByPlace[key]?["\(name) \(number)"] != nil { number += 1 }
            return "\(name) \(number)"
        }
    }
}

extension TreeImportPlan {
    /// For each path of `lost`, the path of `candidates` that names the
    /// same file: the same name, and the most folders above it the
    /// same ("2024/Rom/a.jpg"), where only one candidate has that many;
    /// Windows' backslashes count as slashes. Each candidate is taken once.
    static func sameFiles(_ lost: [String], among candidates: [String]) -> [String: String] {
        func components(_ path: String) -> [Substring] { path.split(whereSeparator: { $0 == "/" || $0 == "\\" }).reversed() }
        var byName: [Substring: [(path: String, components: [Substring])]] = [:]
        for candidate in candidates {
            let parts = components(candidate)
            if let name = parts.first { byName[name, default: []].append((candidate, parts)) }
        }
        var taken = Set<String>()
        var found: [String: String] = [:]
        for old in lost {
            let parts = components(old)
            guard let name = parts.first, let alike = byName[name] else { continue }
            let scored = alike.filter { !taken.contains($0.path) }.map { candidate in
                (candidate.path, zip(parts, candidate.components).prefix { $0 == $1 }.count)
            }
            guard let best = scored.map(\.1).max(), scored.count(where: { $0.1 == best }) == 1,
                let match = scored.first(where: { $0.1 == best })?.0
            else { continue }
            taken.insert(match)
            found[old] = match
        }
        return found
    }
}
