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
    /// A principal an app acts for on its own (an app that signs people
    /// in itself, or shows a share link's album): a person while they are
    /// there and not disabled, a share link while it is live.
    case acting(Principal)
}

extension LibraryReader {
    /// Whom `credential` acts for now, as the file stands: nil when it
    /// opens nothing any more.
    public func principal(presenting credential: Credential, now: Date = Date()) throws -> Principal? {
        switch credential {
        case .holder: .holder
        case .serverToken: try hasPeople() ? nil : .holder
        case .personSession(let token): try person(signedInWith: token, now: now).map(Principal.person)
        case .acting(.holder): .holder
        case .acting(.person(let person)): try self.person(person.id).flatMap { $0.isDisabled ? nil : Principal.person($0) }
        case .acting(.shareLink(let id, _)): try shareLink(id).flatMap { $0.isLive(at: now) ? Principal.shareLink($0.id, album: $0.album) : nil }
        }
    }
}
