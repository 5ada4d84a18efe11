import AlbumsPersistence
import AlbumsThumbnails
import AlbumsTransfer
import AlbumsWire
import Foundation
import Hummingbird

// Operations and batches (`POST /api/operations`, `POST /api/batch`), and the history (`GET /api/history`, `POST /api/undo`, `POST /api/redo`).
extension APIRoutes {

    struct ProposalJSON: Encodable {
        let verdict: String
        let allowed: Bool
        /// Why not, when forbidden: the error `--json` would print.
        let reason: [String: String]?
        let changes: [ChangeJSON]
        let folderChanges: [FolderChangeJSON]
        let dryRun: Bool

        /// The JSON keys, in snake_case.
        enum CodingKeys: String, CodingKey {
            case verdict
            case allowed
            case reason
            case changes
            case folderChanges = "folder_changes"
            case dryRun = "dry_run"
        }
    }

    func operation(_ request: Request, _ context: AlbumsRequestContext) async throws -> Response {
        let session = session(context)
        let text = try await RequestParts.bodyText(request)
        let operation = try TransferBatchFormat.operation(fromLine: text.trimmingCharacters(in: .whitespacesAndNewlines), number: 1)
        if try RequestParts.isDryRun(request) {
            // The proposal: asked while a drag hovers, it writes nothing.
            let proposal = try await session.propose(operation)
            var reason: [String: String]?
            if case .forbidden(let error) = proposal.verdict { reason = ["code": error.code, "message": error.description] }
            return JSONResponse.make(
                ProposalJSON(
                    verdict: proposal.verdict.name, allowed: proposal.isAllowed, reason: reason,
                    changes: proposal.changes.map(ChangeJSON.init), folderChanges: proposal.folderChanges.map(FolderChangeJSON.init),
                    dryRun: true))
        }
        let result = try await session.perform(operation)
        return JSONResponse.make(
            WriteJSON(
                changes: result.changes.map(ChangeJSON.init), folderChanges: result.folderChanges.map(FolderChangeJSON.init), dryRun: false,
                verdict: result.outcome.name))
    }

    struct BatchJSON: Encodable {
        let changes: [[ChangeJSON]]
        let folderChanges: [[FolderChangeJSON]]
        let operations: Int
        let dryRun: Bool

        /// The JSON keys, in snake_case.
        enum CodingKeys: String, CodingKey {
            case changes
            case folderChanges = "folder_changes"
            case operations
            case dryRun = "dry_run"
        }
    }

    func batch(_ request: Request, _ context: AlbumsRequestContext) async throws -> Response {
        let session = session(context)
        let numbered = try TransferBatchFormat.numberedOperations(fromJSONLines: try await RequestParts.bodyText(request))
        let dryRun = try RequestParts.isDryRun(request)
        do {
            let results = try await session.perform(batch: numbered.map(\.operation), dryRun: dryRun)
            return JSONResponse.make(
                BatchJSON(
                    changes: results.map { $0.changes.map(ChangeJSON.init) }, folderChanges: results.map { $0.folderChanges.map(FolderChangeJSON.init) },
                    operations: results.count, dryRun: dryRun))
        } catch var refusal as BatchRefusal {
            refusal.line = numbered[refusal.index].line
            throw refusal
        }
    }


    /// `GET /api/history?limit=&album=`: what `albums history --json` prints.
    func history(_ request: Request, _ context: AlbumsRequestContext) async throws -> Response {
        let limit = try RequestParts.integer(request, "limit", default: 20, range: 1...HistoryRetention.maximumKeptEntries)
        let name: String? = try RequestParts.text(request, "album")
        let listing = try await session(context).read { reader in
            let album = try name.map { try reader.album(named: $0).id }
            return try HistoryListingJSON(entries: try reader.history(limit: limit, album: album), reader: reader)
        }
        return JSONResponse.make(listing)
    }

    /// `POST /api/undo`, `POST /api/redo` (`?dry_run=1`): what `albums undo --json` prints.
    func replay(_ request: Request, _ context: AlbumsRequestContext, undoing: Bool) async throws -> Response {
        let dryRun = try RequestParts.isDryRun(request)
        let result = try await session(context).write(dryRun: dryRun) { undoing ? try $0.undo() : try $0.redo() }
        return JSONResponse.make(HistoryReplayJSON(result, dryRun: dryRun))
    }
}
