import Foundation
import GRDB

/// The stable identifier of a share link (`albums link revoke ID`).
public struct ShareLinkID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }
    public var description: String { String(rawValue) }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A link that shows one album, read-only, to whoever holds it: the grid
/// in order, the viewer and the slideshow, and the originals if allowed.
/// Its token is known only when it is made; the file keeps its SHA-256.
public struct ShareLink: Identifiable, Hashable, Sendable {
    public let id: ShareLinkID
    /// The album the link shows.
    public let album: AlbumID
    /// Its name now.
    public let albumName: String
    /// After this the link shows nothing; nil: it does not expire.
    public let expiresAt: Date?
    /// Whether the link asks for a password.
    public let needsPassword: Bool
    /// Whether the link offers the originals to download.
    public let allowsDownload: Bool
    /// Who made it: a person's name, or nil for the file's holder.
    public let createdBy: String?
    /// When it was made.
    public let createdAt: Date
    /// When it was revoked; nil while it is not.
    public let revokedAt: Date?

    /// Whether it shows its album at `now`: not revoked, not expired.
    public func isLive(at now: Date = Date()) -> Bool {
        revokedAt == nil && (expiresAt.map { $0 > now } ?? true)
    }

    /// 256 random bits, URL-safe: 43 characters of base64url.
    static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}

/// What a share link's holder has to show.
public enum ShareLinkAccess: Sendable {
    /// The link shows its album.
    case granted(ShareLink)
    /// The link is live but needs its password (none was given, or a wrong
    /// one): its holder is told nothing more than that.
    case needsPassword(ShareLink)
    /// No live link has the token: unknown, revoked or expired alike.
    case none
}

extension LibraryWriter {
    /// Makes a share link for `album`; the token comes back once, here.
    ///
    /// ```swift
    /// let (link, token) = try library.write { try $0.createShareLink(for: wedding.id, expiresAt: nil, password: nil) }
    /// print("http://…/s/\(token)")
    /// ```
    ///
    /// Only the holder, admins and the album's owner share it; a smart
    /// album is frozen first.
    ///
    /// - Throws: ``LibraryError/forbidden(reason:)``, ``LibraryError/albumNotFound(_:)``,
    ///   ``LibraryError/smartAlbumLink(name:)``.
    public func createShareLink(
        for album: AlbumID, expiresAt: Date?, password: PasswordHash?, allowsDownload: Bool = true
    ) throws -> (link: ShareLink, token: String) {
        let shared = try self.album(album)
        try require(.owner, on: shared)
        guard !shared.isSmart else { throw LibraryError.smartAlbumLink(name: shared.name) }
        let token = ShareLink.newToken()
        let creator: String? = if case .person(let person) = principal { person.name } else { nil }
        try db.execute(
            cachedSQL: """
                INSERT INTO share_link (album_id, token_sha256, password_hash, expires_at, allows_download, created_by)
                VALUES (?, ?, ?, ?, ?, ?)
                """,
            arguments: [album.rawValue, PersonSession.digest(token), password?.text, expiresAt.map(Timestamp.text), allowsDownload, creator])
        let id = ShareLinkID(rawValue: db.lastInsertedRowID)
        guard let link = try shareLink(id) else { throw LibraryError.shareLinkNotFound(id) }
        return (link, token)
    }

    /// Revokes a link: from now on it shows nothing.
    ///
    /// - Throws: ``LibraryError/shareLinkNotFound(_:)``, ``LibraryError/forbidden(reason:)``.
    public func revokeShareLink(_ id: ShareLinkID, now: Date = Date()) throws {
        guard let link = try shareLink(id), link.revokedAt == nil else { throw LibraryError.shareLinkNotFound(id) }
        try require(.owner, on: try album(link.album))
        try db.execute(cachedSQL: "UPDATE share_link SET revoked_at = ? WHERE id = ?", arguments: [Timestamp.text(now), id.rawValue])
        noteRightsChanged()
    }
}

extension LibraryReader {
    /// The share links of the albums the principal owns (all of them for
    /// the holder and admins), newest first, revoked ones included.
    public func shareLinks(of album: AlbumID? = nil) throws -> [ShareLink] {
        let rows = try Row.fetchAll(
            db, sql: "\(Self.shareLinkQuery) WHERE ?1 IS NULL OR l.album_id = ?1 ORDER BY l.id DESC", arguments: [album?.rawValue])
        var links: [ShareLink] = []
        for row in rows {
            let link = Self.shareLink(from: row)
            if rights != nil, try rights!.role(of: .album(link.album), parent: (row[9] as Int64?).map(FolderID.init(rawValue:)), in: db) != .owner {
                continue
            }
            links.append(link)
        }
        return links
    }

    /// The link with `id`, whoever owns its album; nil when there is none.
    func shareLink(_ id: ShareLinkID) throws -> ShareLink? {
        try Row.fetchOne(db, cachedSQL: "\(Self.shareLinkQuery) WHERE l.id = ?", arguments: [id.rawValue]).map(Self.shareLink(from:))
    }

    private static let shareLinkQuery = """
        SELECT l.id, l.album_id, a.name, l.expires_at, l.password_hash IS NOT NULL, l.allows_download, l.created_by,
            l.created_at, l.revoked_at, a.parent_id, l.password_hash
        FROM share_link l JOIN album a ON a.id = l.album_id
        """

    private static func shareLink(from row: Row) -> ShareLink {
        ShareLink(
            id: ShareLinkID(rawValue: row[0]), album: AlbumID(rawValue: row[1]), albumName: row[2],
            expiresAt: (row[3] as String?).map(Timestamp.date), needsPassword: row[4], allowsDownload: row[5], createdBy: row[6],
            createdAt: Timestamp.date(row[7]), revokedAt: (row[8] as String?).map(Timestamp.date))
    }

    /// What the holder of `token` may see: its album, if the link is live
    /// and `password` is its password (when it has one).
    ///
    /// A password is checked while this read holds its connection: a
    /// server uses ``Library/shareLink(token:password:now:)``, which checks after the read.
    public func shareLink(token: String, password: String?, now: Date = Date()) throws -> ShareLinkAccess {
        try shareLinkCandidate(token: token, now: now).access(givenPassword: password)
    }

    /// The live link `token` opens, and its password's hash, before any password is checked.
    func shareLinkCandidate(token: String, now: Date) throws -> ShareLinkCandidate {
        // One indexed row: this runs for every thumbnail a link's page shows.
        guard !token.isEmpty, token.utf8.count <= 128,
            let row = try Row.fetchOne(
                db, cachedSQL: "\(Self.shareLinkQuery) WHERE l.token_sha256 = ?", arguments: [PersonSession.digest(token)])
        else { return ShareLinkCandidate(link: nil, hash: nil) }
        let link = Self.shareLink(from: row)
        guard link.isLive(at: now) else { return ShareLinkCandidate(link: nil, hash: nil) }
        return ShareLinkCandidate(link: link, hash: (row[10] as String?).map(PasswordHash.init(text:)))
    }
}

/// A live share link found by its token, with its password's hash, to be
/// checked against what its holder typed.
struct ShareLinkCandidate: Sendable {
    let link: ShareLink?
    let hash: PasswordHash?

    func access(givenPassword password: String?) -> ShareLinkAccess {
        guard let link else { return .none }
        if let hash {
            guard let password, hash.matches(password) else { return .needsPassword(link) }
        }
        return .granted(link)
    }
}

extension Library {
    /// What the holder of `token` may see (``LibraryReader/shareLink(token:password:now:)``),
    /// with the password checked after the read has given back its
    /// connection: bcrypt never keeps other requests from reading.
    public func shareLink(token: String, password: String?, now: Date = Date()) async throws -> ShareLinkAccess {
        let candidate = try await read { try $0.shareLinkCandidate(token: token, now: now) }
        guard candidate.hash != nil else { return candidate.access(givenPassword: password) }
        return await PasswordChecks.shared.run { candidate.access(givenPassword: password) }
    }
}
