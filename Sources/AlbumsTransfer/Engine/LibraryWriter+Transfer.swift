import AlbumsPersistence

extension LibraryReader {
    /// Says what `operation` would do, without writing: move, copy,
    /// forbidden (with the reason) or no-op, and the change set it would produce.
    ///
    /// Cheap enough for every pointer movement of a drag: it resolves the
    /// references and reads a few indexes, whatever the albums' sizes.
    ///
    /// - Throws: ``LibraryError`` only when the file cannot be read; a
    ///   refused operation is a ``Proposal/Verdict/forbidden(_:)`` verdict.
    public func propose(_ operation: TransferOperation) throws -> Proposal {
        try propose(.items(operation))
    }

    /// Says what any library operation would do, without writing: the
    /// verdict, and the change sets and folder changes it would produce,
    /// as performing it would report them (new items and photos' ids
    /// aside, which exist only once written and read 0).
    ///
    /// It checks every rule with reads only, so it needs no write lock and
    /// works on a library opened read-only.
    ///
    /// - Throws: ``LibraryError`` only when the file cannot be read; a
    ///   refused operation is a ``Proposal/Verdict/forbidden(_:)`` verdict.
    public func propose(_ operation: LibraryOperation) throws -> Proposal {
        do {
            return try plan(operation).proposal
        } catch let error as LibraryError where error.kind == .refused {
            return Proposal(verdict: .forbidden(error), changes: [])
        }
    }

    /// What performing `operation` would report, checked with reads only:
    /// a proposal that throws its refusal, for callers to whom a refusal
    /// is an error (a command's dry run).
    ///
    /// - Throws: ``LibraryError``: the refusal, or a file that cannot be read.
    public func dryRun(_ operation: LibraryOperation) throws -> TransferResult {
        let plan = try plan(operation)
        return TransferResult(outcome: plan.outcome, changes: plan.foreseenChanges, folderChanges: plan.foreseenFolderChanges)
    }

    /// The checked plan of any library operation.
    ///
    /// - Throws: ``LibraryError`` naming why the operation is refused.
    func plan(_ operation: LibraryOperation) throws -> TransferPlan {
        switch operation {
        case .items(let operation):
            return try TransferPlanner(reader: self).plan(operation)
        case .album(let operation, let expected):
            try requireRevisions(expected)
            return try plan(operation)
        case .folder(let operation, let expected):
            try requireRevisions(expected)
            return try plan(operation)
        case .mark(let marking, let expected):
            try requireRevisions(expected)
            return try TransferPlanner(reader: self).plan(marking)
        }
    }
}

extension LibraryWriter {
    /// Performs `operation` inside this transaction: plans it once, then
    /// writes the plan.
    ///
    /// - Returns: The verdict and one change set per album the operation
    ///   changed, recorded as it wrote; none for a no-op.
    /// - Throws: ``LibraryError``: a refusal (nothing is written), or a failing file.
    @discardableResult
    public func perform(_ operation: TransferOperation) throws -> TransferResult {
        try apply(try TransferPlanner(reader: self).plan(operation))
    }

    /// Writes a plan this writer made, before anything else was written.
    func apply(_ plan: TransferPlan) throws -> TransferResult {
        switch plan.change {
        case .items(let change):
            return TransferResult(outcome: plan.outcome, changes: try apply(change))
        case .tree(let change):
            let (changes, folders) = try apply(change)
            return TransferResult(outcome: plan.outcome, changes: changes.filter { !$0.isEmpty || !$0.albumEvents.isEmpty }, folderChanges: folders)
        }
    }

    /// Performs operations one after the other inside this transaction.
    ///
    /// - Returns: The result of each operation, in order.
    /// - Throws: ``BatchRefusal`` naming the first refused operation.
    @discardableResult
    public func perform(batch operations: [LibraryOperation]) throws -> [TransferResult] {
        try operations.enumerated().map { index, operation in
            do {
                return try perform(operation)
            } catch let error as LibraryError where error.kind == .refused {
                throw BatchRefusal(index: index, operation: operation, reason: error)
            }
        }
    }
}

/// The first refused operation of a batch; the batch as a whole wrote nothing.
public struct BatchRefusal: Error, Hashable, Sendable, CustomStringConvertible {
    /// The operation's 0-based place in the batch.
    public let index: Int
    /// The 1-based line of the batch text it came from, when it came from text.
    public var line: Int?
    /// The refused operation.
    public let operation: LibraryOperation
    /// Why it was refused.
    public let reason: LibraryError

    /// The refusal of the operation at `index` (from `line` of a batch's text, if any).
    public init(index: Int, line: Int? = nil, operation: LibraryOperation, reason: LibraryError) {
        self.index = index
        self.line = line
        self.operation = operation
        self.reason = reason
    }

    public var description: String {
        let place = line.map { "line \($0)" } ?? "operation \(index + 1)"
        return "\(place) (\(operation.name)) refused, nothing applied: \(reason)"
    }
}

extension LibraryReader {
    /// The item a reference names, with its current index: the same
    /// resolution an operation's sources get.
    ///
    /// - Throws: ``LibraryError/itemNotFound(_:)``, ``LibraryError/albumNotFound(_:)``,
    ///   ``LibraryError/positionOutOfRange(index:valid:album:)``, ``LibraryError/ambiguousPhoto(_:albums:)``.
    public func resolve(_ reference: ItemReference) throws -> AlbumItem {
        try TransferPlanner(reader: self).resolve(reference).item
    }
}

extension LibraryReader {
    /// Where new items dropped at `destination` would land: the album and
    /// the 0-based index of the first, resolved as a drop's destination is.
    /// A load's placeholders are inserted there.
    ///
    /// - Throws: ``LibraryError``: a destination that does not resolve, or
    ///   an album that takes no items from the principal: one they may not
    ///   change (``LibraryError/forbidden(reason:)``), a locked one
    ///   (``LibraryError/albumLocked(name:)``) or a smart one.
    public func landing(at destination: Destination) throws -> (album: Album, index: Int) {
        let (album, index) = try TransferPlanner(reader: self).resolveDestination(destination, moving: [])
        try requireChangeable(album)
        return (album, index)
    }
}
