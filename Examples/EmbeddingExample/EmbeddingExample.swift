// How a host app embeds albums: open a library, keep its own list of an
// album's items (what a table or collection view shows), ask whether a
// drop is allowed while the drag moves, perform it on drop, and apply the
// change sets it hears (its own and any other process's) to its list, as
// `performBatchUpdates` would.
//
// Run: swift run embedding-example [LIBRARY-PATH]
import AlbumsPersistence
import AlbumsTransfer
import Crypto
import Foundation

@main
enum EmbeddingExample {
    static func main() async {
        let path = CommandLine.arguments.dropFirst().first
            ?? FileManager.default.temporaryDirectory.appending(path: "embedding-example-\(UUID().uuidString).albums").path
        do {
            exit(try await run(path: path) ? 0 : 1)
        } catch {
            print("embedding-example: \(error)")
            exit(1)
        }
    }

    /// Returns whether the app's list matches the library at the end.
    static func run(path: String) async throws -> Bool {
        let session = TransferSession(library: try Library.open(at: path))

        // Some content: in an app it comes from a loader; here, made-up bytes.
        let album = try await session.library.write { writer in
            let trip = try writer.createAlbum(named: "Trip-\(UUID().uuidString.prefix(8))")
            let photos = try ["harbour", "market", "cliffs", "sunset"].map { name in
                try writer.addPhoto(PhotoContent(
                    sha256: Data(SHA256.hash(data: Data((name + trip.name).utf8))), byteCount: Int64(name.count),
                    mediaType: "image/jpeg", originalName: "\(name).jpg", sourcePath: "/photos/\(name).jpg")).photo.id
            }
            try writer.insertPhotos(photos, into: trip.id)
            return try writer.album(trip.id)
        }

        // The app's own model of the album, as its view shows it.
        var shown = try await session.library.read { try $0.items(in: album.id).map(\.id) }
        print("shown:", shown)

        // Every committed change, whoever made it, arrives here in commit order.
        let changes = try await session.changes()

        // While the drag hovers over index 0, ask what dropping there would do.
        let drop = TransferOperation.move([.item(shown[3])], to: .at(0, in: .id(album.id)))
        let proposal = try await session.propose(drop)
        print("proposal:", proposal.verdict)
        guard proposal.isAllowed else { return false }

        // On drop: perform it; the change stream then brings its change sets.
        let result = try await session.perform(drop)
        print("performed:", result.outcome)
        for await committed in changes {
            for change in committed.changeSets where change.albumID == album.id {
                print("committed #\(committed.sequence): r\(change.revision) moved \(change.moved.map { "\($0.item): \($0.from)→\($0.to)" })")
                let inserted = Dictionary(uniqueKeysWithValues: zip(change.inserted, change.insertedItems))
                guard let updated = change.applied(to: shown, inserting: { inserted[$0]! }) else {
                    print("the change set does not fit the list shown")
                    return false
                }
                shown = updated
            }
            break
        }
        let stored = try await session.library.read { try $0.items(in: album.id).map(\.id) }
        print("shown:", shown, shown == stored ? "(matches the library)" : "(DIFFERS from the library)")
        return shown == stored
    }
}
