import Foundation

/// The stable identifier of a person who signs in to `albums serve`.
public struct PersonID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }
    public var description: String { String(rawValue) }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Someone who signs in to `albums serve` with a name and a password.
///
/// What they see and change is what their roles give them (``Role``), or
/// everything if they are an admin. The file's holder, the CLI, is not a
/// person and is never checked.
public struct Person: Identifiable, Hashable, Sendable {
    public let id: PersonID
    /// Letters, digits and `. _ - @`, 1–64 of them; unique without regard to case.
    public let name: String
    /// Holds every right on every album and folder.
    public let isAdmin: Bool
    /// Cannot sign in; their sessions have ended.
    public let isDisabled: Bool
    /// When the person was added.
    public let createdAt: Date

    /// A person as read from the library.
    public init(id: PersonID, name: String, isAdmin: Bool, isDisabled: Bool, createdAt: Date) {
        self.id = id
        self.name = name
        self.isAdmin = isAdmin
        self.isDisabled = isDisabled
        self.createdAt = createdAt
    }

    /// The most characters a name holds.
    public static let maximumNameLength = 64

    /// Why `name` cannot name a person, or nil when it can.
    public static func problem(withName name: String) -> String? {
        if name.isEmpty { return "a name needs at least one character" }
        if name.count > maximumNameLength { return "a name holds at most \(maximumNameLength) characters" }
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-@")
        if let other = name.first(where: { !allowed.contains($0) }) {
            return "a name holds letters, digits and . _ - @ only, not '\(other)'"
        }
        return nil
    }
}

/// What a person may do with an album, or with a folder and all it holds.
///
/// Each role holds the rights of those below it: an owner edits and views.
public enum Role: String, Hashable, Sendable, Comparable, CaseIterable, CustomStringConvertible {
    /// Sees the album in order, its photos and their originals.
    case viewer
    /// Also arranges, adds, removes and renames.
    case editor
    /// Also deletes, moves it in the tree, and shares it.
    case owner

    public static func < (lhs: Role, rhs: Role) -> Bool { lhs.rank < rhs.rank }

    private var rank: Int {
        switch self {
        case .viewer: 0
        case .editor: 1
        case .owner: 2
        }
    }

    public var description: String { rawValue }
}

/// What a role is given on: one album, or a folder and everything inside it.
public enum GrantTarget: Hashable, Sendable {
    /// One album.
    case album(AlbumID)
    /// A folder, and everything in it at any depth.
    case folder(FolderID)

    /// From a `role_grant` row's two columns, exactly one of which is set.
    init(albumID: Int64?, folderID: Int64?) {
        if let albumID { self = .album(AlbumID(rawValue: albumID)) } else { self = .folder(FolderID(rawValue: folderID ?? 0)) }
    }

    /// The `role_grant` column naming it, and its id there.
    var column: (name: String, id: Int64) {
        switch self {
        case .album(let album): ("album_id", album.rawValue)
        case .folder(let folder): ("folder_id", folder.rawValue)
        }
    }
}

/// A role a person holds on an album or a folder.
public struct RoleGrant: Hashable, Sendable {
    /// Who holds the role.
    public let person: PersonID
    /// What it is held on.
    public let target: GrantTarget
    /// The role.
    public let role: Role

    /// `person` holds `role` on `target`.
    public init(person: PersonID, target: GrantTarget, role: Role) {
        self.person = person
        self.target = target
        self.role = role
    }
}
