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
    public func person(named name: String, password: String) throws -> Person? {
        guard Person.problem(withName: name) == nil,
            let row = try Row.fetchOne(db, cachedSQL: "SELECT \(Self.personColumns), password_hash FROM person WHERE name = ?", arguments: [name])
        else {
            PasswordHash.spendCheckingTime(password)
            return nil
        }
        let person = Self.person(from: row)
        let matches = PasswordHash(text: row["password_hash"]).matches(password)
        return matches && !person.isDisabled ? person : nil
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
