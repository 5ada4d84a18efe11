import GRDB

/// Undo and redo: the steps of an entry replayed backwards, newest first.
///
/// Each step puts one row back as it was (same id, keys, name, lock), so
/// replaying them all in reverse order puts the library back, exactly, as
/// it stood before the entry's change; rows a load has changed since keep
/// what the load did (a placeholder that became a photo stays the photo).
/// Counters are kept by counting what the replay does, and the change sets
/// come from where the touched items stand before and after.
struct HistoryReplay {
    let writer: LibraryWriter
    /// Turns the reason a step cannot be replayed exactly into the error to throw.
    let refusal: (String) -> LibraryError
    /// Whether changes came after the steps replayed (a person's own change
    /// replayed past someone else's): every item put back is then checked to
    /// stand in a segment of its album, which a later change may have
    /// dropped or merged, and one whose place another item took since (a
    /// photo moved to where it was) goes just before that item.
    var isOutOfOrder = false

    private var db: Database { writer.db }

    /// How many steps are read at a time: memory stays flat for a replay of millions.
    private static let chunkSize = 4096

    enum Action: Int {
        case itemInserted = 1, itemDeleted, itemMoved, segmentInserted, segmentDeleted, segmentRekeyed
        case albumInserted, albumDeleted, albumChanged
        case folderInserted, folderDeleted, folderChanged
    }

    /// Replays steps `first`…`last` backwards, recording the change sets of
    /// what it does in the writer's current operation.
    func replay(first: Int64, through last: Int64) throws {
        var touchedItems = Set<AlbumItemID>()
        var touchedAlbums = Set<AlbumID>()
        var touchedFolders = Set<FolderID>()
        try forEachStep(first, through: last) { action, row in
            switch action {
            case .itemInserted, .itemDeleted, .itemMoved:
                touchedItems.insert(AlbumItemID(rawValue: row["row_id"]))
                if let album: Int64 = row["album_id"] { touchedAlbums.insert(AlbumID(rawValue: album)) }
            case .albumInserted, .albumDeleted, .albumChanged:
                touchedAlbums.insert(AlbumID(rawValue: row["row_id"]))
            case .folderInserted, .folderDeleted, .folderChanged:
                touchedFolders.insert(FolderID(rawValue: row["row_id"]))
            case .segmentInserted, .segmentDeleted, .segmentRekeyed:
                break
            }
        }
        let treeBefore = try writer.tree()
        let albumsBefore = Self.albums(in: treeBefore)
        let foldersBefore = Self.folders(in: treeBefore)
        let before = try places(of: touchedItems)
        touchedAlbums.formUnion(before.values.map(\.album))

        // Rows come back in the order they left: an item may return before its album.
        try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
        var counts = Counts()
        var rewrites = ItemRewrites()
        try forEachStep(first, through: last, newestFirst: true) { action, row in
            do {
                try undo(action, row, counts: &counts, rewrites: &rewrites)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                throw refusal(Self.reason(for: error))
            }
        }
        try counts.apply(to: writer)
        if isOutOfOrder, try misplaced(steps: first, through: last) {
            throw refusal("a change made since rearranged the places it would put items back in")
        }
        if try orphansInTree() {
            throw refusal("a folder it would delete holds albums or folders that came in another way since")
        }

        let treeAfter = try writer.tree()
        let albumsAfter = Self.albums(in: treeAfter)
        let foldersAfter = Self.folders(in: treeAfter)
        let after = try places(of: touchedItems)
        touchedAlbums.formUnion(after.values.map(\.album))
        let itemsBefore = Self.byAlbum(before), itemsAfter = Self.byAlbum(after)
        for albumID in touchedAlbums.sorted() {
            try recordChanges(
                of: albumID, before: albumsBefore[albumID], after: albumsAfter[albumID],
                itemsBefore: itemsBefore[albumID] ?? [:], itemsAfter: itemsAfter[albumID] ?? [:], rewrites: rewrites)
        }
        recordFolderChanges(
            touchedFolders: touchedFolders, touchedAlbums: touchedAlbums, albums: (albumsBefore, albumsAfter),
            folders: (foldersBefore, foldersAfter))
    }

    private static func albums(in tree: [TreeEntry]) -> [AlbumID: Album] {
        var albums: [AlbumID: Album] = [:]
        for entry in tree { if case .album(let album) = entry.node { albums[album.id] = album } }
        return albums
    }

    private static func folders(in tree: [TreeEntry]) -> [FolderID: Folder] {
        var folders: [FolderID: Folder] = [:]
        for entry in tree { if case .folder(let folder) = entry.node { folders[folder.id] = folder } }
        return folders
    }

    /// The folders' changes: their own, and a rearrangement of each folder
    /// an album or folder left or entered, or moved inside.
    private func recordFolderChanges(
        touchedFolders: Set<FolderID>, touchedAlbums: Set<AlbumID>,
        albums: (before: [AlbumID: Album], after: [AlbumID: Album]), folders: (before: [FolderID: Folder], after: [FolderID: Folder])
    ) {
        var rearranged = Set<FolderID>()
        func placed(_ before: (parent: FolderID?, index: Int)?, _ after: (parent: FolderID?, index: Int)?) {
            guard before?.parent != after?.parent || before?.index != after?.index || (before == nil) != (after == nil) else { return }
            if let parent = before?.parent { rearranged.insert(parent) }
            if let parent = after?.parent { rearranged.insert(parent) }
        }
        for id in touchedAlbums {
            placed(albums.before[id].map { ($0.parentID, $0.index) }, albums.after[id].map { ($0.parentID, $0.index) })
        }
        for id in touchedFolders.sorted() {
            let before = folders.before[id], after = folders.after[id]
            placed(before.map { ($0.parentID, $0.index) }, after.map { ($0.parentID, $0.index) })
            switch (before, after) {
            case (nil, let after?):
                writer.changes(ofFolder: after, .created)
            case (let before?, nil):
                writer.changes(ofFolder: before, .deleted)
            case (let before?, let after?):
                if before.name != after.name {
                    writer.changes(ofFolder: before, .renamed)
                    writer.noteName(after.name, ofFolder: id)
                }
                if before.parentID != after.parentID || before.index != after.index { writer.changes(ofFolder: before, .moved) }
                if before.isLocked != after.isLocked { writer.changes(ofFolder: before, after.isLocked ? .locked : .unlocked) }
            case (nil, nil):
                break
            }
        }
        for id in rearranged.sorted() {
            if let folder = folders.after[id] ?? folders.before[id] { writer.changes(ofFolder: folder, .rearranged) }
        }
    }

    // MARK: - Steps

    private func forEachStep(_ first: Int64, through last: Int64, newestFirst: Bool = false, _ body: (Action, Row) throws -> Void) throws {
        var low = first
        var high = last
        while low <= high {
            let rows = try Row.fetchAll(
                db,
                cachedSQL: newestFirst
                    ? "SELECT * FROM history_step WHERE id BETWEEN ? AND ? ORDER BY id DESC LIMIT ?"
                    : "SELECT * FROM history_step WHERE id BETWEEN ? AND ? ORDER BY id ASC LIMIT ?",
                arguments: [low, high, Self.chunkSize])
            guard let edge = rows.last else { return }
            for row in rows {
                guard let action = Action(rawValue: row["action"]) else {
                    throw LibraryError.corrupt(path: writer.path, detail: "history step \(row["id"] as Int64) has an unknown action")
                }
                try body(action, row)
            }
            if newestFirst { high = (edge["id"] as Int64) - 1 } else { low = (edge["id"] as Int64) + 1 }
        }
    }

    /// Puts back the row one step changed.
    private func undo(_ action: Action, _ step: Row, counts: inout Counts, rewrites: inout ItemRewrites) throws {
        let id: Int64 = step["row_id"]
        switch action {
        case .itemInserted:
            guard let row = try Row.fetchOne(
                db,
                cachedSQL: """
                    SELECT album_id, segment_id, photo_id, load_source, load_owner_host, load_owner_process_id,
                        load_owner_started_at
                    FROM album_item WHERE id = ?
                    """,
                arguments: [id])
            else { return }  // a load failed or was cancelled: already gone
            let isPlaceholder = (row["photo_id"] as Int64?) == nil
            if isPlaceholder {
                let owner = LoadOwner(host: row["load_owner_host"], processID: row["load_owner_process_id"], processStartedAt: row["load_owner_started_at"])
                if !owner.isGone {
                    throw refusal("it began loading \(row["load_source"] as String), which is still loading: it can be undone once the load commits or is cancelled")
                }
            }
            try db.execute(cachedSQL: "DELETE FROM album_item WHERE id = ?", arguments: [id])
            counts.add(-1, item: isPlaceholder, segment: row["segment_id"], album: AlbumID(rawValue: row["album_id"]))
        case .itemDeleted:
            let isPlaceholder = (step["photo_id"] as Int64?) == nil
            let owner = isPlaceholder ? LoadOwner.stopped : nil
            let key = try freeKey(step["order_key"], in: step["segment_id"], for: id)
            try db.execute(
                cachedSQL: """
                    INSERT INTO album_item (id, album_id, segment_id, order_key, photo_id, load_source, load_owner_host,
                        load_owner_process_id, load_owner_started_at, added_at, file_name,
                        title, caption, is_favorite, rating, keywords)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, COALESCE(?, 0), ?, ?)
                    """,
                arguments: [
                    id, step["album_id"], step["segment_id"], key, step["photo_id"], step["load_source"],
                    owner?.host, owner?.processID, owner?.processStartedAt, step["created_at"], step["name"],
                    step["title"], step["caption"], step["is_favorite"], step["rating"], step["keywords"],
                ])
            counts.add(1, item: isPlaceholder, segment: step["segment_id"], album: AlbumID(rawValue: step["album_id"]))
        case .itemMoved:
            // A step of an item moved, or marked (its marks before: a move's
            // step, and any from before items had marks, holds none).
            guard let row = try Row.fetchOne(
                db,
                cachedSQL: "SELECT album_id, segment_id, photo_id IS NULL, order_key, \(ItemMarks.columns) FROM album_item WHERE id = ?",
                arguments: [id])
            else { return }
            let item = AlbumItemID(rawValue: id)
            if (step["is_favorite"] as Int64?) != nil {
                try db.execute(
                    cachedSQL: "UPDATE album_item SET title = ?, caption = ?, is_favorite = ?, rating = ?, keywords = ? WHERE id = ?",
                    arguments: [step["title"], step["caption"], step["is_favorite"], step["rating"], step["keywords"], id])
                if ItemMarks(row: row) != ItemMarks(row: step) { rewrites.remarked.insert(item) }
            }
            let key = try freeKey(step["order_key"], in: step["segment_id"], for: id)
            try db.execute(
                cachedSQL: "UPDATE album_item SET album_id = ?, segment_id = ?, order_key = ? WHERE id = ?",
                arguments: [step["album_id"], step["segment_id"], key, id])
            if (row[0] as Int64) != step["album_id"] || (row[1] as Int64) != step["segment_id"] || (row[3] as Int64) != key {
                rewrites.moved.insert(item)
            }
            let isPlaceholder: Bool = row[2]
            counts.add(-1, item: isPlaceholder, segment: row[1], album: AlbumID(rawValue: row[0]))
            counts.add(1, item: isPlaceholder, segment: step["segment_id"], album: AlbumID(rawValue: step["album_id"]))
        case .segmentInserted:
            // Items that came in another way since (a later change replayed past).
            if try Bool.fetchOne(db, cachedSQL: "SELECT 1 FROM album_item WHERE segment_id = ? LIMIT 1", arguments: [id]) == true {
                throw refusal("a place it made in the album holds items that came in another way since")
            }
            try db.execute(cachedSQL: "DELETE FROM album_segment WHERE id = ?", arguments: [id])
        case .segmentDeleted:
            try db.execute(
                cachedSQL: "INSERT INTO album_segment (id, album_id, order_key, item_count) VALUES (?, ?, ?, 0)",
                arguments: [id, step["album_id"], step["order_key"]])
        case .segmentRekeyed:
            try db.execute(cachedSQL: "UPDATE album_segment SET order_key = ? WHERE id = ?", arguments: [step["order_key"], id])
        case .albumInserted:
            if try Bool.fetchOne(db, cachedSQL: "SELECT 1 FROM album_item WHERE album_id = ? LIMIT 1", arguments: [id]) == true {
                throw refusal("the album it created holds items that came in another way since")
            }
            try db.execute(cachedSQL: "DELETE FROM album WHERE id = ?", arguments: [id])
        case .albumDeleted:
            try db.execute(
                cachedSQL: """
                    INSERT INTO album (id, name, parent_id, order_key, is_locked, revision, item_count, placeholder_count, created_at,
                        cover_photo_id, search, description)
                    VALUES (?, ?, ?, ?, ?, ?, 0, 0, ?, ?, ?, ?)
                    """,
                arguments: [
                    id, step["name"], step["parent_id"], step["order_key"], step["is_locked"], step["revision"], step["created_at"],
                    step["cover_photo_id"], step["search"], step["description"],
                ])
        case .albumChanged:
            try db.execute(
                cachedSQL: """
                    UPDATE album SET name = ?, parent_id = ?, order_key = ?, is_locked = ?, cover_photo_id = ?, search = ?, description = ?
                    WHERE id = ?
                    """,
                arguments: [
                    step["name"], step["parent_id"], step["order_key"], step["is_locked"], step["cover_photo_id"], step["search"],
                    step["description"], id,
                ])
        case .folderInserted:
            // What it holds may leave it in an older step still to come: the
            // tree is checked whole once every step is back (orphans()).
            try db.execute(cachedSQL: "DELETE FROM folder WHERE id = ?", arguments: [id])
        case .folderDeleted:
            try db.execute(
                cachedSQL: """
                    INSERT INTO folder (id, name, parent_id, order_key, is_locked, revision, created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [id, step["name"], step["parent_id"], step["order_key"], step["is_locked"], step["revision"], step["created_at"]])
        case .folderChanged:
            try db.execute(
                cachedSQL: "UPDATE folder SET name = ?, parent_id = ?, order_key = ?, is_locked = ? WHERE id = ?",
                arguments: [step["name"], step["parent_id"], step["order_key"], step["is_locked"], id])
        }
    }

    /// The key item `id` goes back to in `segment`: `key`, unless, replayed
    /// out of order, another item took that place since; then a key just
    /// before that item (the constraint refuses the replay if none is left).
    private func freeKey(_ key: Int64, in segment: Int64, for id: Int64) throws -> Int64 {
        guard isOutOfOrder,
            try Bool.fetchOne(
                db, cachedSQL: "SELECT 1 FROM album_item WHERE segment_id = ? AND order_key = ? AND id != ?", arguments: [segment, key, id]) == true
        else { return key }
        let before = try Int64.fetchOne(
            db, cachedSQL: "SELECT max(order_key) FROM album_item WHERE segment_id = ? AND order_key < ? AND id != ?", arguments: [segment, key, id])
        return OrderKeySpace.items.keys(count: 1, after: before, before: key)?.first ?? key
    }

    /// Whether an item steps `first`…`last` name that still exists stands
    /// outside a segment of its own album (its segment gone, or another
    /// album's). One query whatever their number.
    private func misplaced(steps first: Int64, through last: Int64) throws -> Bool {
        try Bool.fetchOne(
            db,
            sql: """
                SELECT EXISTS (SELECT 1 FROM album_item i
                    WHERE i.id IN (SELECT row_id FROM history_step WHERE id BETWEEN ? AND ? AND action IN (1, 2, 3))
                    AND NOT EXISTS (SELECT 1 FROM album_segment s WHERE s.id = i.segment_id AND s.album_id = i.album_id))
                """,
            arguments: [first, last]) ?? false
    }

    /// Whether an album or a folder names a parent that is gone. Foreign
    /// keys are deferred during a replay, so this is asked before commit.
    private func orphansInTree() throws -> Bool {
        try Bool.fetchOne(
            db,
            cachedSQL: """
                SELECT EXISTS (SELECT 1 FROM album a WHERE a.parent_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM folder f WHERE f.id = a.parent_id))
                    OR EXISTS (SELECT 1 FROM folder c WHERE c.parent_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM folder f WHERE f.id = c.parent_id))
                """) ?? false
    }

    /// What a person should read for a constraint a step would break.
    private static func reason(for error: DatabaseError) -> String {
        switch error.extendedResultCode {
        case .SQLITE_CONSTRAINT_UNIQUE, .SQLITE_CONSTRAINT_PRIMARYKEY:
            "a photo, a name or a place it would restore is taken by a change made since (\(error.message ?? "unique constraint"))"
        default:
            "the library refuses the restored rows (\(error.message ?? "constraint"))"
        }
    }

    /// Item and placeholder counts of segments and albums, kept by counting
    /// what the replay does and written once at the end, when every row is back.
    private struct Counts {
        var segments: [Int64: Int] = [:]
        var albums: [AlbumID: (items: Int, placeholders: Int)] = [:]

        mutating func add(_ delta: Int, item isPlaceholder: Bool, segment: Int64, album: AlbumID) {
            segments[segment, default: 0] += delta
            let current = albums[album] ?? (0, 0)
            albums[album] = (current.items + delta, current.placeholders + (isPlaceholder ? delta : 0))
        }

        func apply(to writer: LibraryWriter) throws {
            for (segment, delta) in segments where delta != 0 {
                try writer.db.execute(cachedSQL: "UPDATE album_segment SET item_count = item_count + ? WHERE id = ?", arguments: [delta, segment])
            }
            // The albums' rows are written on commit, with their revisions.
            for (album, delta) in albums where delta != (0, 0) {
                writer.adjustCounts(of: album, items: delta.items, placeholders: delta.placeholders)
            }
        }
    }

    // MARK: - Change sets

    /// Items a replay put back in place or in what they carry: an item
    /// only remarked, in the same slot, is an update, not a move.
    private struct ItemRewrites {
        var moved = Set<AlbumItemID>()
        var remarked = Set<AlbumItemID>()
    }

    private struct Place {
        let album: AlbumID
        let index: Int
    }

    /// The places split by album.
    private static func byAlbum(_ places: [AlbumItemID: Place]) -> [AlbumID: [AlbumItemID: Place]] {
        var split: [AlbumID: [AlbumItemID: Place]] = [:]
        for (item, place) in places { split[place.album, default: [:]][item] = place }
        return split
    }

    /// Where each of `items` that exists stands: its album and index.
    private func places(of items: Set<AlbumItemID>) throws -> [AlbumItemID: Place] {
        var byAlbum: [AlbumID: [(AlbumItemID, ItemPlacement)]] = [:]
        for item in items {
            guard let placement = try AlbumOrder.placement(of: item, in: db) else { continue }
            byAlbum[placement.albumID, default: []].append((item, placement))
        }
        var places: [AlbumItemID: Place] = [:]
        for (albumID, placed) in byAlbum {
            let album = try writer.album(albumID)
            // Many items of a big album: one pass over its order beats a count per item.
            if placed.count * 16 > album.itemCount {
                let wanted = Set(placed.map(\.0))
                var index = 0
                try writer.forEachItem(in: albumID) { item in
                    if wanted.contains(item.id) { places[item.id] = Place(album: albumID, index: index) }
                    index += 1
                    return true
                }
            } else {
                let order = AlbumOrder(db: db, albumID: albumID)
                let map = try writer.segmentMap(for: album)
                // Items sharing a segment (a run moved together): one pass over the segment.
                for (segment, inSegment) in Dictionary(grouping: placed, by: { $0.1.segmentID }) {
                    guard inSegment.count > 1, let first = map.itemsBefore(segmentKey: inSegment[0].1.segmentKey) else {
                        for (item, placement) in inSegment {
                            places[item] = Place(album: albumID, index: try order.index(of: placement, map: map))
                        }
                        continue
                    }
                    let wanted = Set(inSegment.map(\.0))
                    let ids = try AlbumItemID.fetchAll(
                        db, cachedSQL: "SELECT id FROM album_item WHERE segment_id = ? ORDER BY order_key", arguments: [segment])
                    for (offset, id) in ids.enumerated() where wanted.contains(id) {
                        places[id] = Place(album: albumID, index: first + offset)
                    }
                }
            }
        }
        return places
    }

    private func recordChanges(
        of albumID: AlbumID, before: Album?, after: Album?, itemsBefore: [AlbumItemID: Place], itemsAfter: [AlbumItemID: Place],
        rewrites: ItemRewrites
    ) throws {
        guard let subject = after ?? before else { return }
        writer.noteRestructured(albumID)
        // Every item of the album was touched (a sort undone): the ones whose
        // index stays need no move, the others fill the same slots.
        let everyItemTouched = itemsAfter.count == after?.itemCount && itemsBefore.count == before?.itemCount
        writer.changes(of: subject) { changes in
            switch (before, after) {
            case (nil, _?):
                changes.albumEvents.append(.created)
            case (_?, nil):
                changes.albumEvents.append(.deleted)
            case (let before?, let after?):
                if before.name != after.name {
                    changes.albumName = after.name
                    changes.albumEvents.append(.renamed)
                }
                if before.index != after.index || before.parentID != after.parentID { changes.albumEvents.append(.moved) }
                if before.isLocked != after.isLocked { changes.albumEvents.append(after.isLocked ? .locked : .unlocked) }
                if before.chosenCoverID != after.chosenCoverID { changes.albumEvents.append(.coverChanged) }
                if before.isSmart != after.isSmart { changes.albumEvents.append(.frozen) }
                if before.description != after.description { changes.albumEvents.append(.described) }
            case (nil, nil):
                break
            }
            for (item, place) in itemsBefore.sorted(by: { $0.value.index < $1.value.index }) where itemsAfter[item] == nil {
                changes.recordRemoval(at: place.index, of: item)
            }
            for (item, place) in itemsAfter.sorted(by: { $0.value.index < $1.value.index }) {
                guard let old = itemsBefore[item] else {
                    changes.recordInsertion(at: place.index, of: item)
                    continue
                }
                let remarked = rewrites.remarked.contains(item)
                if remarked { changes.recordUpdate(at: place.index, of: item) }
                let onlyRemarked = remarked && !rewrites.moved.contains(item) && old.index == place.index
                if !(everyItemTouched && old.index == place.index) && !onlyRemarked {
                    changes.recordMove(from: old.index, to: place.index, of: item)
                }
            }
        }
    }
}
