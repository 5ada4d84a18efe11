import AlbumsPersistence

/// An operation resolved against the library as it is now: what it refers
/// to, whether it is allowed, and the change set it produces.
struct TransferPlan {
    var proposal: Proposal
    /// The resolved sources, in the order given.
    var sources: [ResolvedSource] = []
    var destination: Album?
    /// The destination index, counted without the moving items.
    var destinationIndex: Int?
}

/// A source item, or for a copy possibly a photo of the library that no album holds.
struct ResolvedSource {
    let reference: ItemReference
    let item: AlbumItem?
    let photoID: PhotoID?
}

/// Plans operations with reads only, so a proposal costs a read transaction:
/// a few index lookups, each in the number of segments plus one segment's size.
struct TransferPlanner {
    let reader: LibraryReader

    func plan(_ operation: TransferOperation) throws -> TransferPlan {
        do {
            return try planOrRefuse(operation)
        } catch let refusal as TransferRefusal {
            return TransferPlan(proposal: Proposal(verdict: .forbidden(refusal), changes: []))
        }
    }

    private func planOrRefuse(_ operation: TransferOperation) throws -> TransferPlan {
        try reader.requireRevisions(operation.expectedRevisions)
        let sources = try resolveSources(operation)
        switch operation.action {
        case .move, .copy:
            guard let destination = operation.destination else {
                throw TransferRefusal.wrongSourceCount(action: operation.action, count: 0)
            }
            return try planTransfer(operation.action, sources: sources, to: destination)
        case .swap:
            return try planSwap(sources)
        case .remove:
            return try planRemoval(sources)
        }
    }

    // MARK: - Sources

    private func resolveSources(_ operation: TransferOperation) throws -> [ResolvedSource] {
        let count = operation.sources.count
        if count == 0 || (operation.action == .swap && count != 2) {
            throw TransferRefusal.wrongSourceCount(action: operation.action, count: count)
        }
        var seenItems = Set<AlbumItemID>()
        var seenPhotos = Set<PhotoID>()
        return try operation.sources.map { reference in
            let source: ResolvedSource
            if operation.action == .copy, case .photo(let photo, nil) = reference {
                // A copy may take a photo of the library itself, in no album or several.
                _ = try photoExists(photo, reference: reference)
                source = ResolvedSource(reference: reference, item: nil, photoID: photo)
            } else {
                let item = try resolve(reference)
                guard seenItems.insert(item.id).inserted else { throw TransferRefusal.duplicateSource(reference) }
                if item.isPlaceholder && operation.action != .remove {
                    throw TransferRefusal.placeholderAsSource(reference)
                }
                source = ResolvedSource(reference: reference, item: item, photoID: item.photoID)
            }
            if operation.action == .copy, let photo = source.photoID, !seenPhotos.insert(photo).inserted {
                throw TransferRefusal.duplicateSource(reference)
            }
            return source
        }
    }

    /// The item a reference names, with its current index.
    func resolve(_ reference: ItemReference) throws -> AlbumItem {
        switch reference {
        case .item(let id):
            do {
                return try reader.item(id)
            } catch LibraryError.itemNotFound {
                throw TransferRefusal.itemNotFound(reference)
            }
        case .position(let index, let albumReference):
            let album = try album(albumReference)
            guard (0..<album.itemCount).contains(index) else {
                throw TransferRefusal.positionOutOfRange(
                    index: index, valid: album.itemCount > 0 ? 0...album.itemCount - 1 : nil, album: album.name)
            }
            return try reader.item(at: index, in: album.id)
        case .photo(let photo, let albumReference?):
            let album = try album(albumReference)
            guard let item = try reader.item(holding: photo, in: album.id) else {
                throw TransferRefusal.itemNotFound(reference)
            }
            return item
        case .photo(let photo, nil):
            let holders = try reader.albums(holding: try photoExists(photo, reference: reference))
            guard let only = holders.first else { throw TransferRefusal.itemNotFound(reference) }
            guard holders.count == 1 else { throw TransferRefusal.ambiguousPhoto(photo, albums: holders.map(\.name)) }
            return try reader.item(holding: photo, in: only.id)!
        }
    }

    private func photoExists(_ photo: PhotoID, reference: ItemReference) throws -> PhotoID {
        do {
            return try reader.photo(photo).id
        } catch LibraryError.photoNotFound {
            throw TransferRefusal.itemNotFound(reference)
        }
    }

    private func album(_ reference: AlbumReference) throws -> Album {
        do {
            return try reader.album(reference)
        } catch LibraryError.albumNotFound, LibraryError.albumIDNotFound {
            throw TransferRefusal.albumNotFound(reference)
        }
    }

    private func unlocked(_ album: Album) throws -> Album {
        if album.isLocked { throw TransferRefusal.albumLocked(name: album.name) }
        return album
    }

    private func changeSet(for album: Album) -> AlbumChangeSet {
        // The transaction raises each changed album's revision once, on commit.
        AlbumChangeSet(albumID: album.id, albumName: album.name, revision: album.revision + 1)
    }

    // MARK: - Move and copy

    private func planTransfer(_ action: TransferOperation.Action, sources: [ResolvedSource], to destination: Destination) throws -> TransferPlan {
        let (album, index) = try resolveDestination(destination, sources: sources, action: action)
        _ = try unlocked(album)
        let items = sources.compactMap(\.item)
        if action == .move {
            // In source order, so the reason given is the same every time.
            var checked: Set<AlbumID> = [album.id]
            for item in items where checked.insert(item.albumID).inserted {
                _ = try unlocked(try reader.album(item.albumID))
            }
        }
        var arriving = Set<PhotoID>()
        for source in sources where action == .copy || source.item?.albumID != album.id {
            // Two sources of one photo (from two albums) would put it twice in the album, too.
            if let photo = source.photoID, try reader.item(holding: photo, in: album.id) != nil || !arriving.insert(photo).inserted {
                throw TransferRefusal.photoAlreadyInAlbum(photo, album: album.name)
            }
        }

        var destinationChanges = changeSet(for: album)
        var otherChanges: [AlbumID: AlbumChangeSet] = [:]
        for (offset, source) in sources.enumerated() {
            if action == .move, let item = source.item, item.albumID == album.id {
                destinationChanges.moved.append(.init(from: item.index, to: index + offset))
            } else {
                destinationChanges.inserted.append(index + offset)
            }
            if action == .move, let item = source.item, item.albumID != album.id {
                if otherChanges[item.albumID] == nil {
                    otherChanges[item.albumID] = changeSet(for: try reader.album(item.albumID))
                }
                otherChanges[item.albumID]!.removed.append(item.index)
            }
        }
        var plan = TransferPlan(proposal: Proposal(verdict: .noOp, changes: []), sources: sources, destination: album, destinationIndex: index)
        if destinationChanges.inserted.isEmpty && otherChanges.isEmpty && destinationChanges.moved.allSatisfy({ $0.from == $0.to }) {
            return plan
        }
        destinationChanges.moved.sort { $0.from < $1.from }
        let changes = [destinationChanges] + otherChanges.values.map { changes in
            var changes = changes
            changes.removed.sort()
            return changes
        }
        plan.proposal = Proposal(verdict: action == .copy ? .copy : .move, changes: changes.sorted { $0.albumID < $1.albumID })
        return plan
    }

    /// The destination album and index, counted in the album without the moving items.
    func resolveDestination(_ destination: Destination, sources: [ResolvedSource], action: TransferOperation.Action) throws
        -> (Album, Int)
    {
        func movingIndexes(in album: AlbumID) -> [Int] {
            action == .move ? sources.compactMap { $0.item?.albumID == album ? $0.item?.index : nil } : []
        }
        switch destination {
        case .into(let reference):
            let album = try album(reference)
            return (album, album.itemCount - movingIndexes(in: album.id).count)
        case .at(let index, let reference):
            let album = try album(reference)
            let staying = album.itemCount - movingIndexes(in: album.id).count
            guard (0...staying).contains(index) else {
                throw TransferRefusal.positionOutOfRange(index: index, valid: 0...staying, album: album.name)
            }
            return (album, index)
        case .before(let reference), .after(let reference):
            let neighbour = try resolve(reference)
            if action == .move, sources.contains(where: { $0.item?.id == neighbour.id }) {
                throw TransferRefusal.neighbourIsTransferred(reference)
            }
            let album = try reader.album(neighbour.albumID)
            let movingBefore = movingIndexes(in: album.id).filter { $0 < neighbour.index }.count
            let index = neighbour.index - movingBefore
            if case .after = destination { return (album, index + 1) }
            return (album, index)
        }
    }

    // MARK: - Swap and remove

    private func planSwap(_ sources: [ResolvedSource]) throws -> TransferPlan {
        let first = sources[0].item!
        let second = sources[1].item!
        let firstAlbum = try unlocked(try reader.album(first.albumID))
        let secondAlbum = try unlocked(try reader.album(second.albumID))
        var changes: [AlbumChangeSet]
        if first.albumID == second.albumID {
            var change = changeSet(for: firstAlbum)
            change.moved = [.init(from: first.index, to: second.index), .init(from: second.index, to: first.index)].sorted { $0.from < $1.from }
            changes = [change]
        } else {
            for (item, other) in [(first, secondAlbum), (second, firstAlbum)] {
                if let photo = item.photoID, try reader.item(holding: photo, in: other.id) != nil {
                    throw TransferRefusal.photoAlreadyInAlbum(photo, album: other.name)
                }
            }
            var firstChange = changeSet(for: firstAlbum)
            firstChange.removed = [first.index]
            firstChange.inserted = [first.index]
            var secondChange = changeSet(for: secondAlbum)
            secondChange.removed = [second.index]
            secondChange.inserted = [second.index]
            changes = [firstChange, secondChange].sorted { $0.albumID < $1.albumID }
        }
        return TransferPlan(proposal: Proposal(verdict: .move, changes: changes), sources: sources)
    }

    private func planRemoval(_ sources: [ResolvedSource]) throws -> TransferPlan {
        var changes: [AlbumID: AlbumChangeSet] = [:]
        for item in sources.compactMap(\.item) {
            if changes[item.albumID] == nil {
                changes[item.albumID] = changeSet(for: try unlocked(try reader.album(item.albumID)))
            }
            changes[item.albumID]!.removed.append(item.index)
        }
        let sorted = changes.values.map { changes in
            var changes = changes
            changes.removed.sort()
            return changes
        }.sorted { $0.albumID < $1.albumID }
        return TransferPlan(proposal: Proposal(verdict: .move, changes: sorted), sources: sources)
    }
}
