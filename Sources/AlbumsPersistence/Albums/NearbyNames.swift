import Foundation

/// What a name that finds nothing was probably meant to be: an album or a
/// folder of another case or accent, a name a typo or two away, or the
/// same name on the other kind of node (`album delete Travel` of a folder).
public enum NearbyName: Hashable, Sendable {
    /// An album the name was probably meant to find.
    case album(String)
    /// A folder, by path, the name was probably meant to find.
    case folder(String)

    /// The album's name or the folder's path.
    public var name: String {
        switch self {
        case .album(let name), .folder(let name): name
        }
    }
}

extension LibraryReader {
    /// The album or folder `name` probably meant, among those the
    /// principal sees (what they cannot see is never offered, so the
    /// answer says nothing of it): first the node of the other kind with
    /// exactly that name or path, then one whose name differs only in case
    /// or accents, then one a typo or two away (for names of four
    /// characters or more); nil when nothing is that near.
    ///
    /// It reads every name the principal sees: call it for a message, not
    /// on a path that runs often.
    ///
    /// - Parameter wantsFolder: Whether `name` was given as a folder.
    public func nearbyName(to name: String, wantsFolder: Bool = false) throws -> NearbyName? {
        let wanted = AlbumName.normalized(name)
        var albums: [String] = []
        var folders: [String] = []
        let entries = try tree()
        let paths = entries.folderPaths()
        for entry in entries {
            switch entry.node {
            case .album(let album): albums.append(album.name)
            case .folder(let folder): folders.append(paths[folder.id] ?? folder.name)
            }
        }
        let folderNames = folders.map { $0.split(separator: "/").last.map(String.init) ?? $0 }
        if wantsFolder, albums.contains(wanted) { return .album(wanted) }
        if !wantsFolder, let index = folders.indices.first(where: { folders[$0] == wanted || folderNames[$0] == wanted }) {
            return .folder(folders[index])
        }
        let candidates = wantsFolder ? folders.map(NearbyName.folder) : albums.map(NearbyName.album)
        let folded = Self.folded(wanted)
        if let same = candidates.first(where: { Self.folded($0.name) == folded && $0.name != wanted }) { return same }
        guard folded.count >= 4 else { return nil }
        let names = candidates.map { String(Self.folded($0.name)) }
        return EditDistance.nearest(to: String(folded), among: names).flatMap { near in names.firstIndex(of: near).map { candidates[$0] } }
    }

    /// The albums the principal sees whose names differ from `name` only
    /// in case, accents or width ("summer 2026" beside "Summer 2026"):
    /// names are case-sensitive, so such an album is another album, and
    /// worth a word when one is made.
    public func albumNames(alike name: String) throws -> [String] {
        let wanted = AlbumName.normalized(name)
        let folded = Self.folded(wanted)
        return try tree().compactMap { entry in
            guard case .album(let album) = entry.node, album.name != wanted, Self.folded(album.name) == folded else { return nil }
            return album.name
        }
    }

    /// A name as compared for nearness: without case or accents.
    private static func folded(_ name: String) -> [Character] {
        Array(name.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil))
    }
}

/// How far apart two names are, in typos: what "did you mean" offers.
package enum EditDistance {
    /// The Levenshtein distance of `a` and `b`, or `limit + 1` once it
    /// is sure to be more than `limit` (names far apart cost little).
    package static func between(_ a: [Character], _ b: [Character], atMost limit: Int) -> Int {
        guard abs(a.count - b.count) <= limit else { return limit + 1 }
        var previous = Array(0...b.count)
        for (i, left) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, right) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (left == right ? 0 : 1))
            }
            if current.min() ?? 0 > limit { return limit + 1 }
            previous = current
        }
        return previous[b.count]
    }

    /// The one of `candidates` nearest `word`, within `limit` typos (the
    /// first of the nearest); nil when none is that near.
    package static func nearest(to word: String, among candidates: [String], atMost limit: Int = 2) -> String? {
        let typed = Array(word)
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = between(typed, Array(candidate), atMost: limit)
            if distance <= limit, distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        return best?.name
    }
}
