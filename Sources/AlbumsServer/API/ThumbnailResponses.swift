import AlbumsImporting
import AlbumsPersistence
import AlbumsThumbnails
import Crypto
import Foundation
import Hummingbird

/// A photo's thumbnail as the API answers it: made (or found) by the
/// store, tagged by content and size, `304` when the browser has it.
struct ThumbnailResponses: Sendable {
    let store: ThumbnailStore

    /// The size the grid asks for when it names none.
    static let defaultSize = 256
    /// The longer sides a client may ask for: a few, the page's ladder, so
    /// that nobody can make the server render and keep every size of every photo.
    static let renditions = [64, 128, 256, 384, 512, 768, 1024, 1536, 2048]
    /// The largest rendition a share link without downloads shows: a
    /// screen's worth, not the original's.
    static let screenSize = 1024

    /// A photo's thumbnail at the size the query asks for (`?size=`, one of
    /// ``renditions``), cached by content and made from its original in
    /// `library` (wherever it keeps it); a size past `largest` gets `largest`.
    func response(for photo: Photo, in library: Library, _ request: Request, largest: Int = 2048) async throws -> Response {
        let asked = try RequestParts.integer(request, "size", default: Self.defaultSize, range: ThumbnailStore.longerSides)
        guard Self.renditions.contains(asked) else {
            throw RequestRefusal.badParameter("size must be one of \(Self.renditions.map(String.init).joined(separator: ", ")), not \(asked)")
        }
        let size = min(asked, largest)
        let tag = Self.tag(of: photo, size: size)
        // Keyed by content: a photo id always means the same bytes.
        let caching = "private, max-age=604800"
        if request.headers[.ifNoneMatch] == tag {
            return Response(status: .notModified, headers: [.eTag: tag, .cacheControl: caching])
        }
        let original = ThumbnailSource.of(photo, in: library) { try await library.originalBytes(of: photo) }
        let thumbnail = try await store.thumbnail(of: photo, from: original, longerSide: size)
        return Response(
            status: .ok, headers: [.contentType: thumbnail.mediaType, .eTag: tag, .cacheControl: caching],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: thumbnail.jpeg)))
    }

    /// A rendition's `ETag`: the same for the same content and size, and
    /// no digest of the original's bytes, which a link without downloads
    /// must not give (with it, a holder could confirm a file they have).
    /// Keyed by a secret of this process: a browser asks again after a
    /// restart, and gets 304 once more for what it kept.
    static func tag(of photo: Photo, size: Int) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: Data("\(photo.content.sha256Hex)-\(size)".utf8), using: tagKey)
        return "\"" + code.prefix(16).map { String(format: "%02x", $0) }.joined() + "-\(size)\""
    }

    private static let tagKey = SymmetricKey(size: .bits256)
}
