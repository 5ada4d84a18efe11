import Foundation

/// What a request showed to say who it is, kept by whatever outlives the
/// request (an open change stream) so that its rights can be asked again
/// as they change.
public enum Credential: Hashable, Sendable {
    /// The file's holder (the CLI, an app linking the library): holds every right, always.
    case holder
    /// The session token `albums serve` prints: it acts for the holder
    /// while the library has no people, and opens nothing once it has.
    case serverToken
    /// A signed-in person's session cookie: it acts for them until they
    /// sign out, their session ends, or they are disabled or removed.
    case personSession(token: String)
}

extension LibraryReader {
    /// Whom `credential` acts for now, as the file stands: nil when it
    /// opens nothing any more.
    public func principal(presenting credential: Credential, now: Date = Date()) throws -> Principal? {
        switch credential {
        case .holder: .holder
        case .serverToken: try hasPeople() ? nil : .holder
        case .personSession(let token): try person(signedInWith: token, now: now).map(Principal.person)
        }
    }
}
