import AlbumsImporting
import AlbumsPersistence
import AlbumsThumbnails
import AlbumsTransfer
import AlbumsWire
import Foundation
import Hummingbird

// The albums and their items (`GET /api/albums`, `GET /api/albums/{name}/items`), and files uploaded into an album (`POST /api/albums/{name}/files`).
extension APIRoutes {

    func albums(_ context: AlbumsRequestContext) async throws -> Response {
        // The whole tree as the principal sees it: albums and folders, each
        // with its parent and position, and the covers of what they see.
        return JSONResponse.make(try await session(context).read { reader in
            let tree = try reader.countingSmartAlbums(try reader.tree())
            var searches: [AlbumID: SmartSearchJSON] = [:]
            for entry in tree {
                if case .album(let album) = entry.node, album.isSmart { searches[album.id] = SmartSearchJSON(album, reader: reader) }
            }
            return TreeJSON(tree, covers: try reader.covers(in: tree), searches: searches)
        })
    }

    struct ItemsPage: Encodable, Sendable {
        let album: AlbumJSON
        let items: [ItemJSON]
        let offset: Int
        let limit: Int
    }

    func items(_ request: Request, _ context: AlbumsRequestContext) async throws -> Response {
        let name = try RequestParts.pathText(context, "name")
        let offset = try RequestParts.integer(request, "offset", default: 0, range: 0...Int.max)
        let limit = try RequestParts.integer(request, "limit", default: 500, range: 1...RequestParts.maximumLimit)
        let page = try await Self.itemsPage(of: name, offset: offset, limit: limit, session: session(context))
        return JSONResponse.make(page)
    }

    /// One page of an album's items, as the principal sees the album.
    static func itemsPage(of name: String, offset: Int, limit: Int, session: TransferSession) async throws -> ItemsPage {
        // Paths on the server's disk are the holder's and admins' (a person's own upload's too: the inbox is the server's).
        let showingPaths = session.principal.holdsEveryRight
        return try await session.read { reader -> ItemsPage in
            let album = try reader.album(named: name)
            var items: [ItemJSON] = []
            if offset < album.itemCount {
                let marked = try reader.markedItems(in: album.id)
                try reader.forEachListedItem(in: album.id, from: offset) { item, photo in
                    items.append(ItemJSON(item, photo: photo, marks: marked[item.id] ?? .none, showingPaths: showingPaths))
                    return items.count < limit
                }
            }
            return ItemsPage(album: AlbumJSON(try reader.asSeen(album)), items: items, offset: offset, limit: limit)
        }
    }


    struct UploadJSON: Encodable {
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
    func upload(_ request: Request, _ context: AlbumsRequestContext) async throws -> Response {
        let session = session(context)
        let album = AlbumReference.named(try RequestParts.pathText(context, "name"))
        let at = try RequestParts.optionalInteger(request, "at", range: 1...Int.max)
        let expected = try RequestParts.optionalInteger(request, "expect_revision", range: 0...Int.max).map { [album: Int64($0)] } ?? [:]
        let destination: Destination = at.map { .at($0 - 1, in: album) } ?? .into(album)
        let runner = LoadRunner(session: session)
        // Refused before a byte is kept: no album, locked, out of range, changed since.
        let checked = try await runner.checkDestination(destination, expecting: expected)
        let receiver = try UploadReceiver(contentType: request.headers[.contentType], inbox: uploads)
        var total = 0
        do {
            for try await buffer in request.body {
                total += buffer.readableBytes
                if total > RequestParts.maximumUploadSize {
                    throw RequestRefusal(status: .contentTooLarge, code: "file_too_large", message: "one upload may hold at most \(RequestParts.maximumUploadSize >> 20) MiB")
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
}
