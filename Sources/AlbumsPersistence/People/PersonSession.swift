import Crypto
import Foundation
import GRDB

/// A browser signed in as a person: the cookie holds ``token``; the file
/// holds only its SHA-256, so a copy of the file signs nobody in.
public struct PersonSession: Sendable {
    /// What the cookie carries: 256 random bits as 64 hexadecimal digits.
    public let token: String
    /// Who is signed in.
    public let person: Person
    /// When the session ends unless signed out before.
    public let expiresAt: Date

    /// How long a session lasts unless signed out: 30 days.
    public static let lifetime: TimeInterval = 30 * 24 * 3600

    /// 256 bits from the system's generator, as hexadecimal.
    static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return HexDigits.string((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    static func digest(_ token: String) -> String {
        HexDigits.string(SHA256.hash(data: Data(token.utf8)))
    }
}

extension LibraryWriter {
    /// Opens a session for `person`, which lasts ``PersonSession/lifetime``.
    public func openSession(for person: Person, now: Date = Date()) throws -> PersonSession {
        let token = PersonSession.newToken()
        let expiry = now.addingTimeInterval(PersonSession.lifetime)
        // Expired sessions of anyone go as new ones come: the table stays small.
        try db.execute(cachedSQL: "DELETE FROM person_session WHERE expires_at <= ?", arguments: [Timestamp.text(now)])
        try db.execute(
            cachedSQL: "INSERT INTO person_session (token_sha256, person_id, expires_at) VALUES (?, ?, ?)",
            arguments: [PersonSession.digest(token), person.id.rawValue, Timestamp.text(expiry)])
        return PersonSession(token: token, person: person, expiresAt: expiry)
    }

    /// Ends the session whose cookie holds `token` (signing out). A token
    /// already ended or never issued is no error.
    public func closeSession(token: String) throws {
        try db.execute(cachedSQL: "DELETE FROM person_session WHERE token_sha256 = ?", arguments: [PersonSession.digest(token)])
        if db.changesCount > 0 { noteRightsChanged() }
    }

    /// Ends every session of `person`.
    public func endSessions(of person: PersonID) throws {
        try db.execute(cachedSQL: "DELETE FROM person_session WHERE person_id = ?", arguments: [person.rawValue])
        if db.changesCount > 0 { noteRightsChanged() }
    }
}

extension LibraryReader {
    /// The person whose live session `token` is, or nil: unknown, expired,
    /// or the person is disabled or gone.
    public func person(signedInWith token: String, now: Date = Date()) throws -> Person? {
        guard token.utf8.count == 64 else { return nil }
        let row = try Row.fetchOne(
            db,
            cachedSQL: """
                SELECT \(Self.joinedPersonColumns)
                FROM person_session s JOIN person p ON p.id = s.person_id
                WHERE s.token_sha256 = ? AND s.expires_at > ? AND p.is_disabled = 0
                """, arguments: [PersonSession.digest(token), Timestamp.text(now)])
        return row.map(Self.person(from:))
    }
}
