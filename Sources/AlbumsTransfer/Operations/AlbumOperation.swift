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
    /// Writes the album's description; nil (or only white space) clears it
    /// (see ``AlbumsPersistence/LibraryReader/checkAlbumDescription(_:to:)``).
    case describe(AlbumReference, String?)

    /// The album the operation is about, when it names one.
    public var album: AlbumReference? {
        switch self {
        case .create, .createSmart: nil
        case .rename(let album, _), .delete(let album, _), .move(let album, _), .setLocked(let album, _), .sort(let album, _, _),
            .setCover(let album, _), .freeze(let album), .describe(let album, _):
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
        case .describe: .describeAlbum
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
        try perform(.album(operation, expecting: expected))
    }
}

extension LibraryReader {
    /// The checked plan of an album operation: what the library's check
    /// says it will write, with reads only.
    ///
    /// - Throws: ``LibraryError`` naming why it is refused.
    func plan(_ operation: AlbumOperation) throws -> TransferPlan {
        let name = operation.operationName
        switch operation {
        case .create(let albumName, let placement):
            return TransferPlan(try checkAlbumCreation(named: albumName, placement: placement), as: name)
        case .rename(let reference, let newName):
            return TransferPlan(try checkAlbumRename(try album(reference).id, to: newName), as: name)
        case .delete(let reference, let force):
            return TransferPlan(try checkAlbumDeletion(try album(reference).id, force: force), as: name)
        case .move(let reference, let placement):
            return TransferPlan(try checkAlbumMove(try album(reference).id, to: placement), as: name)
        case .setLocked(let reference, let isLocked):
            return TransferPlan(try checkAlbumLock(try album(reference).id, isLocked), as: name)
        case .sort(let reference, let key, let ascending):
            return TransferPlan(try checkSort(reference, by: key, ascending: ascending), as: name)
        case .setCover(let reference, let photo):
            let album = try album(reference)
            return TransferPlan(try checkAlbumCover(album.id, to: try photo.map { try coverPhoto($0, for: album) }), as: name)
        case .createSmart(let albumName, let request, let placement):
            return TransferPlan(try checkAlbumCreation(named: albumName, placement: placement, search: try request.resolved(by: self)), as: name)
        case .freeze(let reference):
            return TransferPlan(try checkFreeze(try album(reference).id), as: name)
        case .describe(let reference, let text):
            return TransferPlan(try checkAlbumDescription(try album(reference).id, to: text), as: name)
        }
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
}
