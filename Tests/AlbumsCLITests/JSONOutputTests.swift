import AlbumsPersistence
import Foundation
import Testing

@testable import AlbumsCommands

@Suite("JSON output")
struct JSONOutputTests {
    @Test("the hand-written item JSON is exactly what JSONEncoder writes", arguments: [
        "plain.jpg", "quote\"back\\slash", "new\nline\ttab\r", "control\u{01}\u{1F}", "slash/and/ünïcødé 🌅", "",
    ])
    func itemJSONMatchesEncoder(name: String) throws {
        let photo = Photo(
            id: PhotoID(rawValue: 7),
            content: PhotoContent(
                sha256: Data((0..<32).map { UInt8($0 * 7 & 0xFF) }), byteCount: 1234, mediaType: "image/png", pixelWidth: 3,
                pixelHeight: 2, capturedAt: name.isEmpty ? nil : "2026-07-14T09:12:00", originalName: name, sourcePath: "/in/" + name),
            importedAt: Timestamp.date("2026-11-21T00:00:00.000Z"))
        let item = AlbumItem(id: AlbumItemID(rawValue: 3), albumID: AlbumID(rawValue: 1), index: 4, content: .photo(photo.id))
        let placeholder = AlbumItem(
            id: AlbumItemID(rawValue: 4), albumID: AlbumID(rawValue: 1), index: 5,
            content: .placeholder(PendingLoad(source: "/in/" + name, owner: LoadOwner(host: "elsewhere", processID: 1, processStartedAt: nil), createdAt: Date())))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        for json in [ItemJSON(item, photo: photo), ItemJSON(placeholder, photo: nil)] {
            var written = ""
            json.appendJSON(to: &written)
            let encoded = String(decoding: try encoder.encode(json), as: UTF8.self)
            #expect(written == encoded)
        }
    }
}
