import AlbumsImporting
import AlbumsPersistence
import AlbumsTestSupport
import AlbumsTransfer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import AlbumsServer

/// Noninterference: the same requests, as the same person, against two
/// libraries that differ only in what that person cannot see, get the same
/// answers. Library "with" hides a folder `Vault/Inner` holding the shared
/// album Wedding and a private album `Private` with a photo of its own
/// (the example harbour, as `p2.jpg`); library "without" has Wedding at the
/// top level and nothing else.
@Suite("albums serve: what a person cannot see changes no answer")
struct NoninterferenceTests: Sendable {
    static let token = "0123456789abcdef0123456789abcdef"

    /// A library, and the session cookies of gran (views Wedding), sam (edits Wedding) and lee (nothing).
    struct Household: Sendable {
        let fixture: LibraryFixture
        let sessions: [String: String]

        /// The household, hiding or not.
        static func make(hiding: Bool) async throws -> Household {
            try Household(hiding: hiding ? try await FileLoader().load(ExamplePhotos.path("01-harbour.jpg")) : nil)
        }

        /// `hidden`: the facts of the photo that `Private` holds; nil, no hidden folder and album.
        private init(hiding hidden: PhotoContent?) throws {
            let hiding = hidden != nil
            fixture = try LibraryFixture(options: Library.Options(allowsConcurrentReads: true))
            var tokens: [String: String] = [:]
            let folder = fixture.folder
            // Each change its own transaction, as people make them: the history's entries are the same but for the hidden ones.
            var parent: TreePlacement = .into(nil)
            if hiding {
                try fixture.library.write { writer in
                    let vault = try writer.createFolder(named: "Vault", placement: .into(nil))
                    parent = .into(.id(try writer.createFolder(named: "Inner", placement: .into(.id(vault.id))).id))
                }
            }
            try fixture.library.write { writer in
                let wedding = try writer.createAlbum(named: "Wedding", placement: parent)
                func photo(_ index: Int) throws -> PhotoID {
                    let path = folder.path("p\(index).jpg")
                    try Data([0xFF, 0xD8, 0xFF, UInt8(index)]).write(to: URL(fileURLWithPath: path))
                    return try writer.addPhoto(
                        PhotoContent(
                            sha256: Data(repeating: UInt8(index + 1), count: 32), byteCount: 4, mediaType: "image/jpeg", pixelWidth: 4,
                            pixelHeight: 3, orientation: .up, originalName: "p\(index).jpg", sourcePath: path)
                    ).photo.id
                }
                try writer.insertPhotos([try photo(0), try photo(1)], into: wedding.id)
                let hash = try PasswordHash(password: "correct horse", cost: 4)
                // A smart album of every photo: what it shows must not depend on the hidden album either.
                let everything = try writer.createSmartAlbum(named: "Everything", placement: .into(nil), search: PhotoSearch())
                for (name, role) in [("gran", Role.viewer), ("sam", .editor), ("lee", nil)] as [(String, Role?)] {
                    let person = try writer.addPerson(named: name, password: hash)
                    if let role {
                        try writer.setRole(role, of: person.id, on: .album(wedding.id))
                        try writer.setRole(role, of: person.id, on: .album(everything.id))
                    }
                    tokens[name] = try writer.openSession(for: person).token
                }
            }
            if var content = hidden {
                content.sourcePath = folder.path("p2.jpg")
                content.originalName = "p2.jpg"
                try FileManager.default.copyItem(atPath: ExamplePhotos.path("01-harbour.jpg"), toPath: content.sourcePath)
                try fixture.library.write { writer in
                    let hidden = try writer.createAlbum(named: "Private", placement: parent)
                    try writer.insertPhotos([try writer.addPhoto(content).photo.id], into: hidden.id)
                }
                // Words on the hidden item: an upload of the same bytes must not bring them along.
                var edit = ItemMarksEdit()
                edit.caption = .set("secret words")
                edit.isFavorite = .set(true)
                edit.rating = .set(.stars(5))
                edit.addedKeywords = ["hidden"]
                try fixture.library.write { try $0.perform(.mark(ItemMarking(items: [.position(0, in: "Private")], edit: edit))) }
            }
            // The latest change, the same in both: a photo moved inside Wedding.
            try fixture.library.write { try $0.perform(.move([.position(0, in: "Wedding")], to: .at(1, in: "Wedding"))) }
            sessions = tokens
        }

        /// The answer to `request` as `person`: its status and its body with
        /// what differs between any two libraries (revisions, times, digests) left out.
        func answer(_ request: Request, as person: String) async throws -> String {
            let app = Application(router: AlbumsServer.router(session: TransferSession(library: fixture.library), token: NoninterferenceTests.token) { ["localhost"] })
            let cookie = sessions[person]!
            return try await app.test(.router) { client in
                var headers: HTTPFields = [.cookie: "albums_person=\(cookie)"]
                if request.body != nil { headers[.contentType] = "application/json" }
                let response = try await client.executeRequest(
                    uri: request.uri, method: request.method, headers: headers, body: request.body.map { ByteBuffer(string: $0) })
                return "\(response.status.code) \(Household.normalized(String(buffer: response.body), folder: fixture.folder.path("")))"
            }
        }

        /// `person` uploads `bytes` as `name` to the end of `album`; once
        /// the load has committed, the answers to `requests`, the upload's first.
        func answersAfterUploading(_ bytes: Data, named name: String, into album: String, as person: String, then requests: [Request]) async throws -> [String] {
            let app = Application(router: AlbumsServer.router(session: TransferSession(library: fixture.library), token: NoninterferenceTests.token) { ["localhost"] })
            let cookie = sessions[person]!
            let folder = fixture.folder.path("")
            return try await app.test(.router) { client in
                let (type, body) = APITests.formData([(name, bytes)])
                let upload = try await client.executeRequest(
                    uri: "/api/albums/\(album)/files", method: .post, headers: [.cookie: "albums_person=\(cookie)", .contentType: type], body: body)
                var answers = ["\(upload.status.code) \(Household.normalized(String(buffer: upload.body), folder: folder))"]
                for _ in 0..<12_000 where try await fixture.library.read({ try $0.album(named: album).placeholderCount }) > 0 {
                    try await Task.sleep(for: .milliseconds(25))
                }
                let uploaded = try await fixture.library.read { reader in
                    try reader.items(in: try reader.album(named: album).id).compactMap(\.photoID).max()?.rawValue
                }
                let made = try #require(uploaded)
                func named(_ text: String) -> String { text.replacingOccurrences(of: "{upload}", with: "\(made)") }
                for request in requests {
                    var headers: HTTPFields = [.cookie: "albums_person=\(cookie)"]
                    if request.body != nil { headers[.contentType] = "application/json" }
                    let response = try await client.executeRequest(
                        uri: named(request.uri), method: request.method, headers: headers, body: request.body.map { ByteBuffer(string: named($0)) })
                    let answer = Household.normalized(String(buffer: response.body), folder: folder)
                        .replacingOccurrences(of: "\"photo_id\":\(made)", with: "\"photo_id\":\"upload\"")
                        .replacingOccurrences(of: "id:\(made)", with: "id:upload")
                    answers.append("\(response.status.code) \(answer)")
                }
                return answers
            }
        }

        /// Keys whose values count every row of the library, seen or not: an
        /// item's id is one more than the last item's anywhere. (Photo ids
        /// are kept: the photos the tests make have the same ids in both.)
        static let ignored: Set = [
            "revision", "committed_at", "sequence", "id", "item_id", "placeholder_id", "placeholders", "inserted_items",
            "removed_items", "updated_items",
            // When a photo was imported, and a page's cursor that carries it.
            "imported_at", "next",
        ]

        static func normalized(_ body: String, folder: String) -> String {
            guard let json = try? JSONSerialization.jsonObject(with: Data(body.utf8)) else { return body.replacingOccurrences(of: folder, with: "/") }
            func strip(_ value: Any) -> Any {
                if let object = value as? [String: Any] {
                    return object.filter { !ignored.contains($0.key) }.mapValues(strip)
                }
                if let array = value as? [Any] { return array.map(strip) }
                if let text = value as? String { return text.replacingOccurrences(of: folder, with: "/") }
                return value
            }
            let data = try! JSONSerialization.data(withJSONObject: strip(json), options: [.sortedKeys])
            return String(decoding: data, as: UTF8.self)
        }
    }

    struct Request: Sendable, CustomStringConvertible {
        let method: HTTPRequest.Method
        let uri: String
        let body: String?
        var description: String { "\(method) \(uri) \(body ?? "")" }
    }

    /// What a person might ask that names, places or counts things: every
    /// one of them must answer alike with and without the hidden ones.
    static let requests: [Request] = {
        let dry = "/api/operations?dry_run=1"
        return [
            Request(method: .get, uri: "/api/albums", body: nil),
            Request(method: .get, uri: "/api/albums/Wedding/items", body: nil),
            Request(method: .get, uri: "/api/albums/Vault%2FInner%2FWedding/items", body: nil),
            Request(method: .get, uri: "/api/albums/Private/items", body: nil),
            Request(method: .get, uri: "/api/photos/3/original", body: nil),
            Request(method: .post, uri: dry, body: #"{"op": "create_album", "name": "Private"}"#),
            Request(method: .post, uri: dry, body: #"{"op": "create_album", "name": "Wedding 2", "before": "Vault/Inner"}"#),
            Request(method: .post, uri: dry, body: #"{"op": "create_album", "name": "Wedding 2", "into": "Vault/Inner"}"#),
            Request(method: .post, uri: dry, body: #"{"op": "move_album", "album": "Wedding", "at": 99}"#),
            Request(method: .post, uri: dry, body: #"{"op": "move_album", "album": "Wedding", "at": 2}"#),
            Request(method: .post, uri: dry, body: #"{"op": "move", "items": ["Wedding:1"], "to": "Wedding", "at": 99}"#),
            Request(method: .post, uri: dry, body: #"{"op": "copy", "items": ["id:3"], "to": "Wedding"}"#),
            Request(method: .post, uri: dry, body: #"{"op": "create_folder", "name": "Vault"}"#),
            Request(method: .get, uri: "/api/albums/Wedding/roles", body: nil),
            Request(method: .post, uri: "/api/undo?dry_run=1", body: nil),
            Request(method: .get, uri: "/api/photos", body: nil),
            Request(method: .get, uri: "/api/photos?limit=1", body: nil),
            Request(method: .get, uri: "/api/photos?name=p2", body: nil),
            Request(method: .get, uri: "/api/photos?no_album=1", body: nil),
            Request(method: .get, uri: "/api/photos?album=Private", body: nil),
            Request(method: .get, uri: "/api/photos?taken=2026-07", body: nil),
            Request(method: .get, uri: "/api/photos?format=jpeg&shape=landscape", body: nil),
            Request(method: .get, uri: "/api/photos/months", body: nil),
            Request(method: .get, uri: "/api/albums/Everything/items", body: nil),
            Request(method: .post, uri: dry, body: #"{"op": "freeze_album", "album": "Everything"}"#),
            Request(method: .post, uri: dry, body: #"{"op": "create_smart_album", "name": "Mine", "search": {"album": "Private"}}"#),
            Request(method: .get, uri: "/api/photos/months?no_album=1", body: nil),
            Request(method: .get, uri: "/api/photos/months?album=Private", body: nil),
            Request(method: .get, uri: "/api/photos?text=secret", body: nil),
            Request(method: .get, uri: "/api/photos?favorite=1", body: nil),
            Request(method: .get, uri: "/api/photos?keyword=hidden&min_rating=5", body: nil),
            Request(method: .get, uri: "/api/photos/months?rejected=1", body: nil),
            Request(method: .post, uri: dry, body: #"{"op": "mark", "items": ["id:3"], "favorite": true}"#),
            Request(method: .post, uri: dry, body: #"{"op": "describe_album", "album": "Private", "description": "x"}"#),
        ]
    }()

    @Test("an upload of bytes that only a hidden album holds tells its uploader nothing of them")
    func uploadOfHiddenBytes() async throws {
        let harbour = try Data(contentsOf: URL(fileURLWithPath: ExamplePhotos.path("01-harbour.jpg")))
        let dry = "/api/operations?dry_run=1"
        // `{upload}`: the id of the photo the upload made, which counts every photo as an item's id counts every item.
        let requests = [
            Request(method: .get, uri: "/api/albums/Wedding/items", body: nil),
            Request(method: .get, uri: "/api/photos/{upload}", body: nil),
            Request(method: .get, uri: "/api/photos?taken=2026", body: nil),
            Request(method: .post, uri: dry, body: #"{"op": "copy", "items": ["id:{upload}"], "to": "Wedding"}"#),
            Request(method: .post, uri: "/api/operations", body: #"{"op": "remove", "items": ["Wedding:3"]}"#),
            Request(method: .post, uri: "/api/undo", body: nil),
            Request(method: .get, uri: "/api/albums/Wedding/items", body: nil),
        ]
        let with = try await Household.make(hiding: true)
        let without = try await Household.make(hiding: false)
        let a = try await with.answersAfterUploading(harbour, named: "mine.jpg", into: "Wedding", as: "sam", then: requests)
        let b = try await without.answersAfterUploading(harbour, named: "mine.jpg", into: "Wedding", as: "sam", then: requests)
        #expect(a[1].contains("mine.jpg") && !a[1].contains("p2.jpg") && !a[1].contains("secret"), "\(a[1])")
        for (index, (with, without)) in zip(a, b).enumerated() {
            #expect(with == without, "\(index == 0 ? "the upload" : "\(requests[index - 1])")\n  with:    \(with)\n  without: \(without)")
        }
        // A photo of its own over the same bytes: the hidden one is untouched, and nothing made for it is the upload's.
        let photos = try await with.fixture.library.read { try $0.photos() }
        let (hidden, upload) = (try #require(photos.first { $0.content.originalName == "p2.jpg" }), try #require(photos.last))
        #expect(upload.content.sha256 == hidden.content.sha256 && upload.id != hidden.id && upload.isApart && !hidden.isApart)
        #expect(upload.content.originalName == "mine.jpg" && upload.importedAt > hidden.importedAt)
        #expect(upload.derivedFilesKey != hidden.derivedFilesKey)
        // Its answers' tags are those of any photo of its bytes: an ETag that differed would tell it apart.
        let ordinary = Photo(id: upload.id, content: upload.content, importedAt: upload.importedAt)
        #expect(ThumbnailResponses.tag(of: upload, size: 256) == ThumbnailResponses.tag(of: ordinary, size: 256))
        #expect(hidden.content.sourcePath.hasSuffix("/p2.jpg"))
        #expect(try with.fixture.library.violations() == [])
    }

    @Test("bytes their uploader can see already, and bytes the holder imports again, join the photo they are")
    func uploadOfSeenBytes() async throws {
        let with = try await Household.make(hiding: true)
        let harbour = try Data(contentsOf: URL(fileURLWithPath: ExamplePhotos.path("01-harbour.jpg")))
        try await with.fixture.library.write { writer in
            let own = try writer.createAlbum(named: "Sam's", placement: .into(nil))
            try writer.setRole(.editor, of: try writer.person(named: "sam").id, on: .album(own.id))
        }
        _ = try await with.answersAfterUploading(harbour, named: "mine.jpg", into: "Wedding", as: "sam", then: [])
        _ = try await with.answersAfterUploading(harbour, named: "again.jpg", into: "Sam's", as: "sam", then: [])
        let photos = try await with.fixture.library.read { try $0.photos() }
        #expect(photos.count == 4, "p0, p1, the hidden p2 and sam's own: \(photos.map(\.content.originalName))")
        let own = try await with.fixture.library.read { reader in try reader.items(in: try reader.album(named: "Sam's").id).map(\.photoID) }
        #expect(own == [photos[3].id], "the photo of sam's that Wedding holds")
        // The holder sees every photo: the same bytes imported again find the first.
        let found = try await with.fixture.library.write { writer in
            try writer.addPhoto(PhotoContent(sha256: photos[2].content.sha256, byteCount: photos[2].content.byteCount, mediaType: "image/jpeg",
                originalName: "again.jpg", sourcePath: photos[2].content.sourcePath))
        }
        #expect(found.photo.id == photos[2].id && !found.isNew)
    }

    @Test("the history names no folder its reader cannot see", arguments: ["gran", "sam"])
    func historyNamesNoHiddenFolder(_ person: String) async throws {
        let with = try await Household.make(hiding: true)
        let history = try await with.answer(Request(method: .get, uri: "/api/history", body: nil), as: person)
        #expect(history.contains("Wedding"), "\(history)")
        #expect(!history.contains("Vault") && !history.contains("Inner"), "\(history)")
    }

    @Test("gran, sam and lee get the same answers whether or not a hidden folder and album exist", arguments: ["gran", "sam", "lee"])
    func sameAnswers(_ person: String) async throws {
        let with = try await Household.make(hiding: true)
        let without = try await Household.make(hiding: false)
        for request in Self.requests {
            let (a, b) = (try await with.answer(request, as: person), try await without.answer(request, as: person))
            #expect(a == b, "\(person): \(request)\n  with:    \(a)\n  without: \(b)")
        }
    }
}
