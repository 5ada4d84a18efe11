import GRDB

extension LibraryReader {
    /// An album's place among its siblings: the albums before it have a
    /// lower key, the folders before it a lower or equal one (``TreeOrder``).
    static let albumColumns = """
        a.id, a.name, a.parent_id,
        (SELECT count(*) FROM album b WHERE coalesce(b.parent_id, 0) = coalesce(a.parent_id, 0) AND b.order_key < a.order_key)
        + (SELECT count(*) FROM folder f WHERE coalesce(f.parent_id, 0) = coalesce(a.parent_id, 0) AND f.order_key <= a.order_key) AS position,
        a.is_locked, a.revision, a.item_count, a.placeholder_count, a.video_count, a.cover_photo_id, a.search, a.description
        """

    static func album(from row: Row) -> Album {
        Album(
            id: row["id"], name: row["name"], parentID: row["parent_id"], index: row["position"], isLocked: row["is_locked"],
            revision: row["revision"], itemCount: row["item_count"], placeholderCount: row["placeholder_count"],
            videoCount: row["video_count"], chosenCoverID: row["cover_photo_id"], isSmart: row["search"] != nil,
            savedSearch: (row["search"] as String?).flatMap { PhotoSearch(storedJSON: $0) }, description: row["description"])
    }

    /// Every album, in the tree's order: each folder's albums where the
    /// folder stands, depth first (``tree()``).
    public func albums() throws -> [Album] {
        try tree().compactMap { if case .album(let album) = $0.node { album } else { nil } }
    }

    /// The album named `name`, or at the path `name` ("Travel/2026/Lisbon":
    /// its folders' names, then its own): case-sensitive, compared in
    /// Unicode NFC (a name typed with combining accents finds the album).
    /// An album whose own name is `name` wins over a path.
    ///
    /// - Throws: ``LibraryError/albumNotFound(_:)``.
    public func album(named name: String) throws -> Album {
        // No album's name holds a control character, and SQLite would read
        // a bound "Trip\0…" only up to its NUL, finding "Trip".
        guard !name.unicodeScalars.contains(where: \.isControlCharacter) else { throw LibraryError.albumNotFound(.named(name)) }
        // Every stored name is NFC (migration 0004 renamed the others).
        if let row = try Row.fetchOne(
            db, cachedSQL: "SELECT \(Self.albumColumns) FROM album a WHERE a.name = ?", arguments: [AlbumName.normalized(name)])
        {
            return try visible(current(Self.album(from: row)), as: .named(name))
        }
        // A path: the album's name after the last '/', in the folder the rest names.
        if let slash = name.lastIndex(of: "/"), let folder = try folderID(atPath: String(name[..<slash])),
            let row = try Row.fetchOne(
                db, cachedSQL: "SELECT \(Self.albumColumns) FROM album a WHERE a.name = ? AND a.parent_id = ?",
                arguments: [AlbumName.normalized(String(name[name.index(after: slash)...])), folder])
        {
            return try visible(current(Self.album(from: row)), as: .named(name))
        }
        throw LibraryError.albumNotFound(.named(name))
    }

    /// The album with identifier `id`.
    ///
    /// - Throws: ``LibraryError/albumNotFound(_:)``.
    public func album(_ id: AlbumID) throws -> Album {
        guard let row = try Row.fetchOne(db, cachedSQL: "SELECT \(Self.albumColumns) FROM album a WHERE a.id = ?", arguments: [id])
        else { throw LibraryError.albumNotFound(.id(id)) }
        return try visible(current(Self.album(from: row)), as: .id(id))
    }

    /// `album` as the principal sees it in the tree: in a folder they
    /// cannot see, it stands at their top level, at its place among what
    /// they see there (what `tree()` gives them).
    public func asSeen(_ album: Album) throws -> Album {
        guard rights != nil, !principal.holdsEveryRight else { return album }
        for entry in try tree() {
            if case .album(let seen) = entry.node, seen.id == album.id { return seen }
        }
        throw LibraryError.albumNotFound(.id(album.id))
    }

    /// `album`, if the principal may see it; else not found, as if it did not exist.
    private func visible(_ album: Album, as reference: AlbumReference) throws -> Album {
        guard try rights == nil || role(on: album) != nil else { throw LibraryError.albumNotFound(reference) }
        return album
    }

    /// The albums that hold `photo`, in the tree's order.
    public func albums(holding photo: PhotoID) throws -> [Album] {
        let holding = Set(try AlbumID.fetchAll(db, sql: "SELECT album_id FROM album_item WHERE photo_id = ?", arguments: [photo]))
        // One album is the usual case, and the planner asks on every drop of an id:P.
        guard holding.count > 1 else {
            // One the principal cannot see is left out, as if it held no such photo.
            var albums: [Album] = []
            for id in holding {
                do { albums.append(try album(id)) } catch LibraryError.albumNotFound { continue }
            }
            return albums
        }
        return try albums().filter { holding.contains($0.id) }
    }

    /// The number of albums in the library.
    public func albumCount() throws -> Int {
        try Int.fetchOne(db, cachedSQL: "SELECT count(*) FROM album") ?? 0
    }
}
