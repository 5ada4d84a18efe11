import AlbumsPersistence
import AlbumsThumbnails
import AlbumsTransfer
import Foundation
import Hummingbird
import ServiceLifecycle

/// The JSON API of `albums serve` (Documentation/Server.md), on the libraries only: what the CLI prints
/// with `--json`, under the same keys and error codes.
struct APIRoutes: Sendable {
    let library: Library
    let thumbnails: ThumbnailStore
    let uploads: UploadInbox
    let loads: LoadsInFlight

    /// The library as the request's principal sees it: what they cannot
    /// see is not found, what they cannot change is forbidden.
    static func session(_ library: Library, _ context: AlbumsRequestContext) -> TransferSession {
        TransferSession(library: library, acting: context.principal)
    }

    private func session(_ context: AlbumsRequestContext) -> TransferSession {
        Self.session(library, context)
    }

    /// The longest page of items one request returns.
    static let maximumLimit = 2_000
    /// The largest operation or batch body, in bytes.
    static let maximumBodySize = 4 << 20
    /// The most one upload request may carry, in bytes.
    static let maximumUploadSize = 2 << 30

    /// Adds the API's routes to `router`, recording each in `allowed`.
    func register(on router: Router<AlbumsRequestContext>, recording allowed: inout AllowedMethods) {
        let api = router.group("api")
        func on(_ method: HTTPRequest.Method, _ path: String, _ handle: @escaping @Sendable (Request, AlbumsRequestContext) async throws -> Response) {
            api.on(RouterPath(path), method: method, use: handle)
            allowed.add(method, "api/" + path)
        }
        on(.get, "albums") { _, context in try await albums(context) }
        on(.get, "albums/:name/items") { request, context in try await items(request, context) }
        on(.post, "operations") { request, context in try await operation(request, context) }
        on(.post, "batch") { request, context in try await batch(request, context) }
        on(.post, "albums/:name/files") { request, context in try await upload(request, context) }
        on(.get, "photos/:id/original") { request, context in try await original(request, context) }
        on(.get, "photos/:id/thumbnail") { request, context in try await thumbnail(request, context) }
        on(.get, "events") { _, context in try await events(context) }
        on(.get, "history") { request, context in try await history(request, context) }
        on(.post, "undo") { request, context in try await replay(request, context, undoing: true) }
        on(.post, "redo") { request, context in try await replay(request, context, undoing: false) }
    }

    // MARK: Reading

    private func albums(_ context: AlbumsRequestContext) async throws -> Response {
        // The whole tree as the principal sees it: albums and folders, each with its parent and position.
        return JSONResponse.make(TreeJSON(try await session(context).read { try $0.tree() }))
    }

    struct ItemsPage: Encodable, Sendable {
        let album: AlbumJSON
        let items: [ItemJSON]
        let offset: Int
        let limit: Int
    }

    private func items(_ request: Request, _ context: AlbumsRequestContext) async throws -> Response {
        let name = try Self.pathText(context, "name")
        let offset = try Self.integer(request, "offset", default: 0, range: 0...Int.max)
        let limit = try Self.integer(request, "limit", default: 500, range: 1...Self.maximumLimit)
        let page = try await Self.itemsPage(of: name, offset: offset, limit: limit, session: session(context))
        return JSONResponse.make(page)
    }

    /// One page of an album's items, as the principal sees the album.
    static func itemsPage(of name: String, offset: Int, limit: Int, session: TransferSession) async throws -> ItemsPage {
        try await session.read { reader -> ItemsPage in
            let album = try reader.album(named: name)
            var items: [ItemJSON] = []
            if offset < album.itemCount {
                try reader.forEachListedItem(in: album.id, from: offset) { item, photo in
                    items.append(ItemJSON(item, photo: photo))
                    return items.count < limit
                }
            }
            return ItemsPage(album: AlbumJSON(album), items: items, offset: offset, limit: limit)
        }
    }

    // MARK: Writing

    private struct ProposalJSON: Encodable {
        let verdict: String
        let allowed: Bool
        /// Why not, when forbidden: the error `--json` would print.
        let reason: [String: String]?
        let changes: [ChangeJSON]
        let folder_changes: [FolderChangeJSON]
        let dry_run: Bool
    }

    private func operation(_ request: Request, _ context: AlbumsRequestContext) async throws -> Response {
        let session = session(context)
        let text = try await Self.bodyText(request)
        let operation = try TransferBatchFormat.operation(fromLine: text.trimmingCharacters(in: .whitespacesAndNewlines), number: 1)
        if try Self.isDryRun(request) {
            // The proposal: asked while a drag hovers, it writes nothing.
            let proposal = try await session.propose(operation)
            var reason: [String: String]?
            if case .forbidden(let error) = proposal.verdict { reason = ["code": error.code, "message": error.description] }
            return JSONResponse.make(
                ProposalJSON(
                    verdict: proposal.verdict.name, allowed: proposal.isAllowed, reason: reason,
                    changes: proposal.changes.map(ChangeJSON.init), folder_changes: proposal.folderChanges.map(FolderChangeJSON.init),
                    dry_run: true))
        }
        let result = try await session.perform(operation)
        return JSONResponse.make(
            WriteJSON(
                changes: result.changes.map(ChangeJSON.init), folderChanges: result.folderChanges.map(FolderChangeJSON.init), dry_run: false,
                verdict: result.outcome.name))
    }

    private struct BatchJSON: Encodable {
        let changes: [[ChangeJSON]]
        let folder_changes: [[FolderChangeJSON]]
        let operations: Int
        let dry_run: Bool
    }

    private func batch(_ request: Request, _ context: AlbumsRequestContext) async throws -> Response {
        let session = session(context)
        let numbered = try TransferBatchFormat.numberedOperations(fromJSONLines: try await Self.bodyText(request))
        let dryRun = try Self.isDryRun(request)
        do {
            let results = try await session.perform(batch: numbered.map(\.operation), dryRun: dryRun)
            return JSONResponse.make(
                BatchJSON(
                    changes: results.map { $0.changes.map(ChangeJSON.init) }, folder_changes: results.map { $0.folderChanges.map(FolderChangeJSON.init) },
                    operations: results.count, dry_run: dryRun))
        } catch var refusal as BatchRefusal {
            refusal.line = numbered[refusal.index].line
            throw refusal
        }
    }

    // MARK: History

    /// `GET /api/history?limit=&album=`: what `albums history --json` prints.
    private func history(_ request: Request, _ context: AlbumsRequestContext) async throws -> Response {
        let limit = try Self.integer(request, "limit", default: 20, range: 1...HistoryRetention.maximumKeptEntries)
        let name: String? = request.uri.queryParameters.get("album").map { String($0) }
        let listing = try await session(context).read { reader in
            let album = try name.map { try reader.album(named: $0).id }
            return try HistoryListingJSON(entries: try reader.history(limit: limit, album: album), reader: reader)
        }
        return JSONResponse.make(listing)
    }

    /// `POST /api/undo`, `POST /api/redo` (`?dry_run=1`): what `albums undo --json` prints.
    private func replay(_ request: Request, _ context: AlbumsRequestContext, undoing: Bool) async throws -> Response {
        let dryRun = try Self.isDryRun(request)
        let result = try await session(context).write(dryRun: dryRun) { undoing ? try $0.undo() : try $0.redo() }
        return JSONResponse.make(HistoryReplayJSON(result, dryRun: dryRun))
    }

    // MARK: Uploads

    private struct UploadJSON: Encodable {
        let album: String
        /// The placeholders standing for the files, in order.
        let placeholders: [Int64]
        /// The names the files are kept under, in the upload inbox.
        let files: [String]
        let position: Int
    }

    /// Files from the desktop: received whole and sniffed, then placeholders
    /// at the slot in one transaction, answered at once; each file's load
    /// then commits into its placeholder's slot, wherever it stands by then.
    private func upload(_ request: Request, _ context: AlbumsRequestContext) async throws -> Response {
        let session = session(context)
        let album = AlbumReference.named(try Self.pathText(context, "name"))
        let at = try Self.optionalInteger(request, "at", range: 1...Int.max)
        let expected = try Self.optionalInteger(request, "expect_revision", range: 0...Int.max).map { [album: Int64($0)] } ?? [:]
        let destination: Destination = at.map { .at($0 - 1, in: album) } ?? .into(album)
        let runner = LoadRunner(session: session)
        // Refused before a byte is kept: no album, locked, out of range, changed since.
        let checked = try await runner.checkDestination(destination, expecting: expected)
        let receiver = try UploadReceiver(contentType: request.headers[.contentType], inbox: uploads)
        var total = 0
        do {
            for try await buffer in request.body {
                total += buffer.readableBytes
                if total > Self.maximumUploadSize {
                    throw RequestRefusal(status: .contentTooLarge, code: "file_too_large", message: "one upload may hold at most \(Self.maximumUploadSize >> 20) MiB")
                }
                try receiver.consume(buffer)
            }
        } catch {
            receiver.abandon()
            throw error
        }
        let files = try receiver.finish()
        let begun: [LoadRunner.Load]
        do {
            begun = try await runner.begin(files.map(\.path), at: destination, expecting: expected)
        } catch {
            receiver.abandon()
            throw error
        }
        // Where the placeholders stand (other writers may have moved them
        // already), read before their loads start: a load that fails at once
        // (the photo is in the album already) takes its placeholder away.
        let first = begun.first?.placeholder
        let index = (try? await session.read { reader in try first.map { try reader.item($0).index } }) ?? checked.index
        await loads.start { _ = await runner.run(begun) }
        return JSONResponse.make(
            status: .accepted,
            UploadJSON(
                album: album.description, placeholders: begun.compactMap { $0.placeholder?.rawValue }, files: files.map(\.name),
                position: index + 1))
    }

    // MARK: Photos

    /// The size the grid asks for when it names none.
    static let defaultThumbnailSize = 256

    private func thumbnail(_ request: Request, _ context: AlbumsRequestContext) async throws -> Response {
        try await Self.thumbnail(of: try await Self.photo(context, session: session(context)), request, store: thumbnails)
    }

    /// A photo's thumbnail at the size asked for, cached by content.
    static func thumbnail(of photo: Photo, _ request: Request, store thumbnails: ThumbnailStore) async throws -> Response {
        let size = try Self.integer(request, "size", default: Self.defaultThumbnailSize, range: ThumbnailStore.longerSides)
        let tag = "\"\(photo.content.sha256Hex)-\(size)\""
        // Keyed by content: a photo id always means the same bytes.
        let caching = "private, max-age=604800"
        if request.headers[.ifNoneMatch] == tag {
            return Response(status: .notModified, headers: [.eTag: tag, .cacheControl: caching])
        }
        let thumbnail = try await thumbnails.thumbnail(of: photo, longerSide: size)
        return Response(
            status: .ok, headers: [.contentType: thumbnail.mediaType, .eTag: tag, .cacheControl: caching],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: thumbnail.jpeg)))
    }

    /// The photo the path's `id` names: ids only, never a path. One the
    /// principal cannot see is not found, as if it did not exist.
    static func photo(_ context: AlbumsRequestContext, session: TransferSession) async throws -> Photo {
        guard let id = Int64(try Self.pathText(context, "id")), id > 0 else {
            throw RequestRefusal(status: .badRequest, code: "invalid_photo_id", message: "a photo is named by its id, a positive whole number")
        }
        return try await session.read { reader in
            let photo = PhotoID(rawValue: id)
            guard try reader.canSee(photo) else { throw LibraryError.photoNotFound(photo) }
            return try reader.photo(photo)
        }
    }

    private func original(_ request: Request, _ context: AlbumsRequestContext) async throws -> Response {
        try await OriginalFiles().response(for: try await Self.photo(context, session: session(context)), request, context: context)
    }

    // MARK: Events

    private struct EventJSON: Encodable {
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
    private func events(_ context: AlbumsRequestContext) async throws -> Response {
        let session = session(context)
        let stream = try await library.changes()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
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

    // MARK: Request parts

    /// `?dry_run=1` (or `true`); `0`, `false` or none: a real write. Any
    /// other value is refused: a mistyped dry run must not write.
    static func isDryRun(_ request: Request) throws -> Bool {
        switch request.uri.queryParameters.get("dry_run").map({ String($0) }) {
        case nil, "0", "false": false
        case "1", "true": true
        case let other?: throw RequestRefusal.badParameter("dry_run must be 1, true, 0 or false, not '\(other)'")
        }
    }

    static func pathText(_ context: AlbumsRequestContext, _ name: String) throws -> String {
        guard let raw = context.parameters.get(name), let text = raw.removingPercentEncoding else {
            throw RequestRefusal.badParameter("the path's \(name) is not valid percent-encoded UTF-8")
        }
        return text
    }

    static func integer(_ request: Request, _ name: String, default value: Int, range: ClosedRange<Int>) throws -> Int {
        guard let text = request.uri.queryParameters.get(name) else { return value }
        guard let number = Int(text), range.contains(number) else {
            throw RequestRefusal.badParameter("\(name) must be a whole number in \(range.lowerBound)…\(range.upperBound)")
        }
        return number
    }

    static func optionalInteger(_ request: Request, _ name: String, range: ClosedRange<Int>) throws -> Int? {
        guard request.uri.queryParameters.get(name) != nil else { return nil }
        return try integer(request, name, default: 0, range: range)
    }

    static func bodyText(_ request: Request) async throws -> String {
        var request = request
        let buffer: ByteBuffer
        do {
            buffer = try await request.collectBody(upTo: maximumBodySize)
        } catch {
            throw RequestRefusal(status: .contentTooLarge, code: "body_too_large", message: "the body is larger than \(maximumBodySize >> 20) MiB")
        }
        guard let text = String(validating: buffer.readableBytesView, as: UTF8.self) else {
            throw RequestRefusal(status: .badRequest, code: "invalid_batch", message: "the body is not UTF-8 text")
        }
        return text
    }
}
