import Foundation
import GRDB

extension LibraryReader {
    static let personColumns = "id, name, is_admin, is_disabled, created_at"
    /// The same columns of `person p`, for queries that join it.
    static let joinedPersonColumns = "p.id, p.name, p.is_admin, p.is_disabled, p.created_at"

    static func person(from row: Row) -> Person {
        Person(
            id: PersonID(rawValue: row["id"]), name: row["name"], isAdmin: row["is_admin"], isDisabled: row["is_disabled"],
            createdAt: Timestamp.date(row["created_at"]))
    }

    /// Every person, by name.
    public func people() throws -> [Person] {
        try Row.fetchAll(db, sql: "SELECT \(Self.personColumns) FROM person ORDER BY name COLLATE NOCASE").map(Self.person(from:))
    }

    /// The names of the people the principal may give a role to: only for
    /// those who may share something (the holder, admins, and owners of an
    /// album or folder), and names only, of people who may sign in.
    ///
    /// - Throws: ``LibraryError/forbidden(reason:)`` for anyone else.
    public func sharingDirectory() throws -> [String] {
        try requireSharingSomething()
        return try String.fetchAll(db, sql: "SELECT name FROM person WHERE is_disabled = 0 ORDER BY name COLLATE NOCASE")
    }

    /// The person named `name`, to be given a role by the principal: a
    /// disabled person is not found unless the holder or an admin asks, so
    /// that sharing tells an owner nothing more than the directory does.
    ///
    /// - Throws: ``LibraryError/personNotFound(_:)``.
    public func personForSharing(named name: String) throws -> Person {
        let person = try person(named: name)
        if person.isDisabled && !principal.holdsEveryRight { throw LibraryError.personNotFound(name) }
        return person
    }

    private func requireSharingSomething() throws {
        switch principal {
        case .holder: return
        case .person(let person) where person.isAdmin: return
        case .person(let person):
            let owns = try Bool.fetchOne(
                db, cachedSQL: "SELECT EXISTS (SELECT 1 FROM role_grant WHERE person_id = ? AND role = 'owner')", arguments: [person.id.rawValue])
            if owns == true { return }
        case .shareLink:
            break
        }
        throw LibraryError.forbidden(reason: "only an owner of an album or folder, or an admin, shares: ask one of them")
    }

    /// Whether the library has any person: then `albums serve` asks for a sign-in.
    public func hasPeople() throws -> Bool {
        try Bool.fetchOne(db, cachedSQL: "SELECT EXISTS (SELECT 1 FROM person)") ?? false
    }

    /// The person with `name` (without regard to case).
    ///
    /// - Throws: ``LibraryError/personNotFound(_:)``.
    public func person(named name: String) throws -> Person {
        guard let row = try Row.fetchOne(db, cachedSQL: "SELECT \(Self.personColumns) FROM person WHERE name = ?", arguments: [name]) else {
            throw LibraryError.personNotFound(name)
        }
        return Self.person(from: row)
    }

    /// The person with `id`, or nil when there is none.
    public func person(_ id: PersonID) throws -> Person? {
        try Row.fetchOne(db, cachedSQL: "SELECT \(Self.personColumns) FROM person WHERE id = ?", arguments: [id.rawValue]).map(Self.person(from:))
    }

    /// The person named `name` if `password` is theirs and they are not
    /// disabled; nil otherwise, after as long as a real check takes.
    ///
    /// bcrypt runs while this read holds its connection: a server uses
    /// ``Library/person(named:password:)``, which checks after the read.
    public func person(named name: String, password: String) throws -> Person? {
        try signInCandidate(named: name).person(ifPasswordIs: password)
    }

    /// What checking a sign-in needs from the file: the person named `name`
    /// and their hash; for a name no person has (or may have), a decoy
    /// hash of the cost the people's hashes have, so that the check takes
    /// as long and timing tells no names apart.
    package func signInCandidate(named name: String) throws -> SignInCandidate {
        // The cost most people's hashes have (the same for all, unless some were made with another).
        let usual = try String.fetchOne(
            db,
            cachedSQL: """
                SELECT password_hash FROM person
                GROUP BY substr(password_hash, 1, 7) ORDER BY count(*) DESC, min(id) LIMIT 1
                """)
        let decoy = PasswordHash.decoy(costing: usual.map(PasswordHash.init(text:)))
        if Person.problem(withName: name) == nil,
            let row = try Row.fetchOne(db, cachedSQL: "SELECT \(Self.personColumns), password_hash FROM person WHERE name = ?", arguments: [name])
        {
            return SignInCandidate(person: Self.person(from: row), hash: PasswordHash(text: row["password_hash"]), decoy: decoy)
        }
        return SignInCandidate(person: nil, hash: decoy, decoy: decoy)
    }

    /// Who holds which role on `album`, as its owner may be told: the roles
    /// given on the album, and those given on the folders above it that the
    /// principal sees (by their path as they see it; nil: on the album).
    ///
    /// - Throws: ``LibraryError/forbidden(reason:)`` unless the principal owns the album.
    public func rolesShown(on album: Album) throws -> [(person: String, role: Role, givenOn: String?)] {
        try require(.owner, on: album)
        var shownFolders: [FolderID: String] = [:]
        var folder = album.parentID
        while let id = folder {
            let above = try self.folder(id)
            if try role(on: above) != nil { shownFolders[id] = try path(of: id) }
            folder = above.parentID
        }
        let names = Dictionary(uniqueKeysWithValues: try people().map { ($0.id, $0.name) })
        return try grants().compactMap { grant in
            guard let name = names[grant.person] else { return nil }
            switch grant.target {
            case .album(let id) where id == album.id: return (name, grant.role, nil)
            case .folder(let id): return shownFolders[id].map { (name, grant.role, $0) }
            default: return nil
            }
        }
    }

    /// The roles given on albums and folders: to one person, or to everyone.
    public func grants(of person: PersonID? = nil) throws -> [RoleGrant] {
        let rows = try Row.fetchAll(
            db, sql: "SELECT person_id, album_id, folder_id, role FROM role_grant WHERE ?1 IS NULL OR person_id = ?1 ORDER BY id",
            arguments: [person?.rawValue])
        return rows.compactMap { row in
            guard let role = Role(rawValue: row[3]) else { return nil }
            return RoleGrant(person: PersonID(rawValue: row[0]), target: GrantTarget(albumID: row[1], folderID: row[2]), role: role)
        }
    }
}

/// A sign-in to check: who it would be, and the hash to check against
/// (a decoy's when nobody has the name).
package struct SignInCandidate: Sendable {
    package let person: Person?
    package let hash: PasswordHash
    /// A hash of the usual cost that no password matches.
    package let decoy: PasswordHash

    /// The person, if `password` matches and they may sign in.
    ///
    /// A failure costs at least what the usual hash costs: a person whose
    /// hash was made cheaper (by an older version, or a test's cost) fails
    /// as slowly as an unknown name, so timing tells neither apart.
    func person(ifPasswordIs password: String) -> Person? {
        let matches = hash.matches(password)
        if !matches, hash != decoy, (hash.cost ?? 0) < (decoy.cost ?? 0) { _ = decoy.matches(password) }
        guard matches, let person, !person.isDisabled else { return nil }
        return person
    }

    /// Whether the person's hash is cheaper than the usual one: it is
    /// made again at the usual cost once they sign in with it.
    package var needsRehash: Bool {
        person != nil && (hash.cost ?? 0) < (decoy.cost ?? 0)
    }
}

extension Library {
    /// The person named `name` if `password` is theirs and they are not
    /// disabled; nil otherwise, after as long as a real check takes (a
    /// name nobody has costs the same bcrypt work as a wrong password).
    ///
    /// The password is checked after the read has given back its
    /// connection: a burst of sign-ins, a quarter of a second of bcrypt
    /// each, never keeps other requests from reading.
    ///
    /// Checks run on ``PasswordChecks``'s bounded pool, never on the
    /// threads that serve requests. A person whose hash is cheaper than
    /// the others' gets a new one at their cost when they sign in.
    public func person(named name: String, password: String) async throws -> Person? {
        let candidate = try await read { try $0.signInCandidate(named: name) }
        let person = await PasswordChecks.shared.run { candidate.person(ifPasswordIs: password) }
        if let person, candidate.needsRehash, let cost = candidate.decoy.cost {
            let rehashed = await PasswordChecks.shared.run { try? PasswordHash(password: password, cost: cost) }
            // Best effort: a library that cannot be written (read-only media) still signs people in.
            if let rehashed { _ = try? await write { try $0.replacePasswordHash(of: person.id, was: candidate.hash, with: rehashed) } }
        }
        return person
    }
}
