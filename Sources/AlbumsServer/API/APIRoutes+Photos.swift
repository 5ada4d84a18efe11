import AlbumsPersistence
import AlbumsThumbnails
import AlbumsTransfer
import AlbumsWire
import Foundation
import Hummingbird

// The library's photos found by their facts (`GET /api/photos`), and a
// photo's original and thumbnail, by id (`GET /api/photos/{id}/…`).
extension APIRoutes {

    /// A page of the photos a search finds, newest first, as the principal sees them.
    func photos(_ request: Request, _ context: AlbumsRequestContext) async throws -> Response {
        let asked = try Self.search(in: request)
        let limit = try RequestParts.integer(request, "limit", default: 200, range: 1...RequestParts.maximumLimit)
        let after = try RequestParts.text(request, "after").map { text in
            guard let cursor = PhotoSearchCursor(text) else {
                throw RequestRefusal(status: .unprocessableContent, code: "invalid_parameter", message: "after must be the next a page before gave")
            }
            return cursor
        }
        let session = session(context)
        // Paths on the server's disk are the holder's and admins'.
        let showingPaths = session.principal.holdsEveryRight
        let page = try await session.read { reader in
            try reader.photos(matching: try asked.resolved(by: reader), limit: limit, after: after)
        }
        return JSONResponse.make(PhotoSearchPageJSON(page, showingPaths: showingPaths))
    }

    /// How many photos a search finds in each month, newest first: a timeline's scrubber.
    func photoMonths(_ request: Request, _ context: AlbumsRequestContext) async throws -> Response {
        let asked = try Self.search(in: request)
        let months = try await session(context).read { reader in try reader.photoMonths(matching: try asked.resolved(by: reader)) }
        return JSONResponse.make(PhotoMonthsJSON(months))
    }

    /// A search as a request's query asks for it; the album it names is
    /// found once a reader acts for the asker.
    struct AskedSearch: Sendable {
        var search: PhotoSearch
        let album: String?
        let inNoAlbum: Bool

        func resolved(by reader: LibraryReader) throws -> PhotoSearch {
            var search = search
            if let album { search.membership = .inAlbum(try reader.album(named: album).id) }
            if inNoAlbum { search.membership = .inNoAlbum }
            return search
        }
    }

    /// The filters of `GET /api/photos` and `/api/photos/months`.
    static func search(in request: Request) throws -> AskedSearch {
        func text(_ name: String) throws -> String? { try RequestParts.text(request, name) }
        var search = PhotoSearch()
        search.taken = try text("taken").map { try CaptureRange($0) }
        search.name = try text("name")
        search.format = try text("format")
        if let shape = try text("shape") {
            guard let value = PhotoShape(rawValue: shape) else { throw RequestRefusal.badParameter("shape must be landscape, portrait or square") }
            search.shape = value
        }
        if let megapixels = try text("min_megapixels") {
            // Past any photo's size (even infinite) is allowed: it finds none.
            guard let value = Double(megapixels), value >= 0 else { throw RequestRefusal.badParameter("min_megapixels must be a number from 0") }
            search.minimumMegapixels = value
        }
        search.camera = try text("camera")
        search.lens = try text("lens")
        search.hasLocation = try RequestParts.optionalFlag(request, "location")
        search.text = try text("text")
        search.keyword = try text("keyword")
        search.isFavorite = try RequestParts.optionalFlag(request, "favorite")
        if let stars = try text("min_rating") {
            guard stars.count == 1, let digit = stars.first?.wholeNumberValue, stars.first?.isASCII == true, (1...5).contains(digit) else {
                throw RequestRefusal.badParameter("min_rating must be 1 to 5")
            }
            search.minimumRating = digit
        }
        search.isRejected = try RequestParts.optionalFlag(request, "rejected")
        if let blank = search.blankTextFilters.first {
            throw RequestRefusal.badParameter("\(blank.rawValue) needs something to look for: leave it out to search every photo")
        }
        let album = try text("album")
        let inNoAlbum = try RequestParts.optionalFlag(request, "no_album") ?? false
        // Each is valid alone; together they ask for nothing: refused as a request the document allows but that cannot be met.
        if album != nil && inNoAlbum {
            throw RequestRefusal(status: .unprocessableContent, code: "invalid_parameter", message: "give album or no_album, not both")
        }
        return AskedSearch(search: search, album: album, inNoAlbum: inNoAlbum)
    }

    func thumbnail(_ request: Request, _ context: AlbumsRequestContext) async throws -> Response {
        let session = session(context)
        let photo = try await RequestParts.photo(context, session: session)
        return try await ThumbnailResponses(store: thumbnails).response(for: photo, in: session.library, request)
    }

    func original(_ request: Request, _ context: AlbumsRequestContext) async throws -> Response {
        let session = session(context)
        let photo = try await RequestParts.photo(context, session: session)
        return try await OriginalFiles().response(for: photo, in: session.library, request, context: context)
    }

    /// How the page plays a video: from its original, or a rendition made for browsers.
    func playback(_ request: Request, _ context: AlbumsRequestContext) async throws -> Response {
        let session = session(context)
        let photo = try await RequestParts.photo(context, session: session)
        return try await VideoPlayback(renditions: renditions).playbackResponse(for: photo, in: session.library, paths: "/api/photos/\(photo.id.rawValue)")
    }

    func rendition(_ request: Request, _ context: AlbumsRequestContext) async throws -> Response {
        let session = session(context)
        let photo = try await RequestParts.photo(context, session: session)
        return try await VideoPlayback(renditions: renditions).renditionResponse(for: photo, request, context: context)
    }

    /// A Live Photo's motion, by its still's id: whoever may see the still sees it move.
    func motion(_ request: Request, _ context: AlbumsRequestContext) async throws -> Response {
        let session = session(context)
        let photo = try await RequestParts.photo(context, session: session)
        return try await OriginalFiles().motionResponse(for: photo, in: session.library, request, context: context)
    }
}
