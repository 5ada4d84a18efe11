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
/// listener to ask again what they may see: a role given or taken.
public struct HeardChanges: AsyncSequence, Sendable {
    public typealias Element = CommittedChange

    let changes: AsyncStream<CommittedChange>
    let library: Library
    let credential: Credential

    public func makeAsyncIterator() -> Iterator {
        Iterator(changes: changes.makeAsyncIterator(), library: library, credential: credential)
    }

    /// Pulls one change at a time: nothing is buffered here beyond what
    /// the library's own stream holds for a listener that does not read.
    public struct Iterator: AsyncIteratorProtocol {
        var changes: AsyncStream<CommittedChange>.AsyncIterator
        let library: Library
        let credential: Credential
        var hasEnded = false

        public mutating func next() async -> CommittedChange? {
            while !hasEnded, let change = await changes.next() {
                switch await Self.hear(change, by: credential, in: library) {
                case .heard(let heard): return heard
                case .nothing: continue
                case .ended: hasEnded = true
                }
            }
            return nil
        }

        enum Hearing: Sendable {
            case heard(CommittedChange)
            case nothing
            /// The credential opens nothing any more, or its rights cannot be read.
            case ended
        }

        static func hear(_ change: CommittedChange, by credential: Credential, in library: Library) async -> Hearing {
            switch credential {
            case .holder:
                return .heard(change)
            case .serverToken where !change.changedRights:
                // The token's rights change only when people are added, which changes rights.
                return .heard(change)
            case .serverToken, .personSession:
                // Who they are, and what they see, in the same read as the change is narrowed:
                // a person's stream costs one read per change, as it did before.
                let narrowed = try? await library.read { reader -> Hearing in
                    guard let principal = try reader.principal(presenting: credential) else { return .ended }
                    reader.act(as: principal)
                    guard let albums = try reader.visibleAlbumIDs(), let folders = try reader.visibleFolderIDs() else {
                        return .heard(change)
                    }
                    return change.narrowed(albums: albums.contains, folders: folders.contains).map(Hearing.heard) ?? .nothing
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
        HeardChanges(changes: try await changes(pollingInterval: pollingInterval), library: self, credential: credential)
    }
}
