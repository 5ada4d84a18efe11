// How a host app embeds albums: open a library, keep its own list of an
// album's items (what a table or collection view shows), ask whether a
// drop is allowed while the drag moves, perform it on drop, and apply the
// change set to its list, as `performBatchUpdates` would.
//
// Run: swift run embedding-example [LIBRARY-PATH]
import AlbumsPersistence
import AlbumsTransfer
import Crypto
import Foundation

let path = CommandLine.arguments.dropFirst().first
    ?? FileManager.default.temporaryDirectory.appending(path: "embedding-example-\(UUID().uuidString).albums").path

do {
    let session = TransferSession(library: try Library.open(at: path))

    // Some content: in an app it comes from a loader; here, made-up bytes.
    try session.library.write { writer in
        let trip = try writer.createAlbum(named: "Trip")
        let photos = try ["harbour", "market", "cliffs", "sunset"].map { name in
            try writer.addPhoto(PhotoContent(
                sha256: Data(SHA256.hash(data: Data(name.utf8))), byteCount: Int64(name.count),
                mediaType: "image/jpeg", originalName: "\(name).jpg", sourcePath: "/photos/\(name).jpg")).photo.id
        }
        try writer.insertPhotos(photos, into: trip.id)
    }

    // The app's own model of the album, as its view shows it.
    let album = try session.library.read { try $0.album(named: "Trip") }
    var shown = try session.library.read { try $0.items(in: album.id).map(\.id) }
    print("shown:", shown)

    // The conclude-drop moment: every committed change arrives here.
    let observation = session.observeChanges { changes in
        for change in changes { print("committed: \(change.albumName) r\(change.revision) moved \(change.moved.map { "\($0.from)→\($0.to)" })") }
    }

    // While the drag hovers over index 0, ask what dropping there would do.
    let drop = TransferOperation.move([.item(shown[3])], to: .at(0, in: .id(album.id)))
    let proposal = try session.propose(drop)
    print("proposal:", proposal.verdict)
    guard proposal.isAllowed else { exit(1) }

    // On drop: perform it, then apply the change set to the app's list.
    for change in try session.perform(drop) where change.albumID == album.id {
        let stored = try session.library.read { try $0.items(in: album.id).map(\.id) }
        guard let updated = change.applied(to: shown, inserting: { stored[$0] }) else {
            print("the change set does not fit the list shown")
            exit(1)
        }
        shown = updated
    }
    let stored = try session.library.read { try $0.items(in: album.id).map(\.id) }
    print("shown:", shown, shown == stored ? "(matches the library)" : "(DIFFERS from the library)")
    observation.cancel()
    exit(shown == stored ? 0 : 1)
} catch {
    print("embedding-example: \(error)")
    exit(1)
}
