/// What one transaction did to one folder of the tree: a UI showing the
/// tree reloads the children of each folder named here (``Event/rearranged``)
/// and redraws the folder itself for the other events.
///
/// Albums moved in the tree are reported in their own change sets
/// (``AlbumChangeSet/AlbumEvent/moved``).
public struct FolderChange: Hashable, Sendable {
    /// What happened to a folder.
    public enum Event: String, Hashable, Sendable {
        /// The folder was created, renamed, deleted, moved, locked or unlocked.
        case created, renamed, deleted, moved, locked, unlocked
        /// Its list of children changed: something entered, left or moved inside it.
        case rearranged
    }

    /// The folder changed: its id follows it through renames and moves.
    public let folderID: FolderID
    /// The folder's name after the change.
    public package(set) var name: String
    /// The folder's revision once the change is committed.
    public let revision: Int64
    /// What happened to it, in order, each event once.
    public package(set) var events: [Event] = []

    /// A folder's change at the revision it gives the folder.
    public init(folderID: FolderID, name: String, revision: Int64, events: [Event] = []) {
        self.folderID = folderID
        self.name = name
        self.revision = revision
        self.events = events
    }

    package mutating func note(_ event: Event) {
        if !events.contains(event) { events.append(event) }
    }
}

extension FolderChange.Event {
    /// The events in the order the change journal numbers them: append only.
    static let journalOrder: [Self] = [.created, .renamed, .deleted, .moved, .locked, .unlocked, .rearranged]
}
