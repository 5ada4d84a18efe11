import AlbumsPersistence
import AlbumsThumbnails
import Foundation
import Hummingbird

/// A photo's thumbnail as the API answers it: made (or found) by the
/// store, tagged by content and size, `304` when the browser has it.
struct ThumbnailResponses: Sendable {
    let store: ThumbnailStore

    /// The size the grid asks for when it names none.
    static let defaultSize = 256

    /// A photo's thumbnail at the size the query asks for (`?size=`), cached by content.
    func response(for photo: Photo, _ request: Request) async throws -> Response {
        let size = try RequestParts.integer(request, "size", default: Self.defaultSize, range: ThumbnailStore.longerSides)
        let tag = "\"\(photo.content.sha256Hex)-\(size)\""
        // Keyed by content: a photo id always means the same bytes.
        let caching = "private, max-age=604800"
        if request.headers[.ifNoneMatch] == tag {
            return Response(status: .notModified, headers: [.eTag: tag, .cacheControl: caching])
        }
        let thumbnail = try await store.thumbnail(of: photo, longerSide: size)
        return Response(
            status: .ok, headers: [.contentType: thumbnail.mediaType, .eTag: tag, .cacheControl: caching],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: thumbnail.jpeg)))
    }
}
