import AlbumsPersistence
import Hummingbird

/// Refuses every request once the library file is deleted or replaced
/// under the server: its open handle would go on reading and writing a
/// file that no one can open again, and the user would lose every change.
struct LibraryPresence<Context: RequestContext>: RouterMiddleware {
    let library: Library

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard library.isFileInPlace else {
            return APIError.response(
                status: .serviceUnavailable, code: "library_moved",
                message: "the library file \(library.path) was deleted or replaced while albums serve ran; nothing more is read or written: restart albums serve")
        }
        return try await next(request, context)
    }
}
