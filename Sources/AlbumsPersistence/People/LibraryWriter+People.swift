import Foundation
import GRDB

extension LibraryWriter {
    /// Adds a person who can sign in to `albums serve`.
    ///
    /// ```swift
    /// try library.write { try $0.addPerson(named: "ana", password: PasswordHash(password: secret), isAdmin: true) }
    /// ```
    ///
    /// - Throws: ``LibraryError/invalidPersonName(_:reason:)``, ``LibraryError/personNameTaken(_:)``.
    @discardableResult
    public func addPerson(named name: String, password: PasswordHash, isAdmin: Bool = false) throws -> Person {
        if let problem = Person.problem(withName: name) { throw LibraryError.invalidPersonName(name, reason: problem) }
        if try Bool.fetchOne(db, cachedSQL: "SELECT EXISTS (SELECT 1 FROM person WHERE name = ?)", arguments: [name]) == true {
            throw LibraryError.personNameTaken(name)
        }
        try db.execute(
            cachedSQL: "INSERT INTO person (name, password_hash, is_admin) VALUES (?, ?, ?)", arguments: [name, password.text, isAdmin])
        // The server's token opens nothing once the library has people: its streams end.
        noteRightsChanged()
        return try person(named: name)
    }

    /// Gives `person` a new password and ends their sessions.
    ///
    /// - Throws: ``LibraryError/personNotFound(_:)``.
    public func setPassword(of name: String, to password: PasswordHash) throws {
        let person = try person(named: name)
        try db.execute(cachedSQL: "UPDATE person SET password_hash = ? WHERE id = ?", arguments: [password.text, person.id.rawValue])
        try endSessions(of: person.id)
    }

    /// Stores `new` as the person's hash of the same password, if their
    /// hash is still `old` (a password changed meanwhile wins). Their
    /// sessions go on: the password did not change, only its hash's cost.
    package func replacePasswordHash(of person: PersonID, was old: PasswordHash, with new: PasswordHash) throws {
        try db.execute(
            cachedSQL: "UPDATE person SET password_hash = ? WHERE id = ? AND password_hash = ?", arguments: [new.text, person.rawValue, old.text])
    }

    /// Disables (or enables again) a person: a disabled one cannot sign
    /// in, and their sessions end at once.
    ///
    /// - Throws: ``LibraryError/personNotFound(_:)``.
    @discardableResult
    public func setDisabled(_ name: String, _ isDisabled: Bool) throws -> Person {
        let person = try person(named: name)
        try db.execute(cachedSQL: "UPDATE person SET is_disabled = ? WHERE id = ?", arguments: [isDisabled, person.id.rawValue])
        noteRightsChanged()
        if isDisabled { try endSessions(of: person.id) }
        return try self.person(named: name)
    }

    /// Makes a person an admin, or takes it away.
    ///
    /// - Throws: ``LibraryError/personNotFound(_:)``.
    @discardableResult
    public func setAdmin(_ name: String, _ isAdmin: Bool) throws -> Person {
        let person = try person(named: name)
        try db.execute(cachedSQL: "UPDATE person SET is_admin = ? WHERE id = ?", arguments: [isAdmin, person.id.rawValue])
        noteRightsChanged()
        return try self.person(named: name)
    }

    /// Removes a person with their roles and sessions. The history keeps
    /// the name they made changes under.
    ///
    /// - Throws: ``LibraryError/personNotFound(_:)``.
    public func removePerson(named name: String) throws {
        let person = try person(named: name)
        try db.execute(cachedSQL: "DELETE FROM person WHERE id = ?", arguments: [person.id.rawValue])
        noteRightsChanged()
    }

    /// Gives `person` `role` on an album or a folder (replacing the role
    /// they had there); nil takes it away.
    ///
    /// ```swift
    /// try library.write { writer in
    ///     let grandma = try writer.person(named: "grandma")
    ///     try writer.setRole(.viewer, of: grandma.id, on: .album(wedding.id))
    /// }
    /// ```
    ///
    /// Only the holder, admins and the owner of the album or folder share it.
    ///
    /// - Throws: ``LibraryError/forbidden(reason:)`` for anyone else.
    public func setRole(_ role: Role?, of person: PersonID, on target: GrantTarget) throws {
        switch target {
        case .album(let id): try require(.owner, on: try album(id))
        case .folder(let id): try require(.owner, on: try folder(id) as Folder?)
        }
        let (column, id) = target.column
        try db.execute(sql: "DELETE FROM role_grant WHERE person_id = ? AND \(column) = ?", arguments: [person.rawValue, id])
        if let role {
            try db.execute(
                sql: "INSERT INTO role_grant (person_id, \(column), role) VALUES (?, ?, ?)", arguments: [person.rawValue, id, role.rawValue])
        }
        rights = rights.map { AccessRights(principal: $0.principal) }
        noteRightsChanged()
    }

    /// Makes whoever this access acts for the owner of what they just
    /// created, unless they own everything already.
    func grantOwnershipToCreator(_ target: GrantTarget) throws {
        guard case .person(let person) = principal, !person.isAdmin else { return }
        let (column, id) = target.column
        try db.execute(sql: "INSERT INTO role_grant (person_id, \(column), role) VALUES (?, ?, 'owner')", arguments: [person.id.rawValue, id])
        rights = rights.map { AccessRights(principal: $0.principal) }
    }
}
