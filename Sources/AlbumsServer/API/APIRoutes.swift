import AlbumsPersistence
import AlbumsThumbnails
import AlbumsTransfer
import Foundation
import Hummingbird

/// The JSON API of `albums serve` (Documentation/Server.md), on the libraries only: what the CLI prints
/// with `--json`, under the same keys and error codes.
struct APIRoutes: Sendable {
    let library: Library
    let thumbnails: ThumbnailStore
    let renditions: PlayableRenditions
    let uploads: UploadInbox
    let loads: LoadsInFlight

    /// The library as the request's principal sees it: what they cannot
    /// see is not found, what they cannot change is forbidden.
    static func session(_ library: Library, _ context: AlbumsRequestContext) -> TransferSession {
        TransferSession(library: library, acting: context.principal)
    }

    func session(_ context: AlbumsRequestContext) -> TransferSession {
        Self.session(library, context)
    }

    /// Adds the API's routes to `router`, grouped by resource (the handlers
    /// are in `APIRoutes+Albums.swift`, `+Operations.swift`, `+Photos.swift`
    /// and `+Events.swift`), recording each in `allowed`.
    func register(on router: Router<AlbumsRequestContext>, recording allowed: inout AllowedMethods) {
        func group(_ prefix: String, _ routes: (_ on: (HTTPRequest.Method, String, @escaping @Sendable (Request, AlbumsRequestContext) async throws -> Response) -> Void) -> Void) {
            let group = router.group(RouterPath(prefix))
            routes { method, path, handle in
                group.on(RouterPath(path), method: method, use: handle)
                allowed.add(method, path.isEmpty ? prefix : prefix + "/" + path)
            }
        }
        group("api/albums") { on in
            on(.get, "") { _, context in try await albums(context) }
            on(.get, ":name/items") { request, context in try await items(request, context) }
            on(.post, ":name/files") { request, context in try await upload(request, context) }
        }
        group("api") { on in
            on(.post, "operations") { request, context in try await operation(request, context) }
            on(.post, "batch") { request, context in try await batch(request, context) }
            on(.get, "history") { request, context in try await history(request, context) }
            on(.post, "undo") { request, context in try await replay(request, context, undoing: true) }
            on(.post, "redo") { request, context in try await replay(request, context, undoing: false) }
        }
        group("api") { on in
            on(.get, "photos") { request, context in try await photos(request, context) }
            on(.get, "photos/months") { request, context in try await photoMonths(request, context) }
        }
        group("api/photos/:id") { on in
            on(.get, "original") { request, context in try await original(request, context) }
            on(.get, "motion") { request, context in try await motion(request, context) }
            on(.get, "playback") { request, context in try await playback(request, context) }
            on(.get, "rendition") { request, context in try await rendition(request, context) }
            on(.get, "thumbnail") { request, context in try await thumbnail(request, context) }
        }
        group("api") { on in
            on(.get, "events") { _, context in try await events(context) }
        }
    }
}
