import GRDB

#if canImport(GRDBSQLite)
    import GRDBSQLite
#else
    import SQLite3
#endif

extension Database {
    /// The file this connection has open, for messages that name it: its
    /// `description` is the connection's label (`albums.writer`), which
    /// tells a person nothing about which file is damaged.
    var filePath: String {
        guard let name = sqlite3_db_filename(sqliteConnection, "main") else { return description }
        let path = String(cString: name)
        return path.isEmpty ? description : path
    }
}
