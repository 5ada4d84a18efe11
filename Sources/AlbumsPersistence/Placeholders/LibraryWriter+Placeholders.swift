import GRDB

// The placeholder lifecycle: begin (insert), commit (become the photo, in
// place), cancel or fail (vanish), claim (a new owner resumes the load).
//
// A lock freezes an album's order: nothing new enters. Loads already
// pending when it was locked still commit or fail into their own slots,
// so that a lock never strands a placeholder.

extension LibraryWriter {
    /// Begins loads: one placeholder per load, contiguously and in order,
    /// in this transaction, before any bytes are read.
    ///
    /// - Returns: The placeholders' identifiers, in order.
    /// - Throws: ``LibraryError/albumLocked(name:)``, ``LibraryError/positionOutOfRange(index:valid:album:)``.
    @discardableResult
    public func insertPlaceholders(_ loads: [PendingLoad], into album: AlbumID, at index: Int? = nil) throws -> [AlbumItemID] {
        let destination = try self.album(album)
        try requireUnlocked(destination)
        let index = index ?? destination.itemCount
        try requireLandingIndex(index, in: destination, staying: destination.itemCount)
        return try recordingOperation(
            described: "import \(LibraryError.counted(loads.count, "file")) into \(LibraryError.quoted(destination.name)) at position \(index + 1)"
        ) {
            let ids = try executePlaceholderInsertion(of: loads, into: destination, at: index)
            try markCopies(of: zip(ids, loads).filter { $1.keepsCopy }.map(\.0), kept: true)
            return ids
        }.0
    }

    /// Records whether the loads of `placeholders` keep a copy of what they
    /// read: a load resumed after a crash does as it was begun.
    public func markCopies(of placeholders: [AlbumItemID], kept: Bool) throws {
        for placeholder in placeholders {
            try db.execute(
                cachedSQL: kept ? "INSERT OR IGNORE INTO pending_copy (item_id) VALUES (?)" : "DELETE FROM pending_copy WHERE item_id = ?",
                arguments: [placeholder])
        }
    }

    /// Commits a load: adds its photo to the library (or finds the one with
    /// the same bytes) and puts it in the placeholder's slot, wherever that
    /// slot stands now. Bytes the library already holds under another name
    /// keep the load's name in this album: whoever loaded them learns nothing
    /// of the first import's. The item carries the words and marks the load
    /// read (``PhotoContent/marks``), never another item's.
    ///
    /// - Parameter displacing: Whether the item now holding the same photo
    ///   in the album gives its place up to this load: a load of the same
    ///   run that came after it in the run's order but ended first (two
    ///   copies of one file in a folder). The earlier load's slot and name
    ///   then hold the photo, whichever read faster, and that item goes.
    /// - Returns: What happened; if the album already holds the photo (in an
    ///   item not displaced), the placeholder is deleted instead.
    /// - Throws: ``LibraryError/itemNotFound(_:)`` if the placeholder is gone
    ///   (cancelled meanwhile), ``LibraryError/constraintViolated(detail:)``
    ///   for content the schema refuses.
    @discardableResult
    public func commitLoad(
        _ placeholder: AlbumItemID, content: PhotoContent, displacing: (AlbumItemID) -> Bool = { _ in false }
    ) throws -> LoadCommit {
        // Outside the history through commitPlaceholder; the photo row has no history.
        try recordingOperation {
            // Gone (cancelled meanwhile): said before the photo is added, which the rollback would undo anyway.
            guard let album = try Int64.fetchOne(db, cachedSQL: "SELECT album_id FROM album_item WHERE id = ? AND photo_id IS NULL", arguments: [placeholder])
            else { throw LibraryError.itemNotFound(.item(placeholder)) }
            let (photo, isNew) = try addPhoto(content, for: AlbumID(rawValue: album))
            let committed = try commitOutsideHistory(
                placeholder, with: photo.id, ownName: photo.content.originalName, named: content.originalName, marks: content.marks,
                displacing: displacing)
            guard let committed else { return .alreadyInAlbum(photo: photo) }
            return .committed(item: placeholder, photo: photo, isNewPhoto: isNew, displaced: committed.displaced)
        }.0
    }

    /// Replaces a placeholder by a photo of the library, at the placeholder's current index.
    ///
    /// - Parameters:
    ///   - name: The file name the load read, kept as the item's name where
    ///     it is not the photo's own; nil: the photo's.
    ///   - marks: The words and marks the item carries from the start.
    /// - Returns: The item now holding the photo, or nil if the album already
    ///   had the photo elsewhere, in which case the placeholder is deleted.
    /// - Throws: ``LibraryError/itemNotFound(_:)`` if there is no such placeholder,
    ///   ``LibraryError/photoNotFound(_:)``.
    @discardableResult
    public func commitPlaceholder(
        _ placeholder: AlbumItemID, with photo: PhotoID, named name: String? = nil, marks: ItemMarks = .none
    ) throws -> AlbumItemID? {
        try commitOutsideHistory(placeholder, with: photo, ownName: nil, named: name, marks: marks)?.item
    }

    /// A placeholder's commit as its own operation (its change set) that
    /// the history leaves out: a load's end belongs to the import that began it.
    private func commitOutsideHistory(
        _ placeholder: AlbumItemID, with photo: PhotoID, ownName: String?, named name: String?, marks: ItemMarks,
        displacing: (AlbumItemID) -> Bool = { _ in false }
    ) throws -> (item: AlbumItemID, displaced: AlbumItemID?)? {
        try withoutHistory {
            try recordingOperation {
                try commitPlaceholderOperation(placeholder, with: photo, ownName: ownName, named: name, marks: marks, displacing: displacing)
            }.0
        }
    }

    /// - Parameters:
    ///   - ownName: The photo's own name, which the item keeps unless `name`
    ///     differs; nil: read from the photo.
    ///   - displacing: Whether the item already holding the photo in the
    ///     album gives its place up (``commitLoad(_:content:displacing:)``).
    /// - Returns: The item now holding the photo and the one it displaced;
    ///   nil if the album already held the photo and the placeholder went.
    private func commitPlaceholderOperation(
        _ placeholder: AlbumItemID, with photo: PhotoID, ownName: String?, named name: String?, marks: ItemMarks,
        displacing: (AlbumItemID) -> Bool
    ) throws -> (item: AlbumItemID, displaced: AlbumItemID?)? {
        var placed = try pendingPlaceholder(placeholder)
        let album = try self.album(placed.item.albumID)
        // A load acts for whoever began it until it commits: a role taken meanwhile stops it here.
        try require(.editor, on: album)
        let ownName = try ownName ?? self.photo(photo).content.originalName
        var displaced: AlbumItemID?
        if let holder = try placedItem(holding: photo, in: album.id) {
            guard displacing(holder.item.id) else {
                try executeRemoval(of: [placed], albums: [album.id: album], tidiesSegments: false)
                return nil
            }
            try executeRemoval(of: [holder], albums: [album.id: album], tidiesSegments: false)
            // The placeholder stood after it, perhaps: where it stands now.
            placed = try pendingPlaceholder(placeholder)
            displaced = holder.item.id
        }
        let item = placed.item
        let fileName = name.flatMap { $0.isEmpty || $0 == ownName ? nil : $0 }
        if marks.isEmpty {
            try db.execute(
                cachedSQL: """
                    UPDATE album_item SET photo_id = ?, load_source = NULL, load_owner_host = NULL,
                        load_owner_process_id = NULL, load_owner_started_at = NULL, file_name = ?
                    WHERE id = ?
                    """,
                arguments: [photo, fileName, placeholder])
        } else {
            // One statement with its words: a second would seek the row again.
            var arguments: StatementArguments = [photo, fileName]
            arguments += marks.columnValues
            arguments += [placeholder]
            try db.execute(
                cachedSQL: """
                    UPDATE album_item SET photo_id = ?, load_source = NULL, load_owner_host = NULL,
                        load_owner_process_id = NULL, load_owner_started_at = NULL, file_name = ?,
                        title = ?, caption = ?, is_favorite = ?, rating = ?, keywords = ?
                    WHERE id = ?
                    """,
                arguments: arguments)
        }
        try db.execute(cachedSQL: "DELETE FROM pending_copy WHERE item_id = ?", arguments: [placeholder])
        adjustCounts(of: item.albumID, items: 0, placeholders: -1)
        changes(of: album) { $0.recordUpdate(at: item.index, of: item.id) }
        return (placeholder, displaced)
    }

    /// Deletes placeholders: their loads failed or were cancelled. Nothing
    /// else changes, and the history does not list it: a load's end belongs
    /// to the import that began it.
    ///
    /// - Throws: ``LibraryError/itemNotFound(_:)`` for an id that is not a pending placeholder.
    public func deletePlaceholders(_ placeholders: [AlbumItemID]) throws {
        let found = try placeholders.map(pendingPlaceholder)
        let albums = try albumsOf(found)
        try withoutHistory {
            _ = try recordingOperation { try executeRemoval(of: found, albums: albums, tidiesSegments: false) }
        }
    }

    /// Makes `owner` the owner of placeholders, to resume their loads.
    ///
    /// - Throws: ``LibraryError/itemNotFound(_:)`` for an id that is not a pending placeholder.
    public func claimPlaceholders(_ placeholders: [AlbumItemID], owner: LoadOwner = .current) throws {
        for placeholder in placeholders {
            _ = try pendingPlaceholder(placeholder)
            try db.execute(
                cachedSQL: "UPDATE album_item SET load_owner_host = ?, load_owner_process_id = ?, load_owner_started_at = ? WHERE id = ?",
                arguments: [owner.host, owner.processID, owner.processStartedAt, placeholder])
        }
    }

    /// Points stale placeholders at where their files are now and takes
    /// them over, as ``claimPlaceholders(_:owner:)`` does: their loads run
    /// again from there, into the same slots. Not in the history, as claims are not.
    ///
    /// - Throws: ``LibraryError/itemNotFound(_:)`` for an id that is not a pending placeholder.
    public func retargetPlaceholders(_ sources: [AlbumItemID: String], owner: LoadOwner = .current) throws {
        for (id, source) in sources.sorted(by: { $0.key < $1.key }) {
            _ = try pendingPlaceholder(id)
            try db.execute(
                cachedSQL: "UPDATE album_item SET load_source = ?, load_owner_host = ?, load_owner_process_id = ?, load_owner_started_at = ? WHERE id = ?",
                arguments: [source, owner.host, owner.processID, owner.processStartedAt, id])
        }
    }

    private func pendingPlaceholder(_ id: AlbumItemID) throws -> PlacedItem {
        let placed = try placedItem(id)
        guard placed.item.isPlaceholder else { throw LibraryError.itemNotFound(.item(id)) }
        return placed
    }
}

extension LibraryReader {
    /// The placeholders of loads not yet committed, with where they stand
    /// now and whether their owner is gone, album by album, in order.
    ///
    /// - Parameter album: Only this album's; nil for the whole library.
    public func pendingPlaceholders(in album: AlbumID? = nil) throws -> [PendingPlaceholder] {
        let albums = try album.map { [try self.album($0)] } ?? albums().filter { $0.placeholderCount > 0 }
        var pending: [PendingPlaceholder] = []
        for album in albums where album.placeholderCount > 0 {
            let ids = try AlbumItemID.fetchAll(
                db, cachedSQL: "SELECT id FROM album_item WHERE album_id = ? AND photo_id IS NULL", arguments: [album.id])
            let copying = Set(
                try AlbumItemID.fetchAll(
                    db, cachedSQL: "SELECT c.item_id FROM pending_copy c JOIN album_item i ON i.id = c.item_id WHERE i.album_id = ?",
                    arguments: [album.id]))
            var inAlbum: [PendingPlaceholder] = []
            for id in ids {
                let item = try item(id)
                guard case .placeholder(var load) = item.content else { continue }
                load.keepsCopy = copying.contains(id)
                inAlbum.append(PendingPlaceholder(id: id, albumID: album.id, albumName: album.name, index: item.index, load: load))
            }
            pending += inAlbum.sorted { $0.index < $1.index }
        }
        return pending
    }
}
