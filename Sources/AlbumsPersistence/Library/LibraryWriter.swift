import GRDB

/// Write access to a library inside one IMMEDIATE transaction (see
/// ``Library/write(_:)``): reads see the transaction's own changes, and
/// every change keeps the library's invariants.
///
/// Valid only inside the closure it is passed to.
public final class LibraryWriter: LibraryReader {
    /// Albums this transaction changed; each gets one revision bump on commit.
    private(set) var changedAlbums: Set<AlbumID> = []

    func markChanged(_ album: AlbumID) {
        changedAlbums.insert(album)
    }

    /// Raises the revision of every changed album that still exists.
    func finish() throws {
        for album in changedAlbums {
            try db.execute(cachedSQL: "UPDATE album SET revision = revision + 1 WHERE id = ?", arguments: [album])
        }
    }
}
