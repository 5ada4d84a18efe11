/// A folder of the library's tree: it holds albums and folders in a manual order.
public struct Folder: Identifiable, Hashable, Sendable {
    public let id: FolderID
    /// Unique among the names of its parent's children (albums and folders); never holds a '/'.
    public let name: String
    /// The folder holding this one; nil at the library's top level.
    public let parentID: FolderID?
    /// 0-based place among its parent's children (albums and folders together).
    public let index: Int
    /// While locked, nothing enters, leaves or moves inside the folder.
    public let isLocked: Bool
    /// Grows with every committed transaction that changes the folder or its children's list.
    public let revision: Int64

    /// A folder as read from the library.
    public init(id: FolderID, name: String, parentID: FolderID?, index: Int, isLocked: Bool, revision: Int64) {
        self.id = id
        self.name = name
        self.parentID = parentID
        self.index = index
        self.isLocked = isLocked
        self.revision = revision
    }
}

/// A folder, named as a person would (by its path from the top level,
/// "Travel/2026") or as an app would (by id).
public enum FolderReference: Hashable, Sendable, CustomStringConvertible {
    /// By its path from the top level: `Travel/2026`.
    case path(String)
    /// By its id.
    case id(FolderID)

    public var description: String {
        switch self {
        case .path(let path): LibraryError.quoted(path)
        case .id(let id): "folder \(id)"
        }
    }
}

/// An album or a folder: a node of the library's tree.
public enum TreeNodeReference: Hashable, Sendable, CustomStringConvertible {
    /// An album, by name or id.
    case album(AlbumReference)
    /// A folder, by path or id.
    case folder(FolderReference)
    /// An album by name or path, else a folder by path (what a person types
    /// for `--before X`).
    case named(String)

    public var description: String {
        switch self {
        case .album(let album): album.description
        case .folder(let folder): folder.description
        case .named(let name): LibraryError.quoted(name)
        }
    }
}

/// Where an album or a folder goes in the tree.
public enum TreePlacement: Hashable, Sendable {
    /// Last among the folder's children; nil is the top level.
    case into(FolderReference?)
    /// At a 0-based place among the folder's children afterwards; nil is the top level.
    case at(Int, in: FolderReference?)
    /// At a 0-based place among the children of the parent it is in (a
    /// reorder); a new album or folder goes to the top level.
    case position(Int)
    /// Just before an album or folder, in its parent.
    case before(TreeNodeReference)
    /// Just after an album or folder, in its parent.
    case after(TreeNodeReference)
}
