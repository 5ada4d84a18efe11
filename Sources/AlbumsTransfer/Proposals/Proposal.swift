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
        case forbidden(LibraryError)
        /// The operation is allowed and would change nothing.
        case noOp

        /// The verdict's name in JSON: `move`, `copy`, `forbidden` or `no_op`.
        public var name: String {
            switch self {
            case .move: "move"
            case .copy: "copy"
            case .forbidden: "forbidden"
            case .noOp: "no_op"
            }
        }
    }

    public let verdict: Verdict
    /// One change set per album the operation touches; empty when forbidden
    /// or a no-op. Items a copy would create have no id yet: they read 0.
    public let changes: [AlbumChangeSet]
    /// What the operation would do to folders of the tree, each folder once.
    public let folderChanges: [FolderChange]

    public init(verdict: Verdict, changes: [AlbumChangeSet], folderChanges: [FolderChange] = []) {
        self.verdict = verdict
        self.changes = changes
        self.folderChanges = folderChanges
    }

    /// Whether a drop may go ahead.
    public var isAllowed: Bool {
        if case .forbidden = verdict { return false }
        return true
    }
}

/// What a performed operation did: its verdict and the change sets of what it wrote.
public struct TransferResult: Hashable, Sendable {
    /// ``Proposal/Verdict/move``, ``Proposal/Verdict/copy`` or ``Proposal/Verdict/noOp``.
    public let verdict: Proposal.Verdict
    /// One change set per album changed, as written; empty for a no-op.
    public let changes: [AlbumChangeSet]
    /// What it did to folders of the tree, each folder once.
    public let folderChanges: [FolderChange]

    public init(verdict: Proposal.Verdict, changes: [AlbumChangeSet], folderChanges: [FolderChange] = []) {
        self.verdict = verdict
        self.changes = changes
        self.folderChanges = folderChanges
    }
}
