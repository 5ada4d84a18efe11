import Foundation
import GRDB

extension ItemMarks {
    /// The columns of `album_item` that hold them, in the order ``init(row:)`` reads.
    static let columns = "title, caption, is_favorite, rating, keywords"

    /// The marks of a row that selected ``columns`` by name. A value the
    /// file should never hold (a rating of 7, keywords that are not a JSON
    /// array) reads as none: `albums check` reports the file.
    init(row: Row) {
        self.init(
            title: row["title"], caption: row["caption"], isFavorite: (row["is_favorite"] as Int?) == 1,
            rating: (row["rating"] as Int?).flatMap(ItemRating.init(value:)),
            keywords: (row["keywords"] as String?).flatMap(Self.keywords(fromJSON:)) ?? [])
    }

    /// The values of ``columns``, in order, as the file keeps them.
    var columnValues: StatementArguments {
        [title, caption, isFavorite ? 1 : 0, rating?.value, keywordsJSON]
    }

    /// The keywords as the file keeps them: a JSON array, nil when none.
    var keywordsJSON: String? { Self.keywordsJSON(of: keywords) }

    /// `keywords` as the file keeps them: a JSON array, nil when none.
    static func keywordsJSON(of keywords: [String]) -> String? {
        guard !keywords.isEmpty else { return nil }
        // An import writes one per photo: keywords with nothing JSON escapes
        // (nearly all) are quoted as they are, the same text JSONSerialization makes.
        if keywords.allSatisfy({ $0.utf8.allSatisfy { $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") } }) {
            return "[\"" + keywords.joined(separator: "\",\"") + "\"]"
        }
        guard let data = try? JSONSerialization.data(withJSONObject: keywords, options: .withoutEscapingSlashes) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// The keywords of the JSON array the file keeps; nil for any other text.
    package static func keywords(fromJSON text: String) -> [String]? {
        try? JSONDecoder().decode([String].self, from: Data(text.utf8))
    }
}

extension LibraryReader {
    /// What a copy of an item takes along: its name (nil: its photo's own)
    /// and its words and marks. Read without a rights check: the planner
    /// has resolved the item for the principal.
    package func carried(by item: AlbumItemID) throws -> (name: String?, marks: ItemMarks) {
        guard let row = try Row.fetchOne(db, cachedSQL: "SELECT file_name, \(ItemMarks.columns) FROM album_item WHERE id = ?", arguments: [item])
        else { return (nil, .none) }
        return (row["file_name"], ItemMarks(row: row))
    }

    /// What is written on an item: its title, caption, favourite mark, rating and keywords.
    ///
    /// - Throws: ``LibraryError/itemNotFound(_:)`` for an item that is not
    ///   there or in an album the principal cannot see.
    public func marks(of item: AlbumItemID) throws -> ItemMarks {
        guard let row = try Row.fetchOne(db, cachedSQL: "SELECT album_id, \(ItemMarks.columns) FROM album_item WHERE id = ?", arguments: [item])
        else { throw LibraryError.itemNotFound(.item(item)) }
        do {
            // An album the principal cannot see is not found: nor is its item.
            _ = try album(AlbumID(rawValue: row["album_id"]))
        } catch LibraryError.albumNotFound {
            throw LibraryError.itemNotFound(.item(item))
        }
        return ItemMarks(row: row)
    }

    /// The items of `album` that carry words or marks, with them; an item
    /// not named carries none. Read through an index of those items only,
    /// so an album of a million unmarked items costs nothing more.
    ///
    /// - Throws: ``LibraryError/albumNotFound(_:)``.
    public func markedItems(in album: AlbumID) throws -> [AlbumItemID: ItemMarks] {
        _ = try self.album(album)
        let rows = try Row.fetchCursor(
            db.cachedStatement(
                sql: """
                    SELECT id, \(ItemMarks.columns) FROM album_item INDEXED BY album_item_marked
                    WHERE album_id = ? AND (title IS NOT NULL OR caption IS NOT NULL OR is_favorite = 1 OR rating IS NOT NULL OR keywords IS NOT NULL)
                    """),
            arguments: [album])
        var marks: [AlbumItemID: ItemMarks] = [:]
        while let row = try rows.next() { marks[AlbumItemID(rawValue: row["id"])] = ItemMarks(row: row) }
        return marks
    }

    /// Checks writing `edit` on `items`: each album an editor's to change
    /// (a locked one too: a lock keeps items in order, not their words),
    /// no placeholder (it has nothing to write on yet), the edit's words
    /// within their rules. The change sets name, as updated, each item
    /// whose marks the edit changes.
    ///
    /// - Throws: ``LibraryError/invalidWords(field:reason:)``,
    ///   ``LibraryError/forbidden(reason:)``, ``LibraryError/placeholderNotAllowed(_:)``, ``LibraryError/duplicateItem(_:)``.
    package func checkMarking(of items: [PlacedItem], with edit: ItemMarksEdit) throws -> ItemChange {
        let edit = try edit.checked()
        var albums: [AlbumID: Album] = [:]
        var changes: [AlbumID: AlbumChangeSet] = [:]
        var seen = Set<AlbumItemID>()
        var marked: [(PlacedItem, ItemMarks)] = []
        for placed in items {
            let item = placed.item
            guard seen.insert(item.id).inserted else { throw LibraryError.duplicateItem(.item(item.id)) }
            if albums[item.albumID] == nil {
                let album = try album(item.albumID)
                try require(.editor, on: album)
                albums[album.id] = album
            }
            guard !item.isPlaceholder else { throw LibraryError.placeholderNotAllowed(.item(item.id)) }
            guard let row = try Row.fetchOne(db, cachedSQL: "SELECT \(ItemMarks.columns) FROM album_item WHERE id = ?", arguments: [item.id])
            else { throw LibraryError.itemNotFound(.item(item.id)) }
            let before = ItemMarks(row: row)
            let after = try edit.applied(to: before)
            guard after != before, let album = albums[item.albumID] else { continue }
            marked.append((placed, after))
            changes[album.id, default: Self.changeSet(for: album)].recordUpdate(at: item.index, of: item.id)
        }
        return checked(.mark(marked, edit: edit), albums: albums, foreseeing: Array(changes.values))
    }
}

extension LibraryWriter {
    /// Writes checked marks on items, each an update of its album's change set.
    func executeMarking(_ marked: [(PlacedItem, ItemMarks)], albums: [AlbumID: Album]) throws {
        for (placed, marks) in marked {
            let item = placed.item
            try writeMarks(marks, on: item.id)
            if let album = albums[item.albumID] { changes(of: album) { $0.recordUpdate(at: item.index, of: item.id) } }
        }
    }

    /// Writes `marks` on an item, whatever it carried.
    func writeMarks(_ marks: ItemMarks, on item: AlbumItemID) throws {
        var arguments = marks.columnValues
        arguments += [item]
        try db.execute(
            cachedSQL: "UPDATE album_item SET title = ?, caption = ?, is_favorite = ?, rating = ?, keywords = ? WHERE id = ?", arguments: arguments)
    }
}
