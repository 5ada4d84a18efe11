import AlbumsPersistence
import Hummingbird

/// Refuses every request once the library file is deleted or replaced
/// under the server: its open handle would go on reading and writing a
/// file that no one can open again, and the user would lose every change.
///
/// Only the file's holder and admins are told where the file was and how
/// to start the server again: anyone else learns that the library is
/// unavailable, never a path on the server's disk or the server's commands.
struct LibraryPresence: RouterMiddleware {
    let library: Library

    func handle(_ request: Request, context: AlbumsRequestContext, next: (Request, AlbumsRequestContext) async throws -> Response) async throws -> Response {
        guard library.isFileInPlace else { return Self.unavailable(showingPaths: context.showsServerPaths, library: library) }
        return try await next(request, context)
    }

    /// The 503 every request gets once the file is gone.
    static func unavailable(showingPaths: Bool, library: Library) -> Response {
        let message =
            showingPaths
            ? "the library file \(library.path) was deleted or replaced while albums serve ran; nothing more is read or written: restart albums serve"
            : "the library is unavailable: its file was moved or replaced on the server; whoever runs the server can start it again"
        return APIError.response(status: .serviceUnavailable, code: "library_moved", message: message)
    }
}
