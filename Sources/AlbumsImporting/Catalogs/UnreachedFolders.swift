import Foundation

/// A folder a catalog keeps originals under that this machine does not
/// have (a drive not mounted, another machine's disk), with how many of
/// the import's photos are under it: what one path map makes right.
public struct UnreachedFolder: Hashable, Sendable {
    /// The folder, as the catalog names it (after any path map).
    public let path: String
    /// The photos under it the import would bring.
    public let photoCount: Int
}

extension CatalogImport {
    /// Every photo an import brings unless told otherwise: the albums' and
    /// those in no album (not those set aside, which come only on request).
    public var allPhotos: [String] {
        var all: [String] = []
        func add(_ folder: SourceFolder) {
            all += folder.photos
            folder.folders.forEach(add)
        }
        add(root)
        return all + loose
    }

    /// The folders whose photos are not there because the folder itself is
    /// not: each of the catalog's ``roots`` that is missing, else the
    /// deepest folder holding all of a group of missing photos whose
    /// nearest missing ancestor is the same. A photo missing from a folder
    /// that is there is no unreached folder's. In the order first met.
    public func unreachedFolders(among photos: [String]? = nil) -> [UnreachedFolder] {
        let manager = FileManager.default
        var exists: [String: Bool] = [:]
        func isThere(_ path: String) -> Bool {
            if let known = exists[path] { return known }
            let answer = manager.fileExists(atPath: path)
            exists[path] = answer
            return answer
        }
        let missingRoots = roots.map { $0.hasSuffix("/") || $0.hasSuffix("\\") ? String($0.dropLast()) : $0 }.filter { !$0.isEmpty && !isThere($0) }
        /// A group of missing photos: under a missing root, or under the same nearest missing ancestor.
        enum Group: Hashable {
            case root(String)
            case ancestor(String)
        }
        var order: [Group] = []
        var groups: [Group: [String]] = [:]
        var seen = Set<String>()
        // A photo only the cloud keeps is missing for no folder's sake.
        for photo in photos ?? allPhotos where whyMissing[photo] != .onlyInCloud && seen.insert(photo).inserted {
            let key: Group
            if let root = missingRoots.filter({ Self.isInside(photo, $0) }).max(by: { $0.count < $1.count }) {
                key = .root(root)
            } else {
                // The shallowest ancestor that is not there; none but the file itself: not a folder's doing.
                guard let first = Self.folders(of: photo).first(where: { !isThere($0) }) else { continue }
                key = .ancestor(first)
            }
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(photo)
        }
        return order.compactMap { key in
            guard let members = groups[key] else { return nil }
            if case .root(let root) = key { return UnreachedFolder(path: root, photoCount: members.count) }
            // The deepest folder all of the group's photos are in.
            var common = Self.folders(of: members[0])
            for member in members.dropFirst() {
                let theirs = Set(Self.folders(of: member))
                common = Array(common.prefix { theirs.contains($0) })
            }
            guard let folder = common.last else { return nil }
            return UnreachedFolder(path: folder, photoCount: members.count)
        }
    }

    /// The folders `path` stands in, outermost first ("/a", "/a/b" for
    /// "/a/b/c.jpg"; "D:", "D:/x" for "D:/x/c.jpg"), without the root "/".
    private static func folders(of path: String) -> [String] {
        var result: [String] = []
        var index = path.startIndex
        while let slash = path[index...].firstIndex(where: { $0 == "/" || $0 == "\\" }) {
            if slash > path.startIndex { result.append(String(path[..<slash])) }
            index = path.index(after: slash)
        }
        return result
    }

    private static func isInside(_ path: String, _ folder: String) -> Bool {
        guard path.hasPrefix(folder), path.count > folder.count else { return false }
        let next = path[path.index(path.startIndex, offsetBy: folder.count)]
        return next == "/" || next == "\\"
    }
}
