import AlbumsPersistence

/// What an operation would do, said before doing it: the analogue of
/// `UIDropProposal`, plus the change set the drop would produce.
public struct Proposal: Hashable, Sendable {
    public enum Verdict: Hashable, Sendable {
        /// Items would change place: a move, a swap or a removal.
        case move
        /// The destination would gain copies of the items' photos.
        case copy
        /// The operation is refused, for this reason.
        case forbidden(TransferRefusal)
        /// The operation is allowed and would change nothing.
        case noOp
    }

    public let verdict: Verdict
    /// One change set per album the operation touches; empty when forbidden or a no-op.
    public let changes: [AlbumChangeSet]

    /// Whether a drop may go ahead.
    public var isAllowed: Bool {
        if case .forbidden = verdict { return false }
        return true
    }
}
