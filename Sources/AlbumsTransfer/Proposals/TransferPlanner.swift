import AlbumsPersistence

/// An operation resolved against the library as it is now, checked
/// against every rule: what the writer executes without looking again.
struct TransferPlan {
    enum Work {
        /// Items (move) or photos (copy) to stand from `index` of `destination`;
        /// a copy's photos keep the names they go by where they come from.
        case transfer(items: [PlacedItem], photos: [PhotoID], names: [PhotoID: String], destination: Album, index: Int)
        case swap(PlacedItem, PlacedItem)
        case remove([PlacedItem])
    }

    let outcome: TransferResult.Outcome
    let work: Work
    /// Every album the operation touches, by id.
    let albums: [AlbumID: Album]
    /// The change sets the work produces, foreseen from the plan (a proposal's answer).
    let foreseenChanges: [AlbumChangeSet]
}

/// Resolves operations with reads only, so a proposal costs a read
/// transaction: a few index lookups, each in the number of segments plus
/// one segment's size. Every refusal is a ``LibraryError`` thrown here.
struct TransferPlanner {
    let reader: LibraryReader
    /// Albums read while planning, so that each is read once per plan.
    private let lookup = AlbumLookup()

    init(reader: LibraryReader) {
        self.reader = reader
    }

    /// The albums one plan has read, by reference and by id.
    private final class AlbumLookup {
        var byReference: [AlbumReference: Album] = [:]
    }

    private func album(_ reference: AlbumReference) throws -> Album {
        if let album = lookup.byReference[reference] { return album }
        let album = try reader.album(reference)
        lookup.byReference[reference] = album
        lookup.byReference[.id(album.id)] = album
        return album
    }

    /// The resolved plan of `operation`.
    ///
    /// - Throws: ``LibraryError`` naming why the operation is refused.
    func plan(_ operation: TransferOperation) throws -> TransferPlan {
        try reader.requireRevisions(operation.expectedRevisions)
        let count = operation.sources.count
        if count == 0 || (operation.action == .swap && count != 2) {
            throw LibraryError.wrongItemCount(operation: operation.action.rawValue, count: count)
        }
        switch operation.action {
        case .move, .copy:
            guard let destination = operation.destination else {
                throw LibraryError.wrongItemCount(operation: operation.action.rawValue, count: 0)
            }
            return try planTransfer(operation, to: destination)
        case .swap:
            return try planSwap(operation)
        case .remove:
            return try planRemoval(operation)
        }
    }

    // MARK: - References

    /// The item a reference names, with its index and place.
    func resolve(_ reference: ItemReference) throws -> PlacedItem {
        switch reference {
        case .item(let id):
            let placed = try reader.placedItem(id)
            do {
                _ = try album(.id(placed.item.albumID))
            } catch LibraryError.albumNotFound {
                throw LibraryError.itemNotFound(reference)
            }
            return placed
        case .position(let index, let albumReference):
            let album = try album(albumReference)
            // A smart album holds no items to name by position: its photos are named by id:P.
            if album.isSmart { throw LibraryError.smartAlbum(name: album.name) }
            return try reader.placedItem(at: index, in: album)
        case .photo(let photo, let albumReference?):
            let album = try album(albumReference)
            guard let placed = try reader.placedItem(holding: photo, in: album.id) else {
                throw LibraryError.itemNotFound(reference)
            }
            return placed
        case .photo(let photo, nil):
            let holders = try reader.albums(holding: try existingPhoto(photo, reference: reference))
            guard let only = holders.first else { throw LibraryError.itemNotFound(reference) }
            guard holders.count == 1 else { throw LibraryError.ambiguousPhoto(photo, albums: holders.map(\.name)) }
            guard let placed = try reader.placedItem(holding: photo, in: only.id) else { throw LibraryError.itemNotFound(reference) }
            return placed
        }
    }

    private func existingPhoto(_ photo: PhotoID, reference: ItemReference) throws -> PhotoID {
        do {
            guard try reader.canSee(photo) else { throw LibraryError.itemNotFound(reference) }
            return try reader.photo(photo).id
        } catch LibraryError.photoNotFound {
            throw LibraryError.itemNotFound(reference)
        }
    }

    /// The items the sources name, distinct; placeholders only where allowed.
    private func resolveItems(_ operation: TransferOperation) throws -> [PlacedItem] {
        var seen = Set<AlbumItemID>()
        return try operation.sources.map { reference in
            let placed = try resolve(reference)
            guard seen.insert(placed.item.id).inserted else { throw LibraryError.duplicateItem(reference) }
            if placed.item.isPlaceholder && operation.action != .remove {
                throw LibraryError.placeholderNotAllowed(reference)
            }
            return placed
        }
    }

    /// The albums an operation involves, by id.
    private struct AlbumSet {
        var byID: [AlbumID: Album] = [:]

        mutating func album(_ id: AlbumID, in planner: TransferPlanner) throws -> Album {
            if let album = byID[id] { return album }
            let album = try planner.album(.id(id))
            byID[id] = album
            return album
        }
    }

    private func changeSet(for album: Album) -> AlbumChangeSet {
        // The transaction raises each changed album's revision once, on commit.
        AlbumChangeSet(albumID: album.id, albumName: album.name, revision: album.revision + 1)
    }

    // MARK: - Move and copy

    private func planTransfer(_ operation: TransferOperation, to destination: Destination) throws -> TransferPlan {
        let action = operation.action
        var albums = AlbumSet()
        // A copy may take a photo of the library itself, in no album or several.
        var items: [PlacedItem] = []
        var photos: [PhotoID] = []
        var seenItems = Set<AlbumItemID>()
        var seenPhotos = Set<PhotoID>()
        var names: [PhotoID: String] = [:]
        var smartAlbumPhotos: [AlbumID: [PhotoID]] = [:]
        for reference in operation.sources {
            if action == .copy, let photo = try photoShown(by: reference, among: operation.sources, found: &smartAlbumPhotos) {
                photos.append(photo)
                names[photo] = try reader.nameAsSeen(of: photo)
            } else if action == .copy, case .photo(let photo, nil) = reference {
                photos.append(try existingPhoto(photo, reference: reference))
                names[photo] = try reader.nameAsSeen(of: photo)
            } else {
                let placed = try resolve(reference)
                guard seenItems.insert(placed.item.id).inserted else { throw LibraryError.duplicateItem(reference) }
                guard let photo = placed.item.photoID else { throw LibraryError.placeholderNotAllowed(reference) }
                items.append(placed)
                photos.append(photo)
                if action == .copy { names[photo] = try reader.fileName(of: placed.item.id) }
            }
            if action == .copy, !seenPhotos.insert(photos.last!).inserted { throw LibraryError.duplicateItem(reference) }
        }
        let moving = action == .move ? items : []
        let (album, index) = try resolveDestination(destination, moving: moving)
        albums.byID[album.id] = album
        try reader.requireChangeable(album)
        if action == .move {
            // In source order, so the reason given is the same every time.
            for placed in items { try reader.requireChangeable(try albums.album(placed.item.albumID, in: self)) }
        }
        var arriving = Set<PhotoID>()
        if action == .copy {
            for photo in photos { try reader.requireRoom(for: photo, in: album, arriving: &arriving) }
        } else {
            for placed in items where placed.item.albumID != album.id {
                try reader.requireRoom(for: placed.item.photoID!, in: album, arriving: &arriving)
            }
        }

        var destinationChanges = changeSet(for: album)
        var otherChanges: [AlbumID: AlbumChangeSet] = [:]
        if action == .copy {
            for offset in photos.indices {
                // The new items' ids exist only once written: a proposal names none.
                destinationChanges.recordInsertion(at: index + offset, of: AlbumItemID(rawValue: 0))
            }
        } else {
            for (offset, placed) in items.enumerated() {
                let item = placed.item
                if item.albumID == album.id {
                    destinationChanges.recordMove(from: item.index, to: index + offset, of: item.id)
                } else {
                    destinationChanges.recordInsertion(at: index + offset, of: item.id)
                    if otherChanges[item.albumID] == nil {
                        otherChanges[item.albumID] = changeSet(for: try albums.album(item.albumID, in: self))
                    }
                    otherChanges[item.albumID]!.recordRemoval(at: item.index, of: item.id)
                }
            }
        }
        let work = TransferPlan.Work.transfer(items: items, photos: photos, names: names, destination: album, index: index)
        if destinationChanges.inserted.isEmpty && otherChanges.isEmpty && destinationChanges.moved.allSatisfy({ $0.from == $0.to }) {
            return TransferPlan(outcome: .noOp, work: work, albums: albums.byID, foreseenChanges: [])
        }
        let changes = ([destinationChanges] + otherChanges.values).sorted { $0.albumID < $1.albumID }
        return TransferPlan(outcome: action == .copy ? .copy : .move, work: work, albums: albums.byID, foreseenChanges: changes)
    }

    /// The photo a smart album shows at the position `reference` names, for
    /// a copy out of it: it holds no items, only what its search finds now,
    /// in the order `albums list` shows. nil for any other reference. Each
    /// smart album is searched once, as far as the furthest position `sources` name.
    ///
    /// - Throws: ``LibraryError/positionOutOfRange(index:valid:album:)``.
    private func photoShown(by reference: ItemReference, among sources: [ItemReference], found: inout [AlbumID: [PhotoID]]) throws -> PhotoID? {
        guard case .position(let index, let albumReference) = reference else { return nil }
        let album = try album(albumReference)
        guard album.isSmart else { return nil }
        if found[album.id] == nil {
            let furthest = sources.reduce(index) { furthest, source in
                guard case .position(let other, albumReference) = source else { return furthest }
                return max(furthest, other)
            }
            found[album.id] = try reader.smartAlbumPhotos(album, limit: furthest + 1).photos.map(\.photo.id)
        }
        let shown = found[album.id] ?? []
        guard index < shown.count else {
            throw LibraryError.positionOutOfRange(index: index, valid: 0..<shown.count, album: album.name)
        }
        return shown[index]
    }

    /// The destination album and index, counted in the album without the moving items.
    func resolveDestination(_ destination: Destination, moving: [PlacedItem]) throws -> (Album, Int) {
        func movingIndexes(in album: AlbumID) -> [Int] {
            moving.compactMap { $0.item.albumID == album ? $0.item.index : nil }
        }
        switch destination {
        case .into(let reference):
            let album = try album(reference)
            return (album, album.itemCount - movingIndexes(in: album.id).count)
        case .at(let index, let reference):
            let album = try album(reference)
            try reader.requireLandingIndex(index, in: album, staying: album.itemCount - movingIndexes(in: album.id).count)
            return (album, index)
        case .before(let reference), .after(let reference):
            let neighbour = try resolve(reference).item
            if moving.contains(where: { $0.item.id == neighbour.id }) {
                throw LibraryError.neighbourIsTransferred(reference)
            }
            let album = try album(.id(neighbour.albumID))
            let movingBefore = movingIndexes(in: album.id).filter { $0 < neighbour.index }.count
            let index = neighbour.index - movingBefore
            if case .after = destination { return (album, index + 1) }
            return (album, index)
        }
    }

    // MARK: - Swap and remove

    private func planSwap(_ operation: TransferOperation) throws -> TransferPlan {
        let items = try resolveItems(operation)
        let (first, second) = (items[0].item, items[1].item)
        var albums = AlbumSet()
        let firstAlbum = try albums.album(first.albumID, in: self)
        let secondAlbum = try albums.album(second.albumID, in: self)
        try reader.requireChangeable(firstAlbum)
        try reader.requireChangeable(secondAlbum)
        var changes: [AlbumChangeSet]
        if first.albumID == second.albumID {
            var change = changeSet(for: firstAlbum)
            change.recordMove(from: first.index, to: second.index, of: first.id)
            change.recordMove(from: second.index, to: first.index, of: second.id)
            changes = [change]
        } else {
            for (item, other) in [(first, secondAlbum), (second, firstAlbum)] {
                var arriving = Set<PhotoID>()
                if let photo = item.photoID { try reader.requireRoom(for: photo, in: other, arriving: &arriving) }
            }
            var firstChange = changeSet(for: firstAlbum)
            firstChange.recordRemoval(at: first.index, of: first.id)
            firstChange.recordInsertion(at: first.index, of: second.id)
            var secondChange = changeSet(for: secondAlbum)
            secondChange.recordRemoval(at: second.index, of: second.id)
            secondChange.recordInsertion(at: second.index, of: first.id)
            changes = [firstChange, secondChange].sorted { $0.albumID < $1.albumID }
        }
        return TransferPlan(outcome: .move, work: .swap(items[0], items[1]), albums: albums.byID, foreseenChanges: changes)
    }

    private func planRemoval(_ operation: TransferOperation) throws -> TransferPlan {
        let items = try resolveItems(operation)
        var albums = AlbumSet()
        var changes: [AlbumID: AlbumChangeSet] = [:]
        for placed in items {
            let item = placed.item
            if changes[item.albumID] == nil {
                let album = try albums.album(item.albumID, in: self)
                try reader.requireChangeable(album)
                changes[item.albumID] = changeSet(for: album)
            }
            changes[item.albumID]!.recordRemoval(at: item.index, of: item.id)
        }
        return TransferPlan(
            outcome: .move, work: .remove(items), albums: albums.byID,
            foreseenChanges: changes.values.sorted { $0.albumID < $1.albumID })
    }
}
