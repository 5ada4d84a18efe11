import AlbumsPersistence
import AlbumsThumbnails
import AlbumsTransfer
import Crypto
import Foundation
import Hummingbird

/// What a share link shows: one album, read-only, to anyone holding the
/// link (`/s/TOKEN` is its page). Every answer about a token that is
/// unknown, revoked or expired is the same 404, so links cannot be told
/// apart by guessing.
struct ShareRoutes: Sendable {
    let library: Library
    let thumbnails: ThumbnailStore
    let renditions: PlayableRenditions
    let settings: GateSettings
    let throttle: SignInThrottle
    /// Signs the cookie that says a link's password was given: random per
    /// server run, so a restart asks for it again.
    let unlockKey = SymmetricKey(size: .bits256)

    func register(on router: Router<AlbumsRequestContext>, recording allowed: inout AllowedMethods) {
        router.get("s/:token") { _, _ in try AlbumsServer.page("share/share.html") }
        router.get("api/share/:token") { request, context in try await album(request, context) }
        router.post("api/share/:token/unlock") { request, context in try await unlock(request, context) }
        router.get("api/share/:token/items") { request, context in try await items(request, context) }
        router.get("api/share/:token/photos/:id/thumbnail") { request, context in try await thumbnail(request, context) }
        router.get("api/share/:token/photos/:id/original") { request, context in try await original(request, context) }
        router.get("api/share/:token/photos/:id/playback") { request, context in try await playback(request, context) }
        router.get("api/share/:token/photos/:id/rendition") { request, context in try await rendition(request, context) }
        router.get("api/share/:token/photos/:id/motion") { request, context in try await motion(request, context) }
        for path in [
            "s/:token", "api/share/:token", "api/share/:token/items", "api/share/:token/photos/:id/thumbnail", "api/share/:token/photos/:id/original",
            "api/share/:token/photos/:id/playback", "api/share/:token/photos/:id/rendition", "api/share/:token/photos/:id/motion",
        ] {
            allowed.add(.get, path)
        }
        allowed.add(.post, "api/share/:token/unlock")
    }

    private static let notFound = RequestRefusal(status: .notFound, code: "share_link_not_found", message: "this link shows nothing: it may have expired or been revoked")

    /// The link the path's token names, if it shows its album to this request.
    private func link(_ request: Request, _ context: AlbumsRequestContext) async throws -> (ShareLink, TransferSession) {
        let token = try RequestParts.pathText(context, "token")
        switch try await library.shareLink(token: token, password: nil) {
        case .none:
            throw Self.notFound
        case .needsPassword(let link):
            guard let cookie = request.cookies[Self.cookieName(link)]?.value, Gate.same(cookie, proof(token)) else {
                throw RequestRefusal(status: .unauthorized, code: "password_needed", message: "this link asks for its password")
            }
            return (link, session(for: link))
        case .granted(let link):
            return (link, session(for: link))
        }
    }

    private func session(for link: ShareLink) -> TransferSession {
        TransferSession(library: library, acting: .shareLink(link.id, album: link.album))
    }

    private static func cookieName(_ link: ShareLink) -> String { "albums_link_\(link.id)" }

    private func proof(_ token: String) -> String {
        HexDigits.string(HMAC<SHA256>.authenticationCode(for: Data(token.utf8), using: unlockKey))
    }

    private struct SharedAlbumJSON: Encodable {
        let name: String
        let itemCount: Int
        /// How many of its items are videos.
        let videoCount: Int
        let download: Bool
        let expiresAt: String?
        /// The largest thumbnail size the link shows.
        let largestSize: Int
        /// A smart album, which a link (made before they were refused)
        /// cannot show: it finds photos by each reader's own rights, and a
        /// link reaches none of its own. The page says so instead of
        /// showing an empty album.
        let smart: Bool

        /// The JSON keys, in snake_case.
        enum CodingKeys: String, CodingKey {
            case name
            case itemCount = "item_count"
            case videoCount = "video_count"
            case download
            case expiresAt = "expires_at"
            case largestSize = "largest_size"
            case smart
        }
    }

    /// A link without downloads shows a screen's worth, not the original's.
    private static func largestRendition(of link: ShareLink) -> Int {
        link.allowsDownload ? ThumbnailResponses.renditions.last! : ThumbnailResponses.screenSize
    }

    private func album(_ request: Request, _ context: AlbumsRequestContext) async throws -> Response {
        let (link, session) = try await link(request, context)
        let album = try await session.read { try $0.album(link.album) }
        return JSONResponse.make(
            SharedAlbumJSON(
                name: album.name, itemCount: album.itemCount, videoCount: album.videoCount, download: link.allowsDownload, expiresAt: link.expiresAt.map(Timestamp.text),
                largestSize: Self.largestRendition(of: link), smart: album.isSmart))
    }

    private struct Password: Decodable {
        let password: String
    }

    /// `POST /api/share/TOKEN/unlock` with `{"password"}`: a cookie that
    /// lets this browser see the album; slowed after failures, as sign-ins are.
    private func unlock(_ request: Request, _ context: AlbumsRequestContext) async throws -> Response {
        let token = try RequestParts.pathText(context, "token")
        guard let given = try? JSONDecoder().decode(Password.self, from: Data(try await RequestParts.bodyText(request).utf8)) else {
            throw RequestRefusal.badParameter("unlock with a JSON object {\"password\": …}")
        }
        let address = settings.clientAddress(request, peer: context.peer)
        let key = "link " + String(token.prefix(12))
        if case .wait(let seconds) = throttle.admit(name: key, address: address) { return APIError.tooManyAttempts("wrong passwords", wait: seconds) }
        switch try await library.shareLink(token: token, password: given.password) {
        case .none:
            throw Self.notFound
        case .needsPassword:
            return APIError.response(status: .unauthorized, code: "wrong_password", message: "that is not this link's password")
        case .granted(let link):
            throttle.noteSuccess(name: key, address: address)
            var response = Response(status: .noContent)
            response.setCookie(
                Cookie(
                    name: Self.cookieName(link), value: proof(token), path: "/api/share/\(token)",
                    secure: settings.isSecure(request, peer: context.peer), httpOnly: true, sameSite: .strict))
            return response
        }
    }

    /// An item as a share link shows it: the photo's id, name, size and
    /// date, and the title and caption written on the item (the words of a
    /// photo book are for its readers), never where its file is.
    private struct SharedItemJSON: Encodable {
        let position: Int
        let photoID: Int64
        let name: String
        /// Upright size in pixels, when known.
        let width: Int?
        let height: Int?
        let capturedAt: String?
        /// `image/…` or `video/…`: a video plays where the link offers originals.
        let mediaType: String
        /// A video's length in seconds.
        let duration: Double?
        /// A Live Photo: its motion plays where the link offers originals.
        let livePhoto: Bool
        let title: String?
        let caption: String?

        /// The JSON keys, in snake_case.
        enum CodingKeys: String, CodingKey {
            case position
            case photoID = "photo_id"
            case name
            case width
            case height
            case capturedAt = "captured_at"
            case mediaType = "media_type"
            case duration
            case livePhoto = "live_photo"
            case title
            case caption
        }

        // Every key, null where there is nothing: as the OpenAPI document says.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(position, forKey: .position)
            try container.encode(photoID, forKey: .photoID)
            try container.encode(name, forKey: .name)
            try container.encode(width, forKey: .width)
            try container.encode(height, forKey: .height)
            try container.encode(capturedAt, forKey: .capturedAt)
            try container.encode(mediaType, forKey: .mediaType)
            try container.encode(duration, forKey: .duration)
            try container.encode(livePhoto, forKey: .livePhoto)
            try container.encode(title, forKey: .title)
            try container.encode(caption, forKey: .caption)
        }
    }

    private struct SharedItemsJSON: Encodable {
        let items: [SharedItemJSON]
        let offset: Int
        let limit: Int
    }

    /// `GET /api/share/TOKEN/items?offset=&limit=`: the album's photos in
    /// order (placeholders of loads still running are left out).
    private func items(_ request: Request, _ context: AlbumsRequestContext) async throws -> Response {
        let (link, session) = try await link(request, context)
        let offset = try RequestParts.integer(request, "offset", default: 0, range: 0...Int.max)
        let limit = try RequestParts.integer(request, "limit", default: 500, range: 1...RequestParts.maximumLimit)
        let items = try await session.read { reader -> [SharedItemJSON] in
            let album = try reader.album(link.album)
            var items: [SharedItemJSON] = []
            guard offset < album.itemCount else { return items }
            var seen = 0
            var listed: [(item: AlbumItem, photo: Photo)] = []
            try reader.forEachListedItem(in: album.id, from: offset) { item, photo in
                seen += 1
                if let photo { listed.append((item, photo)) }
                return seen < limit
            }
            // Each listed item's own words, read by its id: a page costs its items, whatever the album holds.
            for (item, photo) in listed {
                let marks = try reader.carried(by: item.id).marks
                items.append(
                    SharedItemJSON(
                        position: item.index + 1, photoID: photo.id.rawValue, name: photo.content.originalName,
                        width: photo.content.displayWidth, height: photo.content.displayHeight, capturedAt: photo.content.capturedAt?.text,
                        mediaType: photo.content.mediaType, duration: photo.content.duration, livePhoto: photo.content.motion != nil,
                        title: marks.title, caption: marks.caption))
            }
            return items
        }
        return JSONResponse.make(SharedItemsJSON(items: items, offset: offset, limit: limit))
    }

    private func thumbnail(_ request: Request, _ context: AlbumsRequestContext) async throws -> Response {
        let (link, session) = try await link(request, context)
        let photo = try await RequestParts.photo(context, session: session)
        return try await ThumbnailResponses(store: thumbnails).response(
            for: photo, in: session.library, request, largest: Self.largestRendition(of: link))
    }

    private func original(_ request: Request, _ context: AlbumsRequestContext) async throws -> Response {
        let (session, photo) = try await downloadable(request, context)
        return try await OriginalFiles().response(for: photo, in: session.library, request, context: context)
    }

    /// How a video plays, where the link offers originals (a rendition is the whole video too).
    private func playback(_ request: Request, _ context: AlbumsRequestContext) async throws -> Response {
        let (session, photo) = try await downloadable(request, context)
        let token = try RequestParts.pathText(context, "token")
        let base = "/api/share/\(token.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? token)/photos/\(photo.id.rawValue)"
        return try await VideoPlayback(renditions: renditions).playbackResponse(for: photo, in: session.library, paths: base)
    }

    private func rendition(_ request: Request, _ context: AlbumsRequestContext) async throws -> Response {
        let (_, photo) = try await downloadable(request, context)
        return try await VideoPlayback(renditions: renditions).renditionResponse(for: photo, request, context: context)
    }

    /// A Live Photo's motion, where the link offers originals (it is a file as its still's original is).
    private func motion(_ request: Request, _ context: AlbumsRequestContext) async throws -> Response {
        let (session, photo) = try await downloadable(request, context)
        return try await OriginalFiles().motionResponse(for: photo, in: session.library, request, context: context)
    }

    /// The photo the path names, where the link shows it and offers its original.
    private func downloadable(_ request: Request, _ context: AlbumsRequestContext) async throws -> (TransferSession, Photo) {
        let (link, session) = try await link(request, context)
        let photo = try await RequestParts.photo(context, session: session)
        guard link.allowsDownload else {
            throw RequestRefusal(status: .forbidden, code: "download_not_allowed", message: "this link shows the photos without their originals")
        }
        return (session, photo)
    }
}
