import AlbumsPersistence

/// An operation resolved against the library as it is now and checked by
/// it: the persistence module's checked change, which only the writer that
/// checked it writes, and the verdict a proposal gives. A proposal is a
/// plan without the write, for every kind of operation.
struct TransferPlan {
    /// A checked change to items, or to the tree's albums and folders.
    enum Change {
        case items(ItemChange)
        case tree(TreeChange)
    }

    let outcome: TransferResult.Outcome
    let change: Change

    /// A drag-and-drop change: a move, a copy, or nothing.
    init(_ change: ItemChange) {
        self.change = .items(change)
        outcome = change.isNoOp ? .noOp : change.isCopy ? .copy : .move
    }

    /// An album operation made of an item change (a sort), as `operation`.
    init(_ change: ItemChange, as operation: TreeOperationName) {
        self.change = .items(change)
        outcome = change.isNoOp ? .noOp : .changed(operation)
    }

    /// Words and marks written on items.
    init(marking change: ItemChange) {
        self.change = .items(change)
        outcome = change.isNoOp ? .noOp : .marked
    }

    /// An album or folder operation, as `operation`.
    init(_ change: TreeChange, as operation: TreeOperationName) {
        self.change = .tree(change)
        outcome = change.isNoOp ? .noOp : .changed(operation)
    }

    /// The change sets the change produces, foreseen by its check.
    var foreseenChanges: [AlbumChangeSet] {
        switch change {
        case .items(let change): change.foreseenChanges
        case .tree(let change): change.foreseenChanges.filter { !$0.isEmpty || !$0.albumEvents.isEmpty }
        }
    }

    /// What the change does to folders, foreseen by its check.
    var foreseenFolderChanges: [FolderChange] {
        if case .tree(let change) = change { return change.foreseenFolderChanges }
        return []
    }

    /// The plan as a proposal's answer.
    var proposal: Proposal {
        Proposal(verdict: outcome.verdict, changes: foreseenChanges, folderChanges: foreseenFolderChanges)
    }
}

/// Resolves operations with reads only, so a proposal costs a read
/// transaction: a few index lookups, each in the number of segments plus
/// one segment's size. It resolves what an operation names (references,
/// positions of smart albums, the destination); the library checks what
/// the operation would do (``AlbumsPersistence/LibraryReader``'s
/// `checkTransfer`, `checkSwap`, `checkRemoval`). Every refusal is a
/// ``LibraryError``.
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

    // MARK: - Move and copy

    private func planTransfer(_ operation: TransferOperation, to destination: Destination) throws -> TransferPlan {
        let action = operation.action
        // A copy may take a photo of the library itself, in no album or several.
        var items: [PlacedItem] = []
        var photos: [PhotoID] = []
        var seenItems = Set<AlbumItemID>()
        var seenPhotos = Set<PhotoID>()
        var names: [PhotoID: String] = [:]
        var marks: [PhotoID: ItemMarks] = [:]
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
                if action == .copy {
                    // A copy of an item takes its name and what is written on it along.
                    let carried = try reader.carried(by: placed.item.id)
                    names[photo] = carried.name
                    if !carried.marks.isEmpty { marks[photo] = carried.marks }
                }
            }
            if action == .copy, !seenPhotos.insert(photos.last!).inserted { throw LibraryError.duplicateItem(reference) }
        }
        let moving = action == .move ? items : []
        let (album, index) = try resolveDestination(destination, moving: moving)
        return TransferPlan(try reader.checkTransfer(of: items, photos: photos, names: names, marks: marks, copying: action == .copy, to: album, at: index))
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
        return TransferPlan(try reader.checkSwap(items[0], items[1]))
    }

    private func planRemoval(_ operation: TransferOperation) throws -> TransferPlan {
        TransferPlan(try reader.checkRemoval(of: try resolveItems(operation)))
    }

    // MARK: - Words and marks

    /// The resolved plan of writing words and marks on items.
    ///
    /// - Throws: ``LibraryError`` naming why it is refused.
    func plan(_ marking: ItemMarking) throws -> TransferPlan {
        guard !marking.items.isEmpty else { throw LibraryError.wrongItemCount(operation: ItemMarking.operationName, count: 0) }
        return TransferPlan(marking: try reader.checkMarking(of: try marking.items.map(resolve), with: marking.edit))
    }
}
