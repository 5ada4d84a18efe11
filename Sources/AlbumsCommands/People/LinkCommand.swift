import AlbumsPersistence
import AlbumsTransfer
import ArgumentParser
import Foundation

struct LinkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "link",
        abstract: "Share links: one album, read-only, for someone with no account.",
        discussion: """
            A link shows its album's photos in order, the viewer and the slideshow (and the
            originals unless --no-download). Its token is shown once, when it is made; the file
            keeps only its SHA-256. A link can expire, ask for a password, and be revoked.
            """,
        subcommands: [Create.self, List.self, Revoke.self]).parsedOnItsOwn

    struct LinkJSON: Encodable {
        let id: Int64
        let album: String
        let expiresAt: String?
        let password: Bool
        let download: Bool
        let createdBy: String?
        let createdAt: String
        let revokedAt: String?
        let live: Bool
        /// Only when the link is made.
        let path: String?

        init(_ link: ShareLink, token: String? = nil) {
            id = link.id.rawValue
            album = link.albumName
            expiresAt = link.expiresAt.map(Timestamp.text)
            password = link.needsPassword
            download = link.allowsDownload
            createdBy = link.createdBy
            createdAt = Timestamp.text(link.createdAt)
            revokedAt = link.revokedAt.map(Timestamp.text)
            live = link.isLive()
            path = token.map { "/s/\($0)" }
        }

        /// The JSON keys, in snake_case.
        enum CodingKeys: String, CodingKey {
            case id
            case album
            case expiresAt = "expires_at"
            case password
            case download
            case createdBy = "created_by"
            case createdAt = "created_at"
            case revokedAt = "revoked_at"
            case live
            case path
        }
    }

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "create", abstract: "Make a share link for an album; prints its path once.",
            discussion: """
                The path goes after the address albums serve listens on (or the proxy's):
                https://photos.example.org/s/TOKEN.

                Examples:
                  albums link create Wedding
                  albums link create Wedding --expires 7d --password --no-download
                """).parsedOnItsOwn

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The album's name.") var album: String
        @Option(help: "When it stops working: a number of days (7d) or hours (12h), or a date (2026-12-31).")
        var expires: String?
        @Flag(help: "Ask for a password for it (read like a person's).") var password = false
        @Flag(help: "Show the photos without offering their originals.") var noDownload = false

        func expiry(now: Date = Date()) throws -> Date? {
            guard let expires else { return nil }
            if let unit = expires.last, "dh".contains(unit), let count = Int(expires.dropLast()), count > 0 {
                return now.addingTimeInterval(Double(count) * (unit == "d" ? 86_400 : 3_600))
            }
            if let date = try? Date(expires + "T00:00:00Z", strategy: .iso8601), date > now { return date }
            throw ValidationError("--expires takes 7d, 12h or a future date such as 2026-12-31, not '\(expires)'")
        }

        func run() throws {
            let expiresAt = try expiry()
            let library = try global.openLibrary(for: .writing)
            let album = try library.read { try $0.album(named: self.album) }
            let hash = password ? try PasswordPrompt.hash(for: "the link to \(album.name)") : nil
            let (link, token) = try library.write {
                try $0.createShareLink(for: album.id, expiresAt: expiresAt, password: hash, allowsDownload: !noDownload)
            }
            if global.json { return try global.console.result(json: ["link": LinkJSON(link, token: token)]) }
            global.console.result("/s/\(token)")
            global.console.note(
                "link \(link.id) shows \(LibraryError.quoted(album.name)) read-only\(expiresAt.map { " until \(Timestamp.text($0))" } ?? ""); "
                    + "put the path after albums serve's address; the token is not shown again")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List share links, newest first (tokens are never shown again).",
            discussion: "Example: albums link list").parsedOnItsOwn

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let links = try global.openLibrary(for: .reading).read { try $0.shareLinks() }
            if global.json { return try global.console.result(json: ["links": links.map { LinkJSON($0) }]) }
            if links.isEmpty { return global.console.result("no share links: albums link create ALBUM") }
            let rows = links.map { link in
                [
                    String(link.id.rawValue), link.albumName,
                    link.revokedAt != nil ? "revoked" : link.isLive() ? "live" : "expired",
                    link.expiresAt.map(Timestamp.text) ?? "never", link.needsPassword ? "yes" : "no", link.allowsDownload ? "yes" : "no",
                ]
            }
            for line in Table(header: ["ID", "ALBUM", "STATE", "EXPIRES", "PASSWORD", "DOWNLOAD"], rows: rows).lines {
                global.console.result(line)
            }
        }
    }

    struct Revoke: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "revoke", abstract: "Revoke a share link: it shows nothing from now on.",
            discussion: "Example: albums link revoke 3").parsedOnItsOwn

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The link's id (albums link list).") var id: Int64

        func run() throws {
            try global.openLibrary(for: .writing).write { try $0.revokeShareLink(ShareLinkID(rawValue: id)) }
            if global.json { return try global.console.result(json: ["revoked": id]) }
            global.console.result("revoked link \(id)")
        }
    }
}
