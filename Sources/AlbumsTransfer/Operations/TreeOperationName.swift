/// The name of each album and folder operation, spelled here only: in a
/// batch line's `op`, in ``AlbumOperation/name`` and ``FolderOperation/name``,
/// and in the keys each line takes.
public enum TreeOperationName: String, CaseIterable, Sendable {
    /// A new album.
    case createAlbum = "create_album"
    /// An album named anew.
    case renameAlbum = "rename_album"
    /// An album deleted (its photos stay in the library).
    case deleteAlbum = "delete_album"
    /// An album elsewhere in the tree.
    case moveAlbum = "move_album"
    /// An album locked: nothing enters, leaves or moves in it.
    case lockAlbum = "lock_album"
    /// An album unlocked.
    case unlockAlbum = "unlock_album"
    /// An album's items sorted by a key.
    case sortAlbum = "sort_album"
    /// An album's cover chosen, or given back to its first photo.
    case setAlbumCover = "set_album_cover"
    /// A new smart album: a saved search shown as an album.
    case createSmartAlbum = "create_smart_album"
    /// A smart album made an ordinary one, holding what it showed.
    case freezeAlbum = "freeze_album"
    /// An album's description written, changed or cleared.
    case describeAlbum = "describe_album"
    /// A new folder.
    case createFolder = "create_folder"
    /// A folder named anew.
    case renameFolder = "rename_folder"
    /// A folder deleted, with a choice of what becomes of what it holds.
    case deleteFolder = "delete_folder"
    /// A folder, with everything in it, elsewhere in the tree.
    case moveFolder = "move_folder"
    /// A folder's list of children locked.
    case lockFolder = "lock_folder"
    /// A folder unlocked.
    case unlockFolder = "unlock_folder"

    /// Whether it changes a folder (else an album).
    public var isFolderOperation: Bool {
        switch self {
        case .createFolder, .renameFolder, .deleteFolder, .moveFolder, .lockFolder, .unlockFolder: true
        default: false
        }
    }

    /// The keys its batch line takes, besides `op` and `expect_revision`.
    public var keys: Set<String> {
        let placement: Set<String> = ["into", "at", "before", "after"]
        return switch self {
        case .createAlbum, .createFolder: placement.union(["name"])
        case .renameAlbum: ["album", "name"]
        case .deleteAlbum: ["album", "force"]
        case .moveAlbum: placement.union(["album"])
        case .lockAlbum, .unlockAlbum: ["album"]
        case .sortAlbum: ["album", "by", "descending"]
        case .setAlbumCover: ["album", "photo"]
        case .createSmartAlbum: placement.union(["name", "search"])
        case .freezeAlbum: ["album"]
        case .describeAlbum: ["album", "description"]
        case .renameFolder: ["folder", "name"]
        case .deleteFolder: ["folder", "contents", "force"]
        case .moveFolder: placement.union(["folder"])
        case .lockFolder, .unlockFolder: ["folder"]
        }
    }

    /// What it did, as a result's verdict says it: `created`, `renamed`,
    /// `deleted`, `moved`, `locked`, `unlocked`, `sorted`, `cover_changed`, `frozen`, `described`.
    public var pastTense: String {
        switch self {
        case .createAlbum, .createFolder, .createSmartAlbum: "created"
        case .renameAlbum, .renameFolder: "renamed"
        case .deleteAlbum, .deleteFolder: "deleted"
        case .moveAlbum, .moveFolder: "moved"
        case .lockAlbum, .lockFolder: "locked"
        case .unlockAlbum, .unlockFolder: "unlocked"
        case .sortAlbum: "sorted"
        case .setAlbumCover: "cover_changed"
        case .freezeAlbum: "frozen"
        case .describeAlbum: "described"
        }
    }
}
