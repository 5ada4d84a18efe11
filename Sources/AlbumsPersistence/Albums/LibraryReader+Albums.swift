import GRDB

extension LibraryReader {
    static let albumColumns = """
        a.id, a.name, (SELECT count(*) FROM album b WHERE b.order_key < a.order_key) AS position,
        a.is_locked, a.revision, a.item_count, a.placeholder_count
        """

    static func album(from row: Row) -> Album {
        Album(
            id: row["id"], name: row["name"], index: row["position"], isLocked: row["is_locked"],
            revision: row["revision"], itemCount: row["item_count"], placeholderCount: row["placeholder_count"])
    }

    /// Every album, in the library's order.
    public func albums() throws -> [Album] {
        try Row.fetchAll(db, cachedSQL: "SELECT \(Self.albumColumns) FROM album a ORDER BY a.order_key").map(Self.album(from:))
    }

    /// The album named `name`: case-sensitive, compared in Unicode NFC
    /// (a name typed with combining accents finds the album).
    ///
    /// - Throws: ``LibraryError/albumNotFound(_:)``.
    public func album(named name: String) throws -> Album {
        // No album's name holds a control character, and SQLite would read
        // a bound "Trip\0…" only up to its NUL, finding "Trip".
        guard !name.unicodeScalars.contains(where: \.isControlCharacter) else { throw LibraryError.albumNotFound(.named(name)) }
        // Every stored name is NFC (migration 0004 renamed the others).
        guard let row = try Row.fetchOne(
            db, cachedSQL: "SELECT \(Self.albumColumns) FROM album a WHERE a.name = ?", arguments: [AlbumName.normalized(name)])
        else { throw LibraryError.albumNotFound(.named(name)) }
        return Self.album(from: row)
    }

    /// The album with identifier `id`.
    ///
    /// - Throws: ``LibraryError/albumNotFound(_:)``.
    public func album(_ id: AlbumID) throws -> Album {
        guard let row = try Row.fetchOne(db, cachedSQL: "SELECT \(Self.albumColumns) FROM album a WHERE a.id = ?", arguments: [id])
        else { throw LibraryError.albumNotFound(.id(id)) }
        return Self.album(from: row)
    }

    /// The albums that hold `photo`, in the library's order.
    public func albums(holding photo: PhotoID) throws -> [Album] {
        try Row.fetchAll(
            db,
            sql: "SELECT \(Self.albumColumns) FROM album a WHERE a.id IN (SELECT album_id FROM album_item WHERE photo_id = ?) ORDER BY a.order_key",
            arguments: [photo]
        ).map(Self.album(from:))
    }

    /// The number of albums in the library.
    public func albumCount() throws -> Int {
        try Int.fetchOne(db, cachedSQL: "SELECT count(*) FROM album") ?? 0
    }
}
