import GRDB

// The one door for changes to items. A change is checked here against
// every rule of ItemRules.swift, with the change sets it will produce
// foreseen (what a proposal answers), and written only from such a check:
// the executions below it are this module's own, so no other module can
// write items on its word alone.

/// A change to items checked against every rule, and what it will do: made
/// only by ``LibraryReader``'s checks below, written only by the writer that
/// checked it, before anything else is written (``LibraryWriter/apply(_:)``).
package struct ItemChange {
    enum Work {
        /// Items (move) or photos (copy) to stand from `index` of `destination`;
        /// a copy's photos go by `names` and carry `marks`.
        case transfer(
            items: [PlacedItem], photos: [PhotoID], names: [PhotoID: String], marks: [PhotoID: ItemMarks], copying: Bool, destination: Album,
            index: Int)
        case swap(PlacedItem, PlacedItem)
        case remove([PlacedItem])
        /// An album's items put in `order`, from where they stand (`current`), named by `words`.
        case rearrange(Album, current: [AlbumItem], order: [AlbumItemID], words: String)
        /// Items given new marks: each with what it will carry; `edit` names it.
        case mark([(PlacedItem, ItemMarks)], edit: ItemMarksEdit)
    }

    let work: Work
    /// Every album the change touches, by id.
    let albums: [AlbumID: Album]
    /// The change sets the change produces, foreseen from the check; none for a change that changes nothing.
    package let foreseenChanges: [AlbumChangeSet]
    /// Which reader checked it, and how many rows its connection had changed then.
    let checkedBy: ObjectIdentifier
    let checkedAtChange: Int

    /// Whether the change leaves every item where it is.
    package var isNoOp: Bool { foreseenChanges.isEmpty }
    /// Whether it copies photos rather than moving, swapping or removing items.
    package var isCopy: Bool {
        if case .transfer(_, _, _, _, true, _, _) = work { return true }
        return false
    }

    /// What the history calls it: "move 3 items to 'Book' at position 2".
    package var words: String {
        switch work {
        case .transfer(let items, let photos, _, _, let copying, let destination, let index):
            return "\(copying ? "copy" : "move") \(LibraryError.counted(copying ? photos.count : items.count, "item")) "
                + "to \(LibraryError.quoted(destination.name)) at position \(index + 1)"
        case .swap:
            return "swap 2 items in \(LibraryWriter.names(of: albums.values))"
        case .remove(let items):
            return "remove \(LibraryError.counted(items.count, "item")) from \(LibraryWriter.names(of: albums.values))"
        case .rearrange(_, _, _, let words):
            return words
        case .mark(let marked, let edit):
            return "mark \(LibraryError.counted(marked.count, "item")) in \(LibraryWriter.names(of: albums.values)): \(edit.fieldNames.joined(separator: ", "))"
        }
    }
}

extension LibraryReader {
    /// Checks putting `items` (a move) or `photos` (a copy, each under its
    /// name in `names`) to stand from `index` of `destination`, counted
    /// without the moving items: the destination is changeable, then each
    /// source album in the items' order (a move), no photo stands twice in
    /// the destination, and the index is one where items land.
    ///
    /// - Throws: ``LibraryError`` naming the first rule broken.
    package func checkTransfer(
        of items: [PlacedItem], photos: [PhotoID], names: [PhotoID: String] = [:], marks: [PhotoID: ItemMarks] = [:], copying: Bool,
        to destination: Album, at index: Int
    ) throws -> ItemChange {
        var albums: [AlbumID: Album] = [destination.id: destination]
        try requireChangeable(destination)
        if !copying {
            var checked: Set<AlbumID> = [destination.id]
            for placed in items where checked.insert(placed.item.albumID).inserted {
                let source = try album(placed.item.albumID)
                albums[source.id] = source
                try requireChangeable(source)
            }
        }
        var arriving = Set<PhotoID>()
        if copying {
            for photo in photos { try requireRoom(for: photo, in: destination, arriving: &arriving) }
        } else {
            for placed in items where placed.item.albumID != destination.id {
                if let photo = placed.item.photoID { try requireRoom(for: photo, in: destination, arriving: &arriving) }
            }
        }
        let staying = destination.itemCount - (copying ? 0 : items.filter { $0.item.albumID == destination.id }.count)
        try requireLandingIndex(index, in: destination, staying: staying)

        var destinationChanges = Self.changeSet(for: destination)
        var otherChanges: [AlbumID: AlbumChangeSet] = [:]
        if copying {
            // The new items' ids exist only once written: a proposal names none.
            for offset in photos.indices { destinationChanges.recordInsertion(at: index + offset, of: AlbumItemID(rawValue: 0)) }
        } else {
            for (offset, placed) in items.enumerated() {
                let item = placed.item
                if item.albumID == destination.id {
                    destinationChanges.recordMove(from: item.index, to: index + offset, of: item.id)
                } else {
                    destinationChanges.recordInsertion(at: index + offset, of: item.id)
                    otherChanges[item.albumID, default: Self.changeSet(for: albums[item.albumID] ?? destination)].recordRemoval(at: item.index, of: item.id)
                }
            }
        }
        let unchanged = destinationChanges.inserted.isEmpty && otherChanges.isEmpty && destinationChanges.moved.allSatisfy { $0.from == $0.to }
        return checked(
            .transfer(items: items, photos: photos, names: names, marks: marks, copying: copying, destination: destination, index: index),
            albums: albums,
            foreseeing: unchanged ? [] : [destinationChanges] + otherChanges.values)
    }

    /// Checks exchanging the places of two items: both albums changeable,
    /// and across albums, neither photo already in the other's album.
    ///
    /// - Throws: ``LibraryError`` naming the first rule broken.
    package func checkSwap(_ first: PlacedItem, _ second: PlacedItem) throws -> ItemChange {
        let (a, b) = (first.item, second.item)
        let albumA = try album(a.albumID)
        let albumB = a.albumID == b.albumID ? albumA : try album(b.albumID)
        try requireChangeable(albumA)
        try requireChangeable(albumB)
        var changes: [AlbumChangeSet]
        if a.albumID == b.albumID {
            var change = Self.changeSet(for: albumA)
            change.recordMove(from: a.index, to: b.index, of: a.id)
            change.recordMove(from: b.index, to: a.index, of: b.id)
            changes = [change]
        } else {
            for (item, other) in [(a, albumB), (b, albumA)] {
                var arriving = Set<PhotoID>()
                if let photo = item.photoID { try requireRoom(for: photo, in: other, arriving: &arriving) }
            }
            var changeA = Self.changeSet(for: albumA)
            changeA.recordRemoval(at: a.index, of: a.id)
            changeA.recordInsertion(at: a.index, of: b.id)
            var changeB = Self.changeSet(for: albumB)
            changeB.recordRemoval(at: b.index, of: b.id)
            changeB.recordInsertion(at: b.index, of: a.id)
            changes = [changeA, changeB]
        }
        return checked(.swap(first, second), albums: Dictionary([albumA, albumB].map { ($0.id, $0) }) { one, _ in one }, foreseeing: changes)
    }

    /// Checks taking items out of their albums: each album changeable, in the items' order.
    ///
    /// - Throws: ``LibraryError`` naming the first rule broken.
    package func checkRemoval(of items: [PlacedItem]) throws -> ItemChange {
        var albums: [AlbumID: Album] = [:]
        var changes: [AlbumID: AlbumChangeSet] = [:]
        for placed in items {
            let item = placed.item
            if albums[item.albumID] == nil {
                let album = try album(item.albumID)
                try requireChangeable(album)
                albums[album.id] = album
                changes[album.id] = Self.changeSet(for: album)
            }
            changes[item.albumID]?.recordRemoval(at: item.index, of: item.id)
        }
        return checked(.remove(items), albums: albums, foreseeing: Array(changes.values))
    }

    /// Checks putting an album's items in `order`, which names each of
    /// them once: the album changeable, no item unknown, repeated or left
    /// out. `words` name it in the history ("sort 'Trip' by name").
    ///
    /// - Throws: ``LibraryError/forbidden(reason:)``, ``LibraryError/albumLocked(name:)``,
    ///   ``LibraryError/duplicateItem(_:)``, ``LibraryError/itemNotFound(_:)``.
    package func checkRearrangement(of album: Album, order: [AlbumItemID], words: String) throws -> ItemChange {
        try requireChangeable(album)
        let current = try items(in: album.id)
        var seen = Set<AlbumItemID>()
        for id in order where !seen.insert(id).inserted { throw LibraryError.duplicateItem(.item(id)) }
        var oldIndexes: [AlbumItemID: Int] = [:]
        for item in current { oldIndexes[item.id] = item.index }
        if let stranger = order.first(where: { oldIndexes[$0] == nil }) { throw LibraryError.itemNotFound(.item(stranger)) }
        if let missing = current.first(where: { !seen.contains($0.id) }) { throw LibraryError.itemNotFound(.item(missing.id)) }
        var changes = Self.changeSet(for: album)
        for (newIndex, id) in order.enumerated() {
            if let oldIndex = oldIndexes[id], oldIndex != newIndex { changes.recordMove(from: oldIndex, to: newIndex, of: id) }
        }
        return checked(
            .rearrange(album, current: current, order: order, words: words), albums: [album.id: album],
            foreseeing: changes.moved.isEmpty ? [] : [changes])
    }

    func checked(_ work: ItemChange.Work, albums: [AlbumID: Album], foreseeing changes: [AlbumChangeSet]) -> ItemChange {
        ItemChange(
            work: work, albums: albums, foreseenChanges: changes.sorted { $0.albumID < $1.albumID },
            checkedBy: ObjectIdentifier(self), checkedAtChange: db.totalChangesCount)
    }

    /// An album's change set as this transaction will leave it: its revision
    /// rises once, on commit.
    static func changeSet(for album: Album) -> AlbumChangeSet {
        AlbumChangeSet(albumID: album.id, albumName: album.name, revision: album.revision + 1)
    }
}

extension LibraryWriter {
    /// Writes a change this writer checked, before anything else was
    /// written, as one operation of the history, in its words.
    ///
    /// - Returns: The change sets recorded as it wrote; none for a change that changes nothing.
    /// - Throws: ``LibraryError/constraintViolated(detail:)`` for a change
    ///   checked by another reader or before another write (a programming
    ///   error: nothing is written), or a failing file.
    @discardableResult
    package func apply(_ change: ItemChange) throws -> [AlbumChangeSet] {
        guard change.checkedBy == ObjectIdentifier(self), change.checkedAtChange == db.totalChangesCount else {
            throw LibraryError.constraintViolated(detail: "an item change is written only by the transaction that checked it, before any other write")
        }
        if change.isNoOp { return [] }
        return try recordingOperation(described: change.words) {
            switch change.work {
            case .transfer(let items, let photos, let names, let marks, let copying, let destination, let index):
                if copying {
                    _ = try executeInsertion(of: photos, named: names, marked: marks, into: destination, at: index)
                } else {
                    try executeMove(of: items, to: destination, at: index, albums: change.albums)
                }
            case .swap(let first, let second):
                try executeSwap(first, second, albums: change.albums)
            case .remove(let items):
                try executeRemoval(of: items, albums: change.albums)
            case .rearrange(let album, let current, let order, _):
                try executeRearrangement(of: album, from: current, to: order)
            case .mark(let marked, _):
                try executeMarking(marked, albums: change.albums)
            }
        }.1
    }
}
