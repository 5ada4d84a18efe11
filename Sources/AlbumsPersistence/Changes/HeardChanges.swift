import Foundation

/// The committed changes someone may hear, each checked against their
/// rights as they stand when it is handed out, not as they stood when
/// they began listening (see ``Library/changes(heardBy:pollingInterval:)``).
/// A change read late is judged by the rights of the moment it is read:
/// one committed just before a right ended is not heard.
///
/// A change is narrowed to the albums and folders its listener sees when
/// it arrives; the sequence ends, before handing out anything more, once
/// their credential opens nothing (they signed out, were disabled or
/// removed, were given a new password; a server token once the library
/// has people). A change with ``CommittedChange/changedRights`` tells the
/// listener to ask again what they may see: a role given or taken. A
/// person hears it only when their own rights changed (what they see,
/// their roles, being an admin), and their changes are numbered by their
/// own count, 1, 2, 3…: neither tells them of what others were given or
/// did where they cannot see.
public struct HeardChanges: AsyncSequence, Sendable {
    public typealias Element = CommittedChange

    let changes: AsyncStream<CommittedChange>
    let library: Library
    let credential: Credential
    /// The listener's rights when they began listening.
    let rightsAtStart: RightsHeld?

    public func makeAsyncIterator() -> Iterator {
        Iterator(changes: changes.makeAsyncIterator(), library: library, credential: credential, rights: rightsAtStart)
    }

    /// What a person may see and do, compared from one change to the next
    /// to tell whether a change of rights was theirs.
    struct RightsHeld: Equatable, Sendable {
        let albums: Set<AlbumID>?
        let folders: Set<FolderID>?
        let grants: Set<RoleGrant>
        let isAdmin: Bool

        /// `reader`'s principal's, as it acts now; nil for whoever is no person.
        init?(_ reader: LibraryReader) throws {
            guard case .person(let person) = reader.principal else { return nil }
            albums = try reader.visibleAlbumIDs()
            folders = try reader.visibleFolderIDs()
            grants = Set(try reader.grants(of: person.id))
            isAdmin = person.isAdmin
        }
    }

    /// Pulls one change at a time: nothing is buffered here beyond what
    /// the library's own stream holds for a listener that does not read.
    public struct Iterator: AsyncIteratorProtocol {
        var changes: AsyncStream<CommittedChange>.AsyncIterator
        let library: Library
        let credential: Credential
        /// The listener's rights as of the last change they heard.
        var rights: RightsHeld?
        /// How many changes a person has heard: their changes' numbers.
        var heardCount: Int64 = 0
        var hasEnded = false

        public mutating func next() async -> CommittedChange? {
            while !hasEnded, let change = await changes.next() {
                switch await Self.hear(change, by: credential, in: library, rightsBefore: rights) {
                case .heard(let heard, let rightsNow):
                    guard let rightsNow else { return heard }
                    rights = rightsNow
                    heardCount += 1
                    return heard.numbered(heardCount)
                case .nothing(let rightsNow):
                    if let rightsNow { rights = rightsNow }
                    continue
                case .ended: hasEnded = true
                }
            }
            return nil
        }

        enum Hearing: Sendable {
            /// The change as they hear it, and a person's rights as they stand.
            case heard(CommittedChange, rights: RightsHeld?)
            case nothing(rights: RightsHeld?)
            /// The credential opens nothing any more, or its rights cannot be read.
            case ended
        }

        static func hear(_ change: CommittedChange, by credential: Credential, in library: Library, rightsBefore: RightsHeld?) async -> Hearing {
            switch credential {
            case .holder, .acting(.holder):
                return .heard(change, rights: nil)
            case .serverToken where !change.changedRights:
                // The token's rights change only when people are added, which changes rights.
                return .heard(change, rights: nil)
            case .serverToken, .personSession, .acting:
                // Who they are, and what they see, in the same read as the change is narrowed:
                // a person's stream costs one read per change, as it did before.
                let narrowed = try? await library.read { reader -> Hearing in
                    guard let principal = try reader.principal(presenting: credential) else { return .ended }
                    reader.act(as: principal)
                    let rightsNow = try RightsHeld(reader)
                    // Admins see everything and manage everyone's rights: they hear every change, whole.
                    guard let albums = try reader.visibleAlbumIDs(), let folders = try reader.visibleFolderIDs() else {
                        return .heard(change, rights: rightsNow)
                    }
                    let theirs = rightsNow != rightsBefore
                    return change.narrowed(albums: albums.contains, folders: folders.contains, theirRightsChanged: theirs)
                        .map { .heard($0, rights: rightsNow) } ?? .nothing(rights: rightsNow)
                }
                return narrowed ?? .ended
            }
        }
    }
}

extension Library {
    /// The committed changes `credential` may hear (``changes(pollingInterval:)``
    /// checked against its rights as each arrives): narrowed to what it
    /// sees then, and ending once it opens nothing.
    ///
    /// ```swift
    /// for await change in try await library.changes(heardBy: .personSession(token: cookie)) {
    ///     if change.changedRights { reloadEverything() } else { apply(change) }
    /// }
    /// ```
    ///
    /// - Throws: ``LibraryError`` if the journal cannot be read.
    public func changes(heardBy credential: Credential, pollingInterval: Double = 0.25) async throws -> HeardChanges {
        let changes = try await changes(pollingInterval: pollingInterval)
        // Their rights as they begin: a change of rights is theirs to hear when these move.
        let rights = try await read { reader -> HeardChanges.RightsHeld? in
            guard let principal = try reader.principal(presenting: credential) else { return nil }
            reader.act(as: principal)
            return try HeardChanges.RightsHeld(reader)
        }
        return HeardChanges(changes: changes, library: self, credential: credential, rightsAtStart: rights)
    }
}
