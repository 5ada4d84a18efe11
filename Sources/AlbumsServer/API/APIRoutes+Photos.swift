import AlbumsPersistence
import AlbumsThumbnails
import AlbumsTransfer
import Foundation
import Hummingbird

// A photo's original and thumbnail, by id (`GET /api/photos/{id}/…`).
extension APIRoutes {

    func thumbnail(_ request: Request, _ context: AlbumsRequestContext) async throws -> Response {
        try await ThumbnailResponses(store: thumbnails).response(for: try await RequestParts.photo(context, session: session(context)), request)
    }

    func original(_ request: Request, _ context: AlbumsRequestContext) async throws -> Response {
        try await OriginalFiles().response(for: try await RequestParts.photo(context, session: session(context)), request, context: context)
    }
}
