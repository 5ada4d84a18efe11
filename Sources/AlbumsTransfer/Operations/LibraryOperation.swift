import AlbumsPersistence

/// Any operation a batch line, the API or a host app can ask for: on items
/// (drag and drop), on albums, or on folders.
public enum LibraryOperation: Hashable, Sendable {
    /// A drag-and-drop operation on items.
    case items(TransferOperation)
    /// An album operation, refused unless each named album is at the expected revision.
    case album(AlbumOperation, expecting: [AlbumReference: Int64] = [:])
    /// A folder operation, refused unless each named album is at the expected revision.
    case folder(FolderOperation, expecting: [AlbumReference: Int64] = [:])
    /// Words and marks written on items, refused unless each named album is at the expected revision.
    case mark(ItemMarking, expecting: [AlbumReference: Int64] = [:])

    /// The operation's name in a batch line (`move`, `rename_album`, `create_folder`, …).
    public var name: String {
        switch self {
        case .items(let operation): operation.action.rawValue
        case .album(let operation, _): operation.name
        case .folder(let operation, _): operation.name
        case .mark: ItemMarking.operationName
        }
    }

}

extension LibraryWriter {
    /// Performs any library operation inside this transaction: checks it,
    /// then writes what the check foresaw.
    ///
    /// - Throws: ``LibraryError``: a refusal (nothing is written), or a failing file.
    @discardableResult
    public func perform(_ operation: LibraryOperation) throws -> TransferResult {
        try apply(try plan(operation))
    }
}
