import GRDB

extension LibraryReader {
    /// Whether the library holds nothing anyone made: no album, folder,
    /// photo, person or history entry, as a new library is.
    ///
    /// A command that created the library and then failed removes it only
    /// when this holds, so that nothing made in it, by it or by another
    /// process meanwhile, is ever taken away with it.
    package func holdsNothingMade() throws -> Bool {
        try Bool.fetchOne(
            db,
            sql: """
                SELECT NOT EXISTS (SELECT 1 FROM album) AND NOT EXISTS (SELECT 1 FROM folder)
                    AND NOT EXISTS (SELECT 1 FROM photo) AND NOT EXISTS (SELECT 1 FROM person)
                    AND NOT EXISTS (SELECT 1 FROM history_entry)
                """) ?? false
    }
}
