import GRDB

/// What the principal of one read or write may see and change, worked out
/// as it is asked and remembered for the rest of that access.
final class AccessRights {
    let principal: Principal
    /// The person's roles by what they are given on (read once).
    private var grants: [GrantTarget: Role]?
    /// Each folder's parent, as far as it has been looked up.
    private var parents: [FolderID: FolderID?] = [:]

    init(principal: Principal) {
        self.principal = principal
    }

    func roles(in db: Database) throws -> [GrantTarget: Role] {
        if let grants { return grants }
        guard case .person(let person) = principal else { return [:] }
        var roles: [GrantTarget: Role] = [:]
        for row in try Row.fetchAll(
            db, cachedSQL: "SELECT album_id, folder_id, role FROM role_grant WHERE person_id = ?", arguments: [person.id.rawValue])
        {
            guard let role = Role(rawValue: row[2]) else { continue }
            roles[GrantTarget(albumID: row[0], folderID: row[1])] = role
        }
        grants = roles
        return roles
    }

    /// The highest role that reaches a node whose own grant target is
    /// `target` and whose parent is `parent`: its own, or any folder's above it.
    func role(of target: GrantTarget, parent: FolderID?, in db: Database) throws -> Role? {
        switch principal {
        case .holder:
            return .owner
        case .person(let person) where person.isAdmin:
            return .owner
        case .shareLink(_, let album):
            return target == .album(album) ? .viewer : nil
        case .person:
            let roles = try roles(in: db)
            if roles.isEmpty { return nil }
            var best = roles[target]
            var folder = parent
            while let current = folder {
                if let role = roles[.folder(current)], best.map({ role > $0 }) ?? true { best = role }
                folder = try self.parent(of: current, in: db)
            }
            return best
        }
    }

    private func parent(of folder: FolderID, in db: Database) throws -> FolderID? {
        if let known = parents[folder] { return known }
        let parent = try Int64.fetchOne(db, cachedSQL: "SELECT parent_id FROM folder WHERE id = ?", arguments: [folder.rawValue])
            .map(FolderID.init(rawValue:))
        parents[folder] = parent
        return parent
    }
}

extension LibraryReader {
    /// Acts for `principal` from now on: what it reads is checked against
    /// their rights, and what it writes too, and is recorded as theirs.
    public func act(as principal: Principal) {
        rights = AccessRights(principal: principal)
    }

    /// Who this access acts for (``Principal/holder`` unless told otherwise).
    public var principal: Principal { rights?.principal ?? .holder }

    /// The role the principal holds on `album`: their own on it, or one on
    /// a folder above it; the holder and admins are owners of everything.
    public func role(on album: Album) throws -> Role? {
        guard let rights else { return .owner }
        return try rights.role(of: .album(album.id), parent: album.parentID, in: db)
    }

    /// The role the principal holds on `folder` and so on all it holds.
    public func role(on folder: Folder) throws -> Role? {
        guard let rights else { return .owner }
        return try rights.role(of: .folder(folder.id), parent: folder.parentID, in: db)
    }

    /// Whether the principal may see `album`.
    public func canSee(_ album: Album) throws -> Bool {
        try role(on: album) != nil
    }

    /// Refuses unless the principal holds `needed` on `album`: an album
    /// they cannot see is not found, as if it did not exist.
    ///
    /// - Throws: ``LibraryError/albumNotFound(_:)``, ``LibraryError/forbidden(reason:)``.
    public func require(_ needed: Role, on album: Album) throws {
        guard let held = try role(on: album) else { throw LibraryError.albumNotFound(.named(album.name)) }
        if held < needed { throw LibraryError.forbidden(reason: Self.refusal(held: held, needed: needed, what: LibraryError.quoted(album.name), by: principal)) }
    }

    /// Refuses unless the principal holds `needed` on `folder` (nil: the
    /// top level, which only the holder and admins arrange).
    ///
    /// - Throws: ``LibraryError/folderNotFound(_:)``, ``LibraryError/forbidden(reason:)``.
    public func require(_ needed: Role, on folder: Folder?) throws {
        guard let folder else {
            if principal.holdsEveryRight { return }
            throw LibraryError.forbidden(reason: "only an admin arranges the library's top level")
        }
        guard let held = try role(on: folder) else { throw LibraryError.folderNotFound(.id(folder.id)) }
        if held < needed {
            throw LibraryError.forbidden(reason: Self.refusal(held: held, needed: needed, what: "folder \(LibraryError.quoted(try path(of: folder.id)))", by: principal))
        }
    }

    /// "you can view 'Wedding' but not change it".
    static func refusal(held: Role, needed: Role, what: String, by principal: Principal) -> String {
        if case .shareLink = principal { return "a share link shows \(what) read-only" }
        switch (held, needed) {
        case (.viewer, _): return "you can view \(what) but not change it"
        default: return "you can change \(what) but not delete, move or share it: that takes its owner"
        }
    }

    /// The albums the principal can see, by id; nil when they see them all.
    public func visibleAlbumIDs() throws -> Set<AlbumID>? {
        switch principal {
        case .holder: return nil
        case .person(let person) where person.isAdmin: return nil
        case .shareLink(_, let album): return [album]
        case .person(let person):
            let ids = try Int64.fetchAll(
                db,
                cachedSQL: """
                    WITH RECURSIVE granted (id) AS (
                        SELECT folder_id FROM role_grant WHERE person_id = ?1 AND folder_id IS NOT NULL
                        UNION SELECT folder.id FROM folder JOIN granted ON folder.parent_id = granted.id)
                    SELECT id FROM album WHERE parent_id IN granted
                    UNION SELECT album_id FROM role_grant WHERE person_id = ?1 AND album_id IS NOT NULL
                    """, arguments: [person.id.rawValue])
            return Set(ids.map(AlbumID.init(rawValue:)))
        }
    }

    /// The folders the principal can see, by id; nil when they see them all.
    public func visibleFolderIDs() throws -> Set<FolderID>? {
        switch principal {
        case .holder: return nil
        case .person(let person) where person.isAdmin: return nil
        case .shareLink: return []
        case .person(let person):
            let ids = try Int64.fetchAll(
                db,
                cachedSQL: """
                    WITH RECURSIVE granted (id) AS (
                        SELECT folder_id FROM role_grant WHERE person_id = ? AND folder_id IS NOT NULL
                        UNION SELECT folder.id FROM folder JOIN granted ON folder.parent_id = granted.id)
                    SELECT id FROM granted
                    """, arguments: [person.id.rawValue])
            return Set(ids.map(FolderID.init(rawValue:)))
        }
    }

    /// The name `photo` goes by for the principal where it is not the
    /// photo's own: the name of an item of it they see, when every item of it
    /// they see has one (bytes they uploaded again under another name); nil:
    /// its own name.
    public func nameAsSeen(of photo: PhotoID) throws -> String? {
        try nameAsSeen(of: photo, among: try visibleAlbumIDs())
    }

    /// ``nameAsSeen(of:)`` with the albums the principal sees already worked
    /// out (nil: all), for callers that name many photos at once.
    func nameAsSeen(of photo: PhotoID, among visible: Set<AlbumID>?) throws -> String? {
        guard let visible else { return nil }
        let names = try Row.fetchAll(
            db, cachedSQL: "SELECT album_id, file_name FROM album_item WHERE photo_id = ? ORDER BY id", arguments: [photo.rawValue]
        ).filter { visible.contains(AlbumID(rawValue: $0[0])) }.map { $0[1] as String? }
        if names.isEmpty || names.contains(where: { $0 == nil }) { return nil }
        return names.first!
    }

    /// Whether the principal may see `photo`: it stands in an album they can see.
    public func canSee(_ photo: PhotoID) throws -> Bool {
        guard let visible = try visibleAlbumIDs() else { return true }
        let holders = try Int64.fetchAll(db, cachedSQL: "SELECT DISTINCT album_id FROM album_item WHERE photo_id = ?", arguments: [photo.rawValue])
        return holders.contains { visible.contains(AlbumID(rawValue: $0)) }
    }
}

extension LibraryReader {
    /// Refuses moving `node` from where it stands to `destination` (see
    /// ``requireArranging(_:from:to:)``).
    func requireArranging(_ node: TreeNode, to destination: Folder?) throws {
        guard rights != nil, !principal.holdsEveryRight else { return }
        try requireArranging(node, from: try node.parentID.map { try folder($0) }, to: destination)
    }

    /// Refuses a new album or folder in `parent` unless the principal edits
    /// it; the top level is an admin's. What a person creates is theirs.
    func requireCreating(in parent: Folder?) throws {
        guard rights != nil else { return }
        if case .shareLink = principal { throw LibraryError.forbidden(reason: "a share link shows its album read-only") }
        try require(.editor, on: parent)
    }

    /// Refuses moving `node` from where it is to `destination` unless the
    /// principal may take it out (they own it, or edit the folder it is
    /// in) and put it there (they edit that folder; at the top level,
    /// they own it).
    func requireArranging(_ node: TreeNode, from origin: Folder?, to destination: Folder?) throws {
        guard rights != nil, !principal.holdsEveryRight else { return }
        // A folder they cannot see is, for them, the top level their node stands at.
        let origin = try origin.flatMap { try role(on: $0) == nil ? nil : $0 }
        let held: Role?
        switch node {
        case .album(let album):
            held = try role(on: album)
            if held == nil { throw LibraryError.albumNotFound(.named(album.name)) }
        case .folder(let folder):
            held = try role(on: folder)
            if held == nil { throw LibraryError.folderNotFound(.id(folder.id)) }
        }
        let owned = held == .owner
        if !owned { try require(.editor, on: origin) }
        if destination != nil || !owned { try require(.editor, on: destination) }
    }
}
