import AlbumsPersistence

extension LibraryReader {
    /// Says what `operation` would do, without writing: move, copy,
    /// forbidden (with the reason) or no-op, and the change set it would produce.
    ///
    /// Cheap enough for every pointer movement of a drag: it resolves the
    /// references and reads a few indexes, whatever the albums' sizes.
    ///
    /// - Throws: ``LibraryError`` only, when the file cannot be read; a
    ///   refused operation is a ``Proposal/Verdict/forbidden(_:)`` verdict.
    public func propose(_ operation: TransferOperation) throws -> Proposal {
        try TransferPlanner(reader: self).plan(operation).proposal
    }
}

extension LibraryWriter {
    /// Performs `operation` inside this transaction.
    ///
    /// - Returns: One change set per album the operation changed; none for a no-op.
    /// - Throws: ``TransferRefusal`` if the operation is forbidden (nothing
    ///   is written), ``LibraryError`` if the file fails.
    @discardableResult
    public func perform(_ operation: TransferOperation) throws -> [AlbumChangeSet] {
        let plan = try TransferPlanner(reader: self).plan(operation)
        switch plan.proposal.verdict {
        case .forbidden(let refusal): throw refusal
        case .noOp: return []
        case .move, .copy: break
        }
        let items = plan.sources.compactMap(\.item?.id)
        switch operation.action {
        case .move:
            try moveItems(items, to: plan.destination!.id, at: plan.destinationIndex!)
        case .copy:
            try insertPhotos(plan.sources.compactMap(\.photoID), into: plan.destination!.id, at: plan.destinationIndex!)
        case .swap:
            try swapItems(items[0], items[1])
        case .remove:
            try removeItems(items)
        }
        return plan.proposal.changes
    }

    /// Performs operations one after the other inside this transaction.
    ///
    /// - Returns: The change sets of each operation, in order.
    /// - Throws: ``BatchRefusal`` naming the first refused operation.
    @discardableResult
    public func perform(batch operations: [TransferOperation]) throws -> [[AlbumChangeSet]] {
        try operations.enumerated().map { index, operation in
            do {
                return try perform(operation)
            } catch let refusal as TransferRefusal {
                throw BatchRefusal(index: index, operation: operation, refusal: refusal)
            }
        }
    }
}

/// The first refused operation of a batch; the batch as a whole wrote nothing.
public struct BatchRefusal: Error, Hashable, Sendable, CustomStringConvertible {
    /// The operation's 0-based place in the batch.
    public let index: Int
    public let operation: TransferOperation
    public let refusal: TransferRefusal

    public var description: String {
        "operation \(index + 1) (\(operation.action.rawValue)) refused, nothing applied: \(refusal)"
    }
}
