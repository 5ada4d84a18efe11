import Foundation

/// One committed transaction's change sets, as every process watching the
/// library sees it (see ``Library/changes(pollingInterval:)``).
public struct CommittedChange: Hashable, Sendable {
    /// Grows with every transaction that changed an album, in commit order,
    /// across every process that writes the file.
    public let sequence: Int64
    /// When the transaction committed.
    public let committedAt: Date
    /// The change sets of each operation of the transaction, in order (a
    /// batch has several); within one, one change set per album, by album id.
    public let operations: [[AlbumChangeSet]]
    /// What the transaction did to folders of the tree, each folder once.
    public let folderChanges: [FolderChange]
    /// True when changes before this one were missed (the watcher fell more
    /// than the journal's length behind): reload what you show.
    public let followsAGap: Bool
    /// True when the transaction changed who may see or do what (people,
    /// roles, sessions, share links): a watcher acting for someone asks
    /// again what they may see before it shows anything more.
    public let changedRights: Bool
    /// True when the transaction added photos to the library, in albums or
    /// in none: a view of the whole library (a timeline, a search, a smart
    /// album) reads again. Heard only by those who see every photo.
    public let addedPhotos: Bool

    /// A committed transaction's changes, as the change journal keeps them.
    public init(
        sequence: Int64, committedAt: Date, operations: [[AlbumChangeSet]], folderChanges: [FolderChange] = [], followsAGap: Bool = false,
        changedRights: Bool = false, addedPhotos: Bool = false
    ) {
        self.sequence = sequence
        self.committedAt = committedAt
        self.operations = operations
        self.folderChanges = folderChanges
        self.followsAGap = followsAGap
        self.changedRights = changedRights
        self.addedPhotos = addedPhotos
    }

    /// This change, saying that changes before it were missed.
    func followingAGap() -> CommittedChange {
        CommittedChange(
            sequence: sequence, committedAt: committedAt, operations: operations, folderChanges: folderChanges, followsAGap: true,
            changedRights: changedRights, addedPhotos: addedPhotos)
    }

    /// This change with only the album and folder changes `isSeen` keeps,
    /// or nil when nothing is left (and rights did not change), for one who
    /// does not see every photo: that photos were added is not theirs to hear
    /// (those of them in albums they see arrive as those albums' changes).
    ///
    /// With `theirRightsChanged` false, a change of someone else's rights is
    /// not theirs to hear either: it is left out as the albums are.
    public func narrowed(
        albums isSeenAlbum: (AlbumID) -> Bool, folders isSeenFolder: (FolderID) -> Bool, theirRightsChanged: Bool = true
    ) -> CommittedChange? {
        let operations = operations.map { $0.filter { isSeenAlbum($0.albumID) } }.filter { !$0.isEmpty }
        let folderChanges = folderChanges.filter { isSeenFolder($0.folderID) }
        let changedRights = changedRights && theirRightsChanged
        if operations.isEmpty && folderChanges.isEmpty && !changedRights { return nil }
        return CommittedChange(
            sequence: sequence, committedAt: committedAt, operations: operations, folderChanges: folderChanges, followsAGap: followsAGap,
            changedRights: changedRights, addedPhotos: false)
    }

    /// This change under another sequence number: the listener's own count
    /// of what they heard, which counts nothing they could not hear.
    func numbered(_ sequence: Int64) -> CommittedChange {
        CommittedChange(
            sequence: sequence, committedAt: committedAt, operations: operations, folderChanges: folderChanges, followsAGap: followsAGap,
            changedRights: changedRights, addedPhotos: addedPhotos)
    }

    /// Every change set of the transaction, operation after operation.
    public var changeSets: [AlbumChangeSet] { operations.flatMap { $0 } }
}
