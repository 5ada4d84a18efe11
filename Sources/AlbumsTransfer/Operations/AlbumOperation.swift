import AlbumsPersistence

/// One change to the list of albums or to an album as a whole: what the
/// album list of a UI does (create, rename, delete, reorder, lock, sort).
///
/// ```swift
/// try library.write { try $0.perform(AlbumOperation.rename("Trip", to: "Rome 2026")) }
/// ```
///
/// Like a ``TransferOperation``, it is one undoable entry of the history,
/// one change set per album it touches, and a line of a batch.
public enum AlbumOperation: Hashable, Sendable {
    /// A new, empty album where the placement says (`.into(nil)`: last at the top level).
    case create(name: String, placement: TreePlacement = .into(nil))
    /// A new name for an album.
    case rename(AlbumReference, to: String)
    /// Deletes an album and its items; its photos stay in the library.
    /// With pending loads it needs `force`, which cancels them.
    case delete(AlbumReference, force: Bool)
    /// The album elsewhere in the tree: at a 0-based place among its
    /// parent's children, into a folder, next to an album or folder.
    case move(AlbumReference, to: TreePlacement)
    /// Locks (true) or unlocks (false) the album.
    case setLocked(AlbumReference, Bool)
    /// Rewrites the album's manual order by a key (see ``LibraryWriter/sortAlbum(_:by:ascending:)``).
    case sort(AlbumReference, by: AlbumSortKey, ascending: Bool)
    /// Chooses the album's cover: the photo a reference names, which must
    /// be in the album; nil goes back to its first photo
    /// (see ``LibraryWriter/setAlbumCover(_:to:)``).
    case setCover(AlbumReference, to: ItemReference?)
    /// A new smart album where the placement says: a saved search shown as
    /// an album, read-only, always current (see ``LibraryWriter/createSmartAlbum(named:placement:search:)``).
    case createSmart(name: String, search: PhotoSearchRequest, placement: TreePlacement = .into(nil))
    /// Makes a smart album an ordinary one holding what it shows now
    /// (see ``LibraryWriter/freezeSmartAlbum(_:)``).
    case freeze(AlbumReference)

    /// The album the operation is about, when it names one.
    public var album: AlbumReference? {
        switch self {
        case .create, .createSmart: nil
        case .rename(let album, _), .delete(let album, _), .move(let album, _), .setLocked(let album, _), .sort(let album, _, _),
            .setCover(let album, _), .freeze(let album):
            album
        }
    }

    /// The operation's name in a batch line: `create_album`, `rename_album`, …
    public var name: String { operationName.rawValue }

    /// Which operation it is, by the name it goes by.
    public var operationName: TreeOperationName {
        switch self {
        case .create: .createAlbum
        case .rename: .renameAlbum
        case .delete: .deleteAlbum
        case .move: .moveAlbum
        case .setLocked(_, let isLocked): isLocked ? .lockAlbum : .unlockAlbum
        case .sort: .sortAlbum
        case .setCover: .setAlbumCover
        case .createSmart: .createSmartAlbum
        case .freeze: .freezeAlbum
        }
    }
}

extension LibraryWriter {
    /// Performs an album operation inside this transaction, as one entry of the history.
    ///
    /// ```swift
    /// let changes = try library.write { try $0.perform(.move("Book", to: 0)) }
    /// ```
    ///
    /// - Parameter expected: Revisions the caller last saw; if an album has
    ///   changed since, the operation is refused.
    /// - Returns: ``Proposal/Verdict/noOp`` with no change sets when nothing
    ///   changes (a rename to the same name, a sort already in order), else
    ///   the change set of each album touched.
    /// - Throws: ``LibraryError``: a refusal (nothing is written), or a failing file.
    @discardableResult
    public func perform(_ operation: AlbumOperation, expecting expected: [AlbumReference: Int64] = [:]) throws -> TransferResult {
        try requireRevisions(expected)
        let (_, changes) = try recordingOperation { () throws -> Void in
            switch operation {
            case .create(let name, let placement):
                try createAlbum(named: name, placement: placement)
            case .rename(let reference, let name):
                try renameAlbum(try album(reference).id, to: name)
            case .delete(let reference, let force):
                try deleteAlbum(try album(reference).id, force: force)
            case .move(let reference, let placement):
                try moveAlbum(try album(reference).id, to: placement)
            case .setLocked(let reference, let isLocked):
                try setAlbumLocked(try album(reference).id, isLocked)
            case .sort(let reference, let key, let ascending):
                try sortAlbum(reference, by: key, ascending: ascending)
            case .setCover(let reference, let photo):
                let album = try album(reference)
                try setAlbumCover(album.id, to: try photo.map { try coverPhoto($0, for: album) })
            case .createSmart(let name, let request, let placement):
                try createSmartAlbum(named: name, placement: placement, search: try request.resolved(by: self))
            case .freeze(let reference):
                try freezeSmartAlbum(try album(reference).id)
            }
        }
        return result(of: changes, by: operation.operationName)
    }

    /// The photo a cover's reference names. An id is taken as it is (the
    /// album's own check then says whether it holds it); a position must
    /// name a photo, not a placeholder.
    private func coverPhoto(_ reference: ItemReference, for album: Album) throws -> PhotoID {
        if case .photo(let id, _) = reference { return id }
        let item = try resolve(reference)
        guard let photo = item.photoID else { throw LibraryError.placeholderNotAllowed(reference) }
        return photo
    }

    /// What an album or folder operation did: no-op when it changed nothing.
    func result(of changes: [AlbumChangeSet], by operation: TreeOperationName) -> TransferResult {
        let changed = changes.filter { !$0.isEmpty || !$0.albumEvents.isEmpty }
        let folders = lastOperationFolderChanges
        return TransferResult(outcome: changed.isEmpty && folders.isEmpty ? .noOp : .changed(operation), changes: changed, folderChanges: folders)
    }
}
