import AlbumsPersistence

/// The tree as `album list --tree` prints it: one line per folder and
/// album, indented two spaces a level, a folder's name ending in '/', each
/// with its 1-based position among its parent's children.
struct TreeText {
    let entries: [TreeEntry]

    init(_ entries: [TreeEntry]) {
        self.entries = entries
    }

    var lines: [String] {
        let rows = entries.map { entry -> [String] in
            let indent = String(repeating: "  ", count: entry.depth)
            switch entry.node {
            case .folder(let folder):
                return [String(folder.index + 1), indent + folder.name + "/", "", "", folder.isLocked ? "locked" : ""]
            case .album(let album):
                return [
                    String(album.index + 1), indent + album.name, String(album.itemCount),
                    album.placeholderCount > 0 ? String(album.placeholderCount) : "", Self.state(of: album),
                ]
            }
        }
        return Table(header: ["#", "NAME", "ITEMS", "PENDING", "STATE"], rows: rows).lines
    }

    /// What the STATE column says of an album: locked, smart, both or nothing.
    static func state(of album: Album) -> String {
        [album.isLocked ? "locked" : nil, album.isSmart ? "smart" : nil].compactMap { $0 }.joined(separator: ", ")
    }
}
