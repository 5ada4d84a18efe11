import GRDB

extension LibraryWriter {
    /// Fixes what can be fixed without losing anything, and says what it did:
    /// counters recounted from the rows (items, placeholders, videos), empty segments dropped, albums
    /// whose segments overflow or whose keys left their range laid out
    /// afresh in their current order; in the tree, a folder inside itself
    /// brought to the top level, and the children of a folder whose keys
    /// clash or left their range laid out afresh in their current order;
    /// of photos made apart whose bytes no other photo has, the first
    /// becomes the one imports of those bytes find.
    ///
    /// What it cannot fix safely (a damaged page, a dangling reference) it
    /// leaves for ``invariantViolations()`` to report.
    ///
    /// - Returns: One line per repair; empty when there was nothing to do.
    public func repairInvariants() throws -> [String] {
        var repairs: [String] = []
        describeChange("repair the library")
        // Layouts first: they move rows between segments, which the recounts below then see.
        let misfiled = try AlbumID.fetchAll(
            db,
            sql: """
                SELECT DISTINCT i.album_id FROM album_item i JOIN album_segment s ON s.id = i.segment_id WHERE s.album_id != i.album_id
                UNION SELECT album_id FROM album_segment WHERE item_count > ? OR order_key >= ?
                UNION SELECT album_id FROM album_item WHERE order_key >= ?
                """,
            arguments: [AlbumOrder.maximumSegmentItemCount, OrderKeySpace.segments.limit, OrderKeySpace.items.limit])
        for albumID in misfiled {
            let order = try AlbumItemID.fetchAll(
                db,
                sql: "SELECT i.id FROM album_item i JOIN album_segment s ON s.id = i.segment_id WHERE i.album_id = ? ORDER BY s.order_key, i.order_key",
                arguments: [albumID])
            try AlbumOrder(db: db, albumID: albumID).rearrange(order)
            noteRestructured(albumID)
            // No index changed, but views should reload what they show.
            changes(of: try album(albumID)) { _ in }
            repairs.append("album '\(try album(albumID).name)': order laid out afresh (\(order.count) items, order kept)")
        }
        repairs += try repairTree()
        // A photo made apart with no photo of its bytes left that is not: the first of them becomes that photo.
        let firstOfAlone = try Int64.fetchAll(db, sql: "SELECT min(id) FROM (\(Self.photosApartAlone)) GROUP BY sha256")
        for photo in firstOfAlone {
            try db.execute(sql: "UPDATE photo SET is_apart = 0 WHERE id = ?", arguments: [photo])
            repairs.append("photo id:\(photo): the photo its bytes' imports find (it was made apart from one that is not there)")
        }
        let segmentCounts = try Row.fetchAll(
            db,
            sql: "SELECT s.id, s.item_count, (SELECT count(*) FROM album_item i WHERE i.segment_id = s.id) AS items, s.album_id FROM album_segment s WHERE items != s.item_count")
        for row in segmentCounts {
            try db.execute(sql: "UPDATE album_segment SET item_count = ? WHERE id = ?", arguments: [row["items"] as Int, row["id"] as Int64])
            // Its revision rises, so that no process keeps using the counts it had.
            let albumID = AlbumID(rawValue: row["album_id"])
            noteRestructured(albumID)
            if let album = try? album(albumID) { changes(of: album) { _ in } }
            repairs.append("segment \(row["id"] as Int64): count \(row["item_count"] as Int) corrected to \(row["items"] as Int)")
        }
        let emptied = try Int64.fetchAll(db, sql: "SELECT id FROM album_segment WHERE item_count = 0")
        for segment in emptied {
            try db.execute(sql: "DELETE FROM album_segment WHERE id = ?", arguments: [segment])
        }
        if !emptied.isEmpty { repairs.append("dropped \(emptied.count) empty segment\(emptied.count == 1 ? "" : "s")") }

        let albumCounts = try Row.fetchAll(
            db,
            sql: """
                SELECT a.id, a.name, a.item_count, a.placeholder_count,
                    (SELECT count(*) FROM album_item i WHERE i.album_id = a.id) AS items,
                    (SELECT count(*) FROM album_item i WHERE i.album_id = a.id AND i.photo_id IS NULL) AS placeholders
                FROM album a WHERE items != a.item_count OR placeholders != a.placeholder_count
                """)
        for row in albumCounts {
            try db.execute(
                sql: "UPDATE album SET item_count = ?, placeholder_count = ? WHERE id = ?",
                arguments: [row["items"] as Int, row["placeholders"] as Int, row["id"] as Int64])
            changes(of: try album(AlbumID(rawValue: row["id"]))) { _ in }
            repairs.append("album '\(row["name"] as String)': counts \(row["item_count"] as Int)/\(row["placeholder_count"] as Int) corrected to \(row["items"] as Int)/\(row["placeholders"] as Int) (items/placeholders)")
        }

        for row in try Row.fetchAll(db, sql: Self.albumVideoCountsAmiss) {
            try db.execute(sql: "UPDATE album SET video_count = ? WHERE id = ?", arguments: [row["videos"] as Int, row["id"] as Int64])
            changes(of: try album(AlbumID(rawValue: row["id"]))) { _ in }
            repairs.append("album '\(row["name"] as String)': count of videos \(row["video_count"] as Int) corrected to \(row["videos"] as Int)")
        }

        // A cover the album does not hold shows its first photo instead.
        let strayCovers = try Row.fetchAll(
            db,
            sql: """
                SELECT a.id, a.name FROM album a WHERE a.cover_photo_id IS NOT NULL
                    AND NOT EXISTS (SELECT 1 FROM album_item i WHERE i.album_id = a.id AND i.photo_id = a.cover_photo_id)
                """)
        for row in strayCovers {
            try db.execute(sql: "UPDATE album SET cover_photo_id = NULL WHERE id = ?", arguments: [row["id"] as Int64])
            changes(of: try album(AlbumID(rawValue: row["id"]))) { $0.albumEvents.append(.coverChanged) }
            repairs.append("album '\(row["name"] as String)': its cover was a photo it does not hold; it shows its first photo again")
        }

        return repairs
    }

    /// The tree's repairs: cycles broken, then keys laid out afresh where they clash or left their range.
    private func repairTree() throws -> [String] {
        var repairs: [String] = []
        // A cycle is broken at its oldest folder, which goes last at the top level.
        while let row = try Row.fetchOne(
            db, sql: "SELECT id, name FROM folder WHERE id NOT IN (\(Self.foldersReachedFromTheTop)) ORDER BY id LIMIT 1")
        {
            let id = FolderID(rawValue: row[0])
            let key = try siblingKey(forIndex: try childCount(of: nil), in: nil, excluding: .folder(id))
            try db.execute(sql: "UPDATE folder SET parent_id = NULL, order_key = ? WHERE id = ?", arguments: [key, id])
            changes(ofFolder: try folder(id), .moved)
            repairs.append("folder '\(row[1] as String)' was inside itself: moved to the top level")
        }
        let limit = OrderKeySpace.segments.limit
        let parents = try Int64.fetchAll(
            db,
            sql: """
                SELECT coalesce(parent_id, 0) FROM album WHERE order_key >= ?1
                UNION SELECT coalesce(parent_id, 0) FROM folder WHERE order_key >= ?1
                UNION SELECT coalesce(a.parent_id, 0) FROM album a JOIN folder f
                    ON coalesce(f.parent_id, 0) = coalesce(a.parent_id, 0) AND f.order_key = a.order_key
                """,
            arguments: [limit])
        for parent in parents {
            let folder = parent == 0 ? nil : FolderID(rawValue: parent)
            let count = try layOutChildren(of: folder)
            noteRearranged(try folder.map { try self.folder($0) })
            let place = try folder.map { "folder '\(try path(of: $0))'" } ?? "the top level"
            repairs.append("\(place): order keys laid out afresh (\(count) albums and folders, order kept)")
        }
        return repairs
    }
}
