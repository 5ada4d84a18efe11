import GRDB

extension Database {
    /// Whether the file has the table `name`: a tested library may predate
    /// the migration that made it. One plain query: GRDB's `tableExists`
    /// reads the whole schema first, which every command's start paid for.
    func hasTable(_ name: String) throws -> Bool {
        try Bool.fetchOne(self, cachedSQL: "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", arguments: [name]) ?? false
    }
}
