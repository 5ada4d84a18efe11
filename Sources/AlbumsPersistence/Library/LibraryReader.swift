import GRDB

/// Read access to a library inside one snapshot (see ``Library/read(_:)``).
///
/// Valid only inside the closure it is passed to.
public class LibraryReader {
    let db: Database
    /// The library file's path, for messages.
    public let path: String

    init(db: Database, path: String) {
        self.db = db
        self.path = path
    }

    /// The underlying GRDB connection, for queries this API does not offer.
    ///
    /// Read what you like; writing through it bypasses the invariants
    /// ``LibraryWriter`` keeps.
    public var database: Database { db }
}
