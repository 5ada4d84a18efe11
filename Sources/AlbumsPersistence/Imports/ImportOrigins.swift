import GRDB

/// What earlier imports of one source made: the library's albums and
/// folders, by the source's own name for what each came from (a folder's
/// path on disk, an event of another organizer). An album renamed or moved
/// since is still found; one deleted since is forgotten with it.
public struct ImportOrigins: Hashable, Sendable {
    /// Albums, by the source's key.
    public var albums: [String: AlbumID] = [:]
    /// Folders, by the source's key.
    public var folders: [String: FolderID] = [:]

    /// No origins: a source never imported.
    public init() {}
}

extension LibraryReader {
    /// What earlier imports of `source` made, as it stands now.
    public func importOrigins(of source: String) throws -> ImportOrigins {
        var origins = ImportOrigins()
        let rows = try Row.fetchCursor(db, sql: "SELECT key, album_id, folder_id FROM import_origin WHERE source = ?", arguments: [source])
        while let row = try rows.next() {
            if let album: Int64 = row["album_id"] { origins.albums[row["key"]] = AlbumID(rawValue: album) }
            if let folder: Int64 = row["folder_id"] { origins.folders[row["key"]] = FolderID(rawValue: folder) }
        }
        return origins
    }
}

extension LibraryWriter {
    /// Remembers that an import of `source` made `album` of what the source calls `key`.
    public func recordImportOrigin(source: String, key: String, album: AlbumID) throws {
        try db.execute(
            sql: "INSERT OR REPLACE INTO import_origin (source, key, album_id) VALUES (?, ?, ?)", arguments: [source, key, album])
    }

    /// Remembers that an import of `source` made `folder` of what the source calls `key`.
    public func recordImportOrigin(source: String, key: String, folder: FolderID) throws {
        try db.execute(
            sql: "INSERT OR REPLACE INTO import_origin (source, key, folder_id) VALUES (?, ?, ?)", arguments: [source, key, folder])
    }
}
