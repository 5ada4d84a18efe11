import AlbumsPersistence
import AlbumsThumbnails
import AlbumsTransfer
import Foundation
import Hummingbird
import ServiceLifecycle

// The change stream (`GET /api/events`), narrowed to what each person may see.
extension APIRoutes {

    struct EventJSON: Encodable {
        let sequence: Int64
        let committed_at: String
        let follows_a_gap: Bool
        let operations: [[ChangeJSON]]
        /// What the transaction did to folders: a page reloads the tree.
        let folder_changes: [FolderChangeJSON]
    }

    /// `change` as `session`'s principal may hear it: the change sets of
    /// albums they can see and the changes of folders they can see; nil
    /// when nothing is left.
    static func seen(_ change: CommittedChange, by session: TransferSession) async throws -> CommittedChange? {
        guard session.principal != .holder else { return change }
        let (albums, folders) = try await session.read { reader in (try reader.visibleAlbumIDs(), try reader.visibleFolderIDs()) }
        guard let albums, let folders else { return change }
        let operations = change.operations.map { $0.filter { albums.contains($0.albumID) } }.filter { !$0.isEmpty }
        let folderChanges = change.folderChanges.filter { folders.contains($0.folderID) }
        if operations.isEmpty && folderChanges.isEmpty { return nil }
        return CommittedChange(
            sequence: change.sequence, committedAt: change.committedAt, operations: operations, folderChanges: folderChanges,
            followsAGap: change.followsAGap)
    }

    /// Server-Sent Events: one `change` event per committed transaction,
    /// from this server, the CLI or any other process, in commit order.
    func events(_ context: AlbumsRequestContext) async throws -> Response {
        let session = session(context)
        let stream = try await library.changes()
        let encoder = JSONResponse.encoder
        let body = ResponseBody { writer in
            try await writer.write(ByteBuffer(string: ": albums change stream\nretry: 1000\n\n"))
            // Open streams would hold a graceful shutdown forever: they end with it.
            for await change in stream.cancelOnGracefulShutdown() {
                // A person hears of the albums and folders they can see, and of nothing else.
                guard let change = try await Self.seen(change, by: session) else { continue }
                let event = EventJSON(
                    sequence: change.sequence, committed_at: Timestamp.text(change.committedAt), follows_a_gap: change.followsAGap,
                    operations: change.operations.map { $0.map(ChangeJSON.init) }, folder_changes: change.folderChanges.map(FolderChangeJSON.init))
                let json = String(decoding: try encoder.encode(event), as: UTF8.self)
                try await writer.write(ByteBuffer(string: "id: \(change.sequence)\nevent: change\ndata: \(json)\n\n"))
            }
            try await writer.finish(nil)
        }
        return Response(
            status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-store"], body: body)
    }
}
