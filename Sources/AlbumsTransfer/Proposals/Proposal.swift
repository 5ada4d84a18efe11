import AlbumsPersistence

/// What an operation would do, said before doing it: the analogue of
/// `UIDropProposal`, plus the change set the drop would produce.
public struct Proposal: Hashable, Sendable {
    /// Whether a drop may go ahead, and as what.
    public enum Verdict: Hashable, Sendable {
        /// Items would change place: a move, a swap or a removal.
        case move
        /// The destination would gain copies of the items' photos.
        case copy
        /// The operation is refused, for this reason.
        case forbidden(LibraryError)
        /// The operation is allowed and would change nothing.
        case noOp
        /// An album or folder would be created, renamed, deleted, moved,
        /// locked, unlocked or sorted, as the operation's name says.
        case changed(TreeOperationName)
        /// Items would carry other words or marks (``ItemMarking``).
        case marked

        /// The verdict's name in JSON: `move`, `copy`, `forbidden`, `no_op`,
        /// `marked`, or what an album or folder operation does (`renamed`, `locked`, …).
        public var name: String {
            switch self {
            case .move: "move"
            case .copy: "copy"
            case .forbidden: "forbidden"
            case .noOp: "no_op"
            case .changed(let operation): operation.pastTense
            case .marked: "marked"
            }
        }
    }

    /// Move, copy, no-op, or forbidden with the reason.
    public let verdict: Verdict
    /// One change set per album the operation touches; empty when forbidden
    /// or a no-op. Items a copy would create have no id yet: they read 0.
    public let changes: [AlbumChangeSet]
    /// What the operation would do to folders of the tree, each folder once.
    public let folderChanges: [FolderChange]

    /// A proposal of a verdict and the change sets it foresees.
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

/// What a performed operation did: what it was, and the change sets of what it wrote.
///
/// A refused operation has no result: it throws its ``AlbumsPersistence/LibraryError``.
public struct TransferResult: Hashable, Sendable {
    /// What a performed operation turned out to be.
    public enum Outcome: Hashable, Sendable {
        /// Items changed place (a move, a swap, a removal).
        case move
        /// The destination gained copies of the items' photos.
        case copy
        /// Nothing needed changing.
        case noOp
        /// An album or folder operation changed what its name says.
        case changed(TreeOperationName)
        /// Items carry other words or marks.
        case marked

        /// Its name in JSON, as a proposal's verdict would say it: `move`,
        /// `copy`, `no_op`, or `created`, `renamed`, `locked`, ….
        public var name: String { verdict.name }

        /// The proposal's verdict for the same thing.
        public var verdict: Proposal.Verdict {
            switch self {
            case .move: .move
            case .copy: .copy
            case .noOp: .noOp
            case .changed(let operation): .changed(operation)
            case .marked: .marked
            }
        }
    }

    /// Move, copy, no-op, or the album or folder change made.
    public let outcome: Outcome
    /// One change set per album changed, as written; empty for a no-op.
    public let changes: [AlbumChangeSet]
    /// What it did to folders of the tree, each folder once.
    public let folderChanges: [FolderChange]

    /// What an operation did, with the change sets it wrote.
    public init(outcome: Outcome, changes: [AlbumChangeSet], folderChanges: [FolderChange] = []) {
        self.outcome = outcome
        self.changes = changes
        self.folderChanges = folderChanges
    }
}
