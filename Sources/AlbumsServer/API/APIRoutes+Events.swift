import AlbumsPersistence
import AlbumsThumbnails
import AlbumsTransfer
import AlbumsWire
import Foundation
import Hummingbird
import ServiceLifecycle

// The change stream (`GET /api/events`), narrowed to what each person may see.
extension APIRoutes {

    struct EventJSON: Encodable {
        let sequence: Int64
        let committedAt: String
        let followsAGap: Bool
        /// Who may see or do what changed: the page asks again what it shows.
        let rightsChanged: Bool
        /// Photos entered the library (in albums or in none): a view of the whole library reads again.
        let photosAdded: Bool
        let operations: [[ChangeJSON]]
        /// What the transaction did to folders: a page reloads the tree.
        let folderChanges: [FolderChangeJSON]

        /// The JSON keys, in snake_case.
        enum CodingKeys: String, CodingKey {
            case sequence
            case committedAt = "committed_at"
            case followsAGap = "follows_a_gap"
            case rightsChanged = "rights_changed"
            case photosAdded = "photos_added"
            case operations
            case folderChanges = "folder_changes"
        }
    }

    /// Server-Sent Events: one `change` event per committed transaction,
    /// from this server, the CLI or any other process, in commit order,
    /// each as its asker may hear it when it arrives (``HeardChanges``):
    /// the stream ends once their sign-in or token opens nothing.
    func events(_ context: AlbumsRequestContext) async throws -> Response {
        let stream = try await library.changes(heardBy: context.credential)
        let encoder = JSONResponse.encoder
        let body = ResponseBody { writer in
            try await writer.write(ByteBuffer(string: ": albums change stream\nretry: 1000\n\n"))
            // Open streams would hold a graceful shutdown forever: they end with it.
            for await change in stream.cancelOnGracefulShutdown() {
                let event = EventJSON(
                    sequence: change.sequence, committedAt: Timestamp.text(change.committedAt), followsAGap: change.followsAGap,
                    rightsChanged: change.changedRights, photosAdded: change.addedPhotos,
                    operations: change.operations.map { $0.map(ChangeJSON.init) }, folderChanges: change.folderChanges.map(FolderChangeJSON.init))
                let json = String(decoding: try encoder.encode(event), as: UTF8.self)
                try await writer.write(ByteBuffer(string: "id: \(change.sequence)\nevent: change\ndata: \(json)\n\n"))
            }
            try await writer.finish(nil)
        }
        return Response(
            status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-store"], body: body)
    }
}
