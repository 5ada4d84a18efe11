import AlbumsPersistence

/// One change to the tree's folders: what a folder list of a UI does.
///
/// ```swift
/// try library.write { try $0.perform(FolderOperation.create(name: "2026", placement: .into(.path("Travel")))) }
/// ```
public enum FolderOperation: Hashable, Sendable {
    /// A new, empty folder where the placement says.
    case create(name: String, placement: TreePlacement)
    /// A new name, unique among its siblings.
    case rename(FolderReference, to: String)
    /// Deletes the folder; its contents as the choice says (photos are never
    /// deleted); `force` deletes albums with pending loads, cancelling them.
    case delete(FolderReference, contents: FolderContentsOnDelete, force: Bool)
    /// The folder, with everything in it, elsewhere in the tree.
    case move(FolderReference, to: TreePlacement)
    /// Locks (true) or unlocks (false) the folder's list of children.
    case setLocked(FolderReference, Bool)

    /// The operation's name in a batch line: `create_folder`, `rename_folder`, …
    public var name: String { operationName.rawValue }

    /// Which operation it is, by the name it goes by.
    public var operationName: TreeOperationName {
        switch self {
        case .create: .createFolder
        case .rename: .renameFolder
        case .delete: .deleteFolder
        case .move: .moveFolder
        case .setLocked(_, let isLocked): isLocked ? .lockFolder : .unlockFolder
        }
    }
}

extension LibraryWriter {
    /// Performs a folder operation inside this transaction, as one entry of the history.
    ///
    /// - Parameter expected: Revisions the caller last saw of albums; if one has
    ///   changed since, the operation is refused.
    /// - Returns: ``Proposal/Verdict/noOp`` when nothing changes, else the
    ///   folders' changes and the change sets of the albums touched.
    /// - Throws: ``LibraryError``: a refusal (nothing is written), or a failing file.
    @discardableResult
    public func perform(_ operation: FolderOperation, expecting expected: [AlbumReference: Int64] = [:]) throws -> TransferResult {
        try perform(.folder(operation, expecting: expected))
    }
}

extension LibraryReader {
    /// The checked plan of a folder operation, with reads only.
    ///
    /// - Throws: ``LibraryError`` naming why it is refused.
    func plan(_ operation: FolderOperation) throws -> TransferPlan {
        let name = operation.operationName
        switch operation {
        case .create(let folderName, let placement):
            return TransferPlan(try checkFolderCreation(named: folderName, placement: placement), as: name)
        case .rename(let reference, let newName):
            return TransferPlan(try checkFolderRename(try folder(reference).id, to: newName), as: name)
        case .delete(let reference, let contents, let force):
            return TransferPlan(try checkFolderDeletion(try folder(reference).id, contents: contents, force: force), as: name)
        case .move(let reference, let placement):
            return TransferPlan(try checkFolderMove(try folder(reference).id, to: placement), as: name)
        case .setLocked(let reference, let isLocked):
            return TransferPlan(try checkFolderLock(try folder(reference).id, isLocked), as: name)
        }
    }
}
