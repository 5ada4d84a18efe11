import AlbumsPersistence

/// Writes `album list --json` straight from the tree into bytes: exactly
/// the objects JSONEncoder makes of ``AlbumJSON`` and ``FolderJSON`` (keys
/// sorted, nulls kept, slashes unescaped; a test compares them on awkward
/// names), one per line, at the speed of `sqlite3 -json` for trees of
/// thousands of albums (BENCHMARKS.md). ``TreeJSON`` stays the shape's one
/// definition; the API encodes it.
extension ListingJSONWriter {
    /// The whole tree: `{"albums": [...], "folders": [...]}`, written out
    /// as it fills (call ``flush(force:)`` at the end).
    mutating func appendTree(_ entries: [TreeEntry]) {
        append("{\"albums\":[")
        var first = true
        for entry in entries {
            guard case .album(let album) = entry.node else { continue }
            append(first ? "\n" : ",\n")
            first = false
            appendAlbum(album)
            flush()
        }
        append("\n],\"folders\":[")
        first = true
        let paths = entries.folderPaths()
        for entry in entries {
            guard case .folder(let folder) = entry.node else { continue }
            append(first ? "\n" : ",\n")
            first = false
            appendFolder(folder, path: paths[folder.id]!)
            flush()
        }
        append("\n]}\n")
    }

    mutating func appendAlbum(_ album: Album) {
        append("{\"count\":")
        appendInteger(Int64(album.itemCount))
        append(",\"description\":")
        if let description = album.description { appendString(description) } else { append("null") }
        append(",\"id\":")
        appendInteger(album.id.rawValue)
        append(album.isLocked ? ",\"locked\":true,\"name\":" : ",\"locked\":false,\"name\":")
        appendString(album.name)
        append(",\"parent_id\":")
        appendParent(album.parentID)
        append(",\"pending\":")
        appendInteger(Int64(album.placeholderCount))
        append(",\"position\":")
        appendInteger(Int64(album.index + 1))
        append(",\"revision\":")
        appendInteger(album.revision)
        append(album.isSmart ? ",\"smart\":true" : ",\"smart\":false")
        append(",\"videos\":")
        appendInteger(Int64(album.videoCount))
        append("}")
    }

    mutating func appendFolder(_ folder: Folder, path: String) {
        append("{\"id\":")
        appendInteger(folder.id.rawValue)
        append(folder.isLocked ? ",\"locked\":true,\"name\":" : ",\"locked\":false,\"name\":")
        appendString(folder.name)
        append(",\"parent_id\":")
        appendParent(folder.parentID)
        append(",\"path\":")
        appendString(path)
        append(",\"position\":")
        appendInteger(Int64(folder.index + 1))
        append(",\"revision\":")
        appendInteger(folder.revision)
        append("}")
    }

    private mutating func appendParent(_ parent: FolderID?) {
        if let parent { appendInteger(parent.rawValue) } else { append("null") }
    }
}
