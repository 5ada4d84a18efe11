import AlbumsImageFacts
import AlbumsPersistence
import AlbumsTestSupport
import AlbumsTransfer
import AlbumsWire
import Foundation
import Testing

@testable import AlbumsCommands

@Suite("JSON output")
struct JSONOutputTests {
    @Test("list --json's byte writer writes exactly what JSONEncoder makes of ItemJSON", arguments: [
        "plain.jpg", "quote\"back\\slash", "new\nline\ttab\r", "control\u{01}\u{1F}\u{08}\u{0C}\u{7F}", "slash/and/ünïcødé 🌅", "",
    ])
    func listingWriterMatchesEncoder(name: String) throws {
        let fixture = try LibraryFixture()
        let library = fixture.library
        try library.write { writer in
            let album = try writer.createAlbum(named: "A")
            let photo = try writer.addPhoto(PhotoContent(
                sha256: Data((0..<32).map { UInt8($0 * 7 & 0xFF) }), byteCount: 1234, mediaType: "image/png", pixelWidth: 3,
                pixelHeight: 2, capturedAt: name.isEmpty ? nil : CaptureDate("2026-07-14T09:12:00"), originalName: name, sourcePath: "/in/" + name)).photo
            try writer.insertPhotos([photo.id], into: album.id)
            let elsewhere = LoadOwner(host: "elsewhere", processID: 1, processStartedAt: nil)
            try writer.insertPlaceholders([PendingLoad(source: "/in/" + name, owner: elsewhere, createdAt: Date())], into: album.id)
            try writer.insertPlaceholders([PendingLoad(source: "/in/mine-" + name)], into: album.id)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        try library.read { reader in
            let album = try reader.album(named: "A")
            var expected: [String] = []
            try reader.forEachListedItem(in: album.id) { item, photo in
                expected.append(String(decoding: try encoder.encode(ItemJSON(item, photo: photo)), as: UTF8.self))
                return true
            }
            var written: [String] = []
            try reader.forEachListingRow(in: album) { row in
                var writer = ListingJSONWriter()
                writer.appendItem(row)
                written.append(String(decoding: writer.buffer, as: UTF8.self))
            }
            #expect(written == expected)
            #expect(written.count == 3)
        }
    }

    @Test("album list --json's byte writer writes exactly what JSONEncoder makes of the tree", arguments: [
        "plain", "quote\"back\\slash", "ünïcødé 🌅", "colon: and <b>&amp;",
    ])
    func treeWriterMatchesEncoder(name: String) throws {
        let fixture = try LibraryFixture()
        let library = fixture.library
        try library.write { writer in
            let folder = try writer.createFolder(named: "F " + name, placement: .into(nil))
            let inner = try writer.createFolder(named: "G " + name, placement: .into(.id(folder.id)))
            try writer.createAlbum(named: "A " + name, placement: .into(.id(inner.id)))
            let top = try writer.createAlbum(named: "B " + name)
            try writer.insertPhotos(try writer.addTestPhotos(count: 2) + writer.addTestPhotos(count: 3, mediaType: "video/mp4"), into: top.id)
            try writer.setAlbumLocked(top.id, true)
            try writer.setFolderLocked(inner.id, true)
        }
        let entries = try library.read { try $0.tree() }
        var writer = ListingJSONWriter()
        writer.appendTree(entries)
        let written = String(decoding: writer.buffer, as: UTF8.self)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let tree = TreeJSON(entries)
        let objects = try tree.albums.map { String(decoding: try encoder.encode($0), as: UTF8.self) }
            + tree.folders.map { String(decoding: try encoder.encode($0), as: UTF8.self) }
        #expect(written.split(separator: "\n").map { $0.hasSuffix(",") ? String($0.dropLast()) : String($0) }.filter { $0.hasPrefix("{\"") && !$0.hasPrefix("{\"albums") }
            == objects)
        #expect(written.contains(#""count":5,"#) && written.contains(#""videos":3}"#), "\(written)")
        let decoded = try JSONSerialization.jsonObject(with: Data(written.utf8)) as? NSDictionary
        let expected = try JSONSerialization.jsonObject(with: try encoder.encode(tree)) as? NSDictionary
        #expect(decoded == expected)
    }
}

@Suite("JSON keys")
struct JSONKeyTests {
    /// Every key of a JSON value, at any depth.
    static func keys(of value: Any) -> Set<String> {
        if let object = value as? [String: Any] { return Set(object.keys).union(object.values.flatMap { keys(of: $0) }) }
        if let array = value as? [Any] { return Set(array.flatMap { keys(of: $0) }) }
        return []
    }

    @Test("every key every command prints with --json is snake_case, whatever the Swift names behind it")
    func snakeCaseEverywhere() throws {
        let cli = try CLI()
        let commands: [[String]] = [
            ["init", "--dry-run"], ["init"], ["album", "create", "Trip"], ["import", CLI.examplePhotos, "--to", "Trip"],
            ["list", "Trip"], ["show", "Trip:1"], ["album", "list"], ["move", "Trip:1", "--to", "Trip", "--at", "2", "--dry-run"],
            ["export", "Trip", cli.folder.path("out"), "--dry-run"], ["history"], ["undo", "--dry-run"], ["pending"], ["check"],
            ["inspect", cli.libraryPath], ["folder", "create", "Travel"], ["folder", "list"],
            ["import", CLI.examplePhotos, "--tree", "--into", "Travel", "--dry-run"], ["import", CLI.examplePhotos, "--tree", "--into", "Travel"],
        ]
        for command in commands {
            let result = try cli.run(["--json"] + command)
            let text = result.status == 0 ? result.stdout : result.stderr
            let value = try #require(try? JSONSerialization.jsonObject(with: Data(text.utf8)), "\(command): \(text)")
            let odd = Self.keys(of: value).filter { $0.range(of: "^[a-z0-9_]+$", options: .regularExpression) == nil }
            #expect(odd.isEmpty, "\(command): \(odd.sorted())")
        }
    }
}
