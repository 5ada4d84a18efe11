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
                return [String(folder.index + 1), indent + folder.name + "/", "", "", String(folder.revision), folder.isLocked ? "locked" : ""]
            case .album(let album):
                return [
                    String(album.index + 1), indent + album.name, String(album.itemCount),
                    album.placeholderCount > 0 ? String(album.placeholderCount) : "", String(album.revision), album.isLocked ? "locked" : "",
                ]
            }
        }
        return Table(header: ["#", "NAME", "ITEMS", "PENDING", "REVISION", ""], rows: rows).lines
    }
}
