import AlbumsImageFacts
import AlbumsImporting
import AlbumsPersistence
import AlbumsTestSupport
import AlbumsThumbnails
import AlbumsTransfer
import AlbumsWire
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing

@testable import AlbumsServer

/// The API in process (HummingbirdTesting's router framework): every
/// endpoint, its errors, the token, and the Host and Origin checks.
@Suite("albums serve: the API")
struct APITests: Sendable {
    static let token = "0123456789abcdef0123456789abcdef"
    /// What HummingbirdTesting's router framework sends as the authority.
    static let authority = "localhost"

    let fixture: LibraryFixture
    let session: TransferSession
    let thumbnails: ThumbnailStore
    let renditions: PlayableRenditions

    init() throws {
        fixture = try LibraryFixture(options: Library.Options(allowsConcurrentReads: true))
        session = TransferSession(library: fixture.library)
        thumbnails = ThumbnailStore(folder: fixture.folder.url.appending(path: "thumbnails"))
        renditions = PlayableRenditions(folder: fixture.folder.url.appending(path: "renditions"))
        try fixture.library.write { writer in
            let trip = try writer.createAlbum(named: "Trip")
            try writer.createAlbum(named: "Book")
            var photos: [PhotoID] = []
            for index in 0..<5 {
                photos.append(try writer.addPhoto(PhotoContent(
                    sha256: Data(repeating: UInt8(index + 1), count: 32), byteCount: 3, mediaType: "image/jpeg",
                    pixelWidth: 4, pixelHeight: 3, orientation: index == 0 ? .right : .up,
                    originalName: "p\(index + 1).jpg", sourcePath: "/nowhere/p\(index + 1).jpg")).photo.id)
            }
            try writer.insertPhotos(photos, into: trip.id, at: 0)
        }
    }

    var application: some ApplicationProtocol {
        Application(router: AlbumsServer.router(session: session, thumbnails: thumbnails, renditions: renditions, token: Self.token) { [Self.authority] })
    }

    /// Synchronous reads, so that the test's own async context does not pick the async overloads.
    func itemCount(of album: String) throws -> Int {
        try fixture.library.read { try $0.album(named: album).itemCount }
    }

    func albumID(of album: String) throws -> Int64 {
        try fixture.library.read { try $0.album(named: album).id.rawValue }
    }

    func revision(of album: String) throws -> Int64 {
        try fixture.library.read { try $0.album(named: album).revision }
    }

    /// The router on a real socket at a free port; the names requests must
    /// carry are made from the port once it is known.
    func liveApplication(_ listening: ListeningPort, authorities: @escaping @Sendable (Int) -> Set<String>) -> some ApplicationProtocol {
        Application(
            router: AlbumsServer.router(session: session, token: Self.token) { authorities(listening.port) },
            configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    }

    var headers: HTTPFields { [.authorization: "Bearer \(Self.token)"] }

    func json(_ response: TestResponse) throws -> [String: Any] {
        try json(response.body)
    }

    func json(_ body: ByteBuffer) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any], "\(String(buffer: body))")
    }

    func errorCode(_ response: TestResponse) throws -> String? {
        try errorCode(response.body)
    }

    func errorCode(_ body: ByteBuffer) throws -> String? {
        (try json(body)["error"] as? [String: Any])?["code"] as? String
    }

    func request(_ client: some TestClientProtocol, _ uri: String, _ method: HTTPRequest.Method = .get, body: String? = nil, headers extra: HTTPFields = [:])
        async throws -> TestResponse
    {
        var headers = headers
        headers.append(contentsOf: extra)
        return try await client.executeRequest(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
    }

    @Test("albums and a page of items, in the shapes of album list and list --json")
    func reading() async throws {
        try await application.test(.router) { client in
            let albums = try json(try await request(client, "/api/albums"))["albums"] as? [[String: Any]]
            #expect(albums?.map { $0["name"] as? String } == ["Trip", "Book"])
            #expect(albums?.first?["count"] as? Int == 5)

            let page = try json(try await request(client, "/api/albums/Trip/items?offset=1&limit=2"))
            let items = try #require(page["items"] as? [[String: Any]])
            #expect(items.map { $0["position"] as? Int } == [2, 3])
            #expect(items.first?["file"] as? String == "p2.jpg")
            let first = try json(try await request(client, "/api/albums/Trip/items?limit=1"))["items"] as? [[String: Any]]
            #expect(first?.first?["display_width"] as? Int == 3 && first?.first?["orientation"] as? Int == 6)

            let missing = try await request(client, "/api/albums/Nowhere/items")
            try #expect(missing.status == .notFound && (try errorCode(missing)) == "album_not_found")
            let badLimit = try await request(client, "/api/albums/Trip/items?limit=0")
            try #expect(badLimit.status == .badRequest && (try errorCode(badLimit)) == "invalid_parameter")
            let spaced = try await request(client, "/api/albums/Trip%20X/items")
            #expect(spaced.status == .notFound, "a percent-encoded name is decoded, then looked up")
        }
    }

    @Test("photos found by their facts, in albums or not, page by page; bad filters refused with their code")
    func findingPhotos() async throws {
        try await fixture.library.write { writer in
            _ = try writer.addPhoto(PhotoContent(
                sha256: Data(repeating: 9, count: 32), byteCount: 3, mediaType: "image/heic", pixelWidth: 3, pixelHeight: 4,
                capturedAt: CaptureDate("2025-07-14T09:12:00"), cameraMake: "FUJIFILM", cameraModel: "X100V", hasLocation: true,
                originalName: "loose.heic", sourcePath: "/nowhere/loose.heic"))
        }
        try await application.test(.router) { client in
            let all = try json(try await request(client, "/api/photos?limit=4"))
            let photos = try #require(all["photos"] as? [[String: Any]])
            // Newest first: the dated photo, then the album's, which record no capture date, the last imported first.
            #expect(photos.map { $0["file"] as? String } == ["loose.heic", "p5.jpg", "p4.jpg", "p3.jpg"] && all["next"] is String)
            #expect(photos.first?["albums"] as? [String] == [] && photos.first?["camera_model"] as? String == "X100V" && photos.first?["has_location"] as? Bool == true)
            #expect(photos[1]["albums"] as? [String] == ["Trip"] && photos[1]["source"] as? String == "/nowhere/p5.jpg", "the holder reads paths")
            let next = try #require(all["next"] as? String)
            let rest = try json(try await request(client, "/api/photos?limit=4&after=\(next.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"))
            let last = try #require(rest["photos"] as? [[String: Any]])
            #expect(last.map { $0["file"] as? String } == ["p2.jpg", "p1.jpg"] && rest["next"] is NSNull)

            for (query, files) in [
                ("taken=2025-07", ["loose.heic"]), ("camera=x100&location=1", ["loose.heic"]), ("no_album=1", ["loose.heic"]),
                ("album=Trip&name=P1", ["p1.jpg"]), ("min_megapixels=1e300", []), ("shape=portrait", ["loose.heic", "p1.jpg"]), ("format=jpg&limit=2", ["p5.jpg", "p4.jpg"]),
            ] {
                let found = try json(try await request(client, "/api/photos?" + query))["photos"] as? [[String: Any]]
                #expect(found?.map { $0["file"] as? String } == files, "\(query)")
            }
            for (query, status, code) in [
                ("taken=July", HTTPResponse.Status.unprocessableContent, "invalid_date"), ("shape=round", .badRequest, "invalid_parameter"),
                ("location=maybe", .badRequest, "invalid_parameter"), ("after=nonsense", .unprocessableContent, "invalid_parameter"),
                ("album=Nowhere", .notFound, "album_not_found"), ("album=Trip&no_album=1", .unprocessableContent, "invalid_parameter"),
                ("min_megapixels=-1", .badRequest, "invalid_parameter"),
            ] {
                let refused = try await request(client, "/api/photos?" + query)
                try #expect(refused.status == status && (try errorCode(refused)) == code, "\(query)")
            }

            // The months of the timeline, with where each starts: the photos with no date last, as "".
            let months = try #require(try json(try await request(client, "/api/photos/months"))["months"] as? [[String: Any]])
            #expect(months.map { $0["month"] as? String } == ["2025-07", ""] && months.map { $0["count"] as? Int } == [1, 5])
            for (month, first) in zip(months, ["loose.heic", "p5.jpg"]) {
                let start = try #require(month["start"] as? String)
                let page = try json(try await request(client, "/api/photos?limit=1&after=\(start.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"))
                #expect((page["photos"] as? [[String: Any]])?.map { $0["file"] as? String } == [first])
            }
            let inTrip = try #require(try json(try await request(client, "/api/photos/months?album=Trip"))["months"] as? [[String: Any]])
            #expect(inTrip.map { $0["count"] as? Int ?? 0 }.reduce(0, +) == 5)
            let missing = try await request(client, "/api/photos/months?album=Nowhere")
            #expect(missing.status == .notFound)
        }
    }

    @Test("dates in other scripts' digits, NUL, numbers past Int64 and blank text filters in a search are refused with their 4xx, never a crash")
    func searchValuesFromOutside() async throws {
        try await application.test(.router) { client in
            let refused: [(query: String, status: Int, code: String)] = [
                ("taken=%D9%A2%D9%A0%D9%A2%D9%A5", 422, "invalid_date"),  // 2025 in Arabic-Indic digits
                ("taken=%EF%BC%92%EF%BC%90%EF%BC%92%EF%BC%95-%EF%BC%90%EF%BC%97", 422, "invalid_date"),  // fullwidth
                ("taken=2025-%C2%BD", 422, "invalid_date"), ("taken=2%CC%81025", 422, "invalid_date"),
                ("taken=2025..%E0%A5%A8%E0%A5%A6%E0%A5%A8%E0%A5%AC", 422, "invalid_date"),
                ("name=har%00bour", 400, "invalid_parameter"), ("camera=a%00", 400, "invalid_parameter"),
                ("album=Trip%00", 400, "invalid_parameter"), ("after=1%40%00", 400, "invalid_parameter"),
                ("limit=99999999999999999999999", 400, "invalid_parameter"), ("min_megapixels=NaN", 400, "invalid_parameter"),
                // Blank, it would find every photo (a format, none).
                ("keyword=", 400, "invalid_parameter"), ("text=%20%20", 400, "invalid_parameter"), ("name=%E3%80%80", 400, "invalid_parameter"),
                ("format=", 400, "invalid_parameter"), ("camera=%09", 400, "invalid_parameter"), ("lens=%0A", 400, "invalid_parameter"),
            ]
            for path in ["/api/photos", "/api/photos/months"] {
                for (query, status, code) in refused where !(path.hasSuffix("months") && ["after", "limit"].contains(where: query.hasPrefix)) {
                    let response = try await request(client, "\(path)?\(query)")
                    let answered = try errorCode(response)
                    #expect(Int(response.status.code) == status && answered == code, "\(path)?\(query): \(String(buffer: response.body))")
                    #expect(!String(buffer: response.body).contains("/nowhere"), "no path in \(query)")
                }
            }
            // A past number finds nothing; it is no error.
            #expect(try await request(client, "/api/photos?min_megapixels=1e400").status == .ok)
            // A smart album of such a date, as one operation (performed and as a dry run) and as a batch line.
            let smart = #"{"op": "create_smart_album", "name": "Then", "search": {"taken": "\#u{0662}\#u{0660}\#u{0662}\#u{0665}"}}"#
            for uri in ["/api/operations", "/api/operations?dry_run=1", "/api/batch", "/api/batch?dry_run=1"] {
                let response = try await request(client, uri, .post, body: smart)
                #expect(response.status.code == 422, "\(uri): \(String(buffer: response.body))")
                #expect(String(buffer: response.body).contains("is not a date to search by"), "\(uri): \(String(buffer: response.body))")
                let blank = try await request(client, uri, .post, body: #"{"op": "create_smart_album", "name": "Everything", "search": {"keyword": " "}}"#)
                #expect(blank.status == .badRequest, "\(uri): \(String(buffer: blank.body))")
                #expect(String(buffer: blank.body).contains(#"\"search\".keyword needs something to look for"#), "\(uri): \(String(buffer: blank.body))")
            }
            #expect(try json(try await request(client, "/api/albums"))["albums"].map { "\($0)".contains("Everything") } == false)
            #expect(try itemCount(of: "Trip") == 5)
        }
    }

    @Test("an operation with dry_run=1 is a proposal and writes nothing; without it, it writes and answers the change sets")
    func operations() async throws {
        try await application.test(.router) { client in
            let move = #"{"op": "move", "items": ["Trip:1"], "to": "Book", "at": 1}"#
            let proposal = try json(try await request(client, "/api/operations?dry_run=1", .post, body: move))
            #expect(proposal["verdict"] as? String == "move" && proposal["allowed"] as? Bool == true)
            #expect((proposal["changes"] as? [[String: Any]])?.count == 2)
            #expect(try itemCount(of: "Book") == 0)

            let written = try json(try await request(client, "/api/operations", .post, body: move))
            #expect(written["verdict"] as? String == "move" && written["dry_run"] as? Bool == false)
            #expect(try itemCount(of: "Book") == 1)

            let forbidden = try json(try await request(client, "/api/operations?dry_run=1", .post, body: #"{"op": "move", "items": ["Trip:9"], "to": "Book"}"#))
            #expect(forbidden["allowed"] as? Bool == false)
            #expect((forbidden["reason"] as? [String: Any])?["code"] as? String == "item_not_found" || (forbidden["reason"] as? [String: Any])?["code"] as? String == "position_out_of_range")

            let refused = try await request(client, "/api/operations", .post, body: #"{"op": "move", "items": ["Trip:9"], "to": "Book"}"#)
            #expect(refused.status == .unprocessableContent || refused.status == .notFound)
            let malformed = try await request(client, "/api/operations", .post, body: "{not json")
            try #expect(malformed.status == .badRequest && (try errorCode(malformed)) == "invalid_batch")
            // The document's shape refused is 400; a reference of the right
            // shape past the parser's limits is refused like a rule, 422.
            for (reference, status, code) in [
                ("Trip", HTTPResponse.Status.badRequest, "invalid_batch"), ("Trip:0", .badRequest, "invalid_batch"),
                ("Trip:3-1", .unprocessableContent, "invalid_reference"), ("Trip:1-2000000", .unprocessableContent, "invalid_reference"),
                ("Trip:99999999999999999999", .unprocessableContent, "invalid_reference"),
            ] {
                let answer = try await request(client, "/api/operations", .post, body: #"{"op": "remove", "items": ["\#(reference)"]}"#)
                try #expect(answer.status == status && (try errorCode(answer)) == code, "\(reference)")
            }
            #expect(try itemCount(of: "Trip") > 0)

            // A mistyped dry run must not write.
            let mistyped = try await request(client, "/api/operations?dry_run=yes", .post, body: move)
            try #expect(mistyped.status == .badRequest && (try errorCode(mistyped)) == "invalid_parameter")
            #expect(try itemCount(of: "Book") == 1)
            let undo = try await request(client, "/api/undo?dry_run=2", .post)
            try #expect(undo.status == .badRequest && (try itemCount(of: "Book")) == 1)
        }
    }

    @Test("an answer JSON cannot hold is the server's failure, a 500, never the status asked with an error in its body")
    func unencodableAnswer() throws {
        let answer = JSONResponse.make(status: .created, ["ratio": Double.nan])
        #expect(answer.status == .internalServerError)
        #expect(JSONResponse.make(status: .created, ["ratio": 0.5]).status == .created)
    }

    @Test("once the library file is deleted under the server, every request is 503 library_moved")
    func libraryDeleted() async throws {
        try await application.test(.router) { client in
            #expect(try await request(client, "/api/albums").status == .ok)
            try FileManager.default.removeItem(atPath: fixture.library.path)
            let after = try await request(client, "/api/operations", .post, body: #"{"op": "remove", "items": ["Trip:1"]}"#)
            try #expect(after.status == .serviceUnavailable && (try errorCode(after)) == "library_moved")
        }
    }

    @Test("a known path asked with a method it does not take is 405 with Allow; an unknown path is 404")
    func methods() async throws {
        try await application.test(.router) { client in
            let delete = try await request(client, "/api/albums", .delete)
            try #expect(delete.status == .methodNotAllowed && (try errorCode(delete)) == "method_not_allowed")
            #expect(delete.headers[.allow] == "GET")
            let get = try await request(client, "/api/operations", .get)
            #expect(get.status == .methodNotAllowed && get.headers[.allow] == "POST")
            let put = try await request(client, "/api/albums/Trip/items", .put)
            #expect(put.status == .methodNotAllowed && put.headers[.allow] == "GET")
            let unknown = try await request(client, "/api/albums/Trip/nothing", .get)
            #expect(unknown.status == .notFound)
            let anonymous = try await client.executeRequest(uri: "/api/albums", method: .delete, headers: [:], body: nil)
            #expect(anonymous.status == .unauthorized, "the token is asked before anything about the path is told")
        }
    }

    @Test("a stale expect_revision is 409 with the current revision, and writes nothing")
    func conflicts() async throws {
        let revision = try revision(of: "Trip")
        try await application.test(.router) { client in
            let stale = #"{"op": "swap", "items": ["Trip:1", "Trip:2"], "expect_revision": {"Trip": \#(revision - 1)}}"#
            let response = try await request(client, "/api/operations", .post, body: stale)
            #expect(response.status == .conflict)
            let error = try json(response)["error"] as? [String: Any]
            #expect(error?["code"] as? String == "revision_mismatch" && error?["revision"] as? Int == Int(revision))
        }
        #expect(try self.revision(of: "Trip") == revision)
    }

    @Test("a batch is one transaction: all of it, or none, naming the refused line")
    func batch() async throws {
        try await application.test(.router) { client in
            let good = "{\"op\": \"copy\", \"items\": [\"Trip:1\"], \"to\": \"Book\"}\n{\"op\": \"swap\", \"items\": [\"Trip:1\", \"Trip:2\"]}\n"
            let done = try json(try await request(client, "/api/batch", .post, body: good))
            #expect(done["operations"] as? Int == 2)
            let bad = "{\"op\": \"copy\", \"items\": [\"Trip:3\"], \"to\": \"Book\"}\n\n{\"op\": \"remove\", \"items\": [\"Trip:99\"]}\n"
            let refused = try await request(client, "/api/batch", .post, body: bad)
            #expect(refused.status != .ok)
            #expect(((try json(refused)["error"] as? [String: Any])?["message"] as? String)?.hasPrefix("line 3 (") == true)
        }
        #expect(try itemCount(of: "Book") == 1)
    }

    @Test("history, undo and redo: what the CLI prints with --json; a dry run writes nothing; nothing to redo is 409")
    func history() async throws {
        try await application.test(.router) { client in
            _ = try await request(client, "/api/operations", .post, body: #"{"op": "move", "items": ["Trip:1"], "to": "Book", "at": 1}"#)
            let listing = try json(try await request(client, "/api/history?limit=2"))
            let entries = listing["entries"] as? [[String: Any]] ?? []
            #expect(entries.first?["description"] as? String == "move 1 item to 'Book' at position 1")
            #expect(entries.count == 2 && listing["kept_entries"] as? Int == 1000)
            #expect((listing["next_undo"] as? [String: Any])?["id"] as? Int == entries.first?["id"] as? Int)
            #expect(listing["next_redo"] is NSNull)
            let ofBook = try json(try await request(client, "/api/history?album=Book"))["entries"] as? [[String: Any]] ?? []
            #expect(ofBook.allSatisfy { ($0["albums"] as? [[String: Any]])?.contains { $0["name"] as? String == "Book" } == true })

            let dryRun = try json(try await request(client, "/api/undo?dry_run=1", .post))
            #expect(dryRun["dry_run"] as? Bool == true)
            #expect(try itemCount(of: "Book") == 1)
            let undone = try json(try await request(client, "/api/undo", .post))
            #expect((undone["entry"] as? [String: Any])?["undone"] as? Bool == true)
            let changes = undone["changes"] as? [[String: Any]] ?? []
            #expect(changes.map { $0["album"] as? String }.sorted { ($0 ?? "") < ($1 ?? "") } == ["Book", "Trip"])
            #expect(changes.allSatisfy { $0["album_id"] is Int })
            #expect(try itemCount(of: "Book") == 0)
            let redone = try json(try await request(client, "/api/redo", .post))
            #expect((redone["entry"] as? [String: Any])?["undone"] as? Bool == false)
            #expect(try itemCount(of: "Book") == 1)
            let nothing = try await request(client, "/api/redo", .post)
            #expect(nothing.status == .conflict)
            #expect((try json(nothing)["error"] as? [String: Any])?["code"] as? String == "nothing_to_redo")
            #expect(try await request(client, "/api/history?limit=0").status == .badRequest)
        }
    }

    @Test("no token, a wrong token, a foreign Host or a foreign Origin are refused; the first visit's ?token= sets the cookie")
    func security() async throws {
        try await application.test(.router) { client in
            let none = try await client.executeRequest(uri: "/api/albums", method: .get, headers: [:], body: nil)
            try #expect(none.status == .unauthorized && (try errorCode(none)) == "unauthorized")
            let wrong = try await client.executeRequest(
                uri: "/api/albums", method: .get, headers: [.authorization: "Bearer \(String(Self.token.reversed()))"], body: nil)
            #expect(wrong.status == .unauthorized)
            let crossSite = try await request(client, "/api/operations", .post, body: "{}", headers: [.origin: "http://evil.example"])
            try #expect(crossSite.status == .forbidden && (try errorCode(crossSite)) == "wrong_origin")
            #expect(try itemCount(of: "Book") == 0)

            let visit = try await client.executeRequest(uri: "/?token=\(Self.token)", method: .get, headers: [:], body: nil)
            #expect(visit.status == .seeOther)
            let cookie = try #require(visit.headers[.setCookie])
            #expect(cookie.contains("albums_session=\(Self.token)") && cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"))
            let page = try await client.executeRequest(
                uri: "/", method: .get, headers: [.cookie: "albums_session=\(Self.token)"], body: nil)
            #expect(page.status == .ok && String(buffer: page.body).contains("<title>albums</title>"))
            #expect(page.headers[.contentSecurityPolicy]?.contains("default-src 'self'") == true)
            // The API read with the printed URL's token (curl): answered, not redirected to nothing; a write so is refused.
            let pasted = try await client.executeRequest(uri: "/api/albums?token=\(Self.token)", method: .get, headers: [:], body: nil)
            #expect(pasted.status == .ok && String(buffer: pasted.body).contains("\"Trip\""))
            let pastedWrong = try await client.executeRequest(uri: "/api/albums?token=\(String(Self.token.reversed()))", method: .get, headers: [:], body: nil)
            #expect(pastedWrong.status == .unauthorized && String(buffer: pastedWrong.body).contains("Authorization: Bearer"))
            let pastedWrite = try await client.executeRequest(
                uri: "/api/operations?token=\(Self.token)", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"op": "create_album", "name": "X"}"#))
            #expect(pastedWrite.status == .unauthorized)
            let names = try await fixture.library.read { try $0.albums().map(\.name) }
            #expect(names == ["Trip", "Book"])
        }
    }

    @Test("album operations through /api/operations: a proposal writes nothing, a write answers the album's change set, a refusal says why")
    func albumOperations() async throws {
        try await application.test(.router) { client in
            let names = { try await self.fixture.library.read { try $0.albums().map(\.name) } }
            let create = try json(try await request(client, "/api/operations?dry_run=1", .post, body: #"{"op": "create_album", "name": "Lisbon", "at": 1}"#))
            #expect(create["allowed"] as? Bool == true && (create["changes"] as? [[String: Any]])?.first?["album_events"] as? [String] == ["created"])
            #expect(try await names() == ["Trip", "Book"])

            let created = try json(try await request(client, "/api/operations", .post, body: #"{"op": "create_album", "name": "Lisbon", "at": 1}"#))
            #expect(created["verdict"] as? String == "created")
            #expect(try await names() == ["Lisbon", "Trip", "Book"])
            _ = try await request(client, "/api/operations", .post, body: #"{"op": "move_album", "album": "Lisbon", "at": 3}"#)
            _ = try await request(client, "/api/operations", .post, body: #"{"op": "rename_album", "album": "Lisbon", "name": "Porto"}"#)
            #expect(try await names() == ["Trip", "Book", "Porto"])

            let taken = try json(try await request(client, "/api/operations?dry_run=1", .post, body: #"{"op": "rename_album", "album": "Porto", "name": "Trip"}"#))
            #expect(taken["allowed"] as? Bool == false && (taken["reason"] as? [String: Any])?["code"] as? String == "album_name_taken")
            let refused = try await request(client, "/api/operations", .post, body: #"{"op": "rename_album", "album": "Porto", "name": "Trip"}"#)
            let refusedCode = try errorCode(refused)
            #expect(refusedCode == "album_name_taken" && refused.status.code >= 400, "\(refused.status)")

            _ = try await request(client, "/api/operations", .post, body: #"{"op": "lock_album", "album": "Trip"}"#)
            let sort = try json(try await request(client, "/api/operations?dry_run=1", .post, body: #"{"op": "sort_album", "album": "Trip", "by": "name", "descending": true}"#))
            #expect((sort["reason"] as? [String: Any])?["code"] as? String == "album_locked")
            _ = try await request(client, "/api/operations", .post, body: #"{"op": "unlock_album", "album": "Trip"}"#)
            let sorted = try json(try await request(client, "/api/operations", .post, body: #"{"op": "sort_album", "album": "Trip", "by": "name", "descending": true}"#))
            #expect(((sorted["changes"] as? [[String: Any]])?.first?["moved"] as? [Any])?.isEmpty == false)
            let deleted = try await request(client, "/api/operations", .post, body: #"{"op": "delete_album", "album": "Porto"}"#)
            #expect(deleted.status == .ok)
            #expect(try await names() == ["Trip", "Book"])
        }
    }

    @Test("covers: /api/albums gives each album its cover and each folder its albums'; set_album_cover chooses one, null gives the first photo back")
    func covers() async throws {
        try await application.test(.router) { client in
            func tree() async throws -> (albums: [String: [String: Any]], folders: [String: [String: Any]]) {
                let body = try json(try await request(client, "/api/albums"))
                let albums = (body["albums"] as? [[String: Any]] ?? []).map { ($0["name"] as! String, $0) }
                let folders = (body["folders"] as? [[String: Any]] ?? []).map { ($0["name"] as! String, $0) }
                return (Dictionary(uniqueKeysWithValues: albums), Dictionary(uniqueKeysWithValues: folders))
            }
            let photos = try await fixture.library.read { try $0.items(in: try $0.album(named: "Trip").id).compactMap(\.photoID) }
            var now = try await tree()
            #expect(now.albums["Trip"]?["cover_photo_id"] as? Int64 == photos[0].rawValue && now.albums["Trip"]?["cover_chosen"] as? Bool == false)
            #expect(now.albums["Book"]?["cover_photo_id"] is NSNull, "an empty album has no cover")

            let proposal = try json(try await request(client, "/api/operations?dry_run=1", .post, body: #"{"op": "set_album_cover", "album": "Trip", "photo": "Trip:3"}"#))
            #expect(proposal["allowed"] as? Bool == true && (proposal["changes"] as? [[String: Any]])?.first?["album_events"] as? [String] == ["cover_changed"])
            let chosen = try json(try await request(client, "/api/operations", .post, body: #"{"op": "set_album_cover", "album": "Trip", "photo": "Trip:3"}"#))
            #expect(chosen["verdict"] as? String == "cover_changed")
            _ = try await request(client, "/api/operations", .post, body: #"{"op": "create_folder", "name": "Travel"}"#)
            _ = try await request(client, "/api/operations", .post, body: #"{"op": "move_album", "album": "Trip", "into": "Travel"}"#)
            now = try await tree()
            #expect(now.albums["Trip"]?["cover_photo_id"] as? Int64 == photos[2].rawValue && now.albums["Trip"]?["cover_chosen"] as? Bool == true)
            #expect(now.folders["Travel"]?["cover_photo_ids"] as? [Int64] == [photos[2].rawValue])

            let elsewhere = try await request(client, "/api/operations", .post, body: #"{"op": "set_album_cover", "album": "Book", "photo": "Trip:1"}"#)
            #expect(try errorCode(elsewhere) == "photo_not_in_album" && elsewhere.status == .unprocessableContent)
            let range = try await request(client, "/api/operations", .post, body: #"{"op": "set_album_cover", "album": "Trip", "photo": "Trip:1-2"}"#)
            #expect(range.status == .badRequest)
            _ = try await request(client, "/api/operations", .post, body: #"{"op": "set_album_cover", "album": "Trip", "photo": null}"#)
            now = try await tree()
            #expect(now.albums["Trip"]?["cover_photo_id"] as? Int64 == photos[0].rawValue && now.albums["Trip"]?["cover_chosen"] as? Bool == false)
        }
    }

    @Test("words and marks: mark and describe_album through /api/operations, the items and the album carry them, GET /api/photos finds by them")
    func wordsAndMarks() async throws {
        try await application.test(.router) { client in
            let proposal = try json(try await request(client, "/api/operations?dry_run=1", .post, body: #"{"op": "mark", "items": ["Trip:2"], "favorite": true}"#))
            #expect(proposal["verdict"] as? String == "marked" && (proposal["changes"] as? [[String: Any]])?.first?["updated"] as? [Int] == [2], "positions are 1-based")
            let marked = try json(try await request(
                client, "/api/operations", .post,
                body: #"{"op": "mark", "items": ["Trip:2"], "caption": "At the harbour", "favorite": true, "rating": 5, "add_keywords": ["family"]}"#))
            #expect(marked["verdict"] as? String == "marked", "\(marked)")
            let items = try #require(try json(try await request(client, "/api/albums/Trip/items"))["items"] as? [[String: Any]])
            #expect(items[1]["caption"] as? String == "At the harbour" && items[1]["favorite"] as? Bool == true && items[1]["rating"] as? Int == 5)
            #expect(items[1]["keywords"] as? [String] == ["family"] && items[0]["favorite"] as? Bool == false && items[0]["keywords"] as? [String] == [])
            for query in ["favorite=1", "min_rating=5", "keyword=FAMILY", "text=harbour"] {
                let found = try #require(try json(try await request(client, "/api/photos?\(query)"))["photos"] as? [[String: Any]])
                #expect(found.map { $0["photo_id"] as? Int64 } == [items[1]["photo_id"] as? Int64], "\(query)")
            }
            #expect(try await request(client, "/api/photos?min_rating=6").status == .badRequest)
            let bad = try await request(client, "/api/operations", .post, body: #"{"op": "mark", "items": ["Trip:1"], "title": "a\u0000b"}"#)
            let badCode = try errorCode(bad)
            #expect(bad.status == .unprocessableContent && badCode == "invalid_words", "a NUL in a title is refused, not stored")
            let described = try json(try await request(client, "/api/operations", .post, body: #"{"op": "describe_album", "album": "Trip", "description": "Porto, July"}"#))
            #expect(described["verdict"] as? String == "described")
            let albums = try #require(try json(try await request(client, "/api/albums"))["albums"] as? [[String: Any]])
            #expect(albums.first { $0["name"] as? String == "Trip" }?["description"] as? String == "Porto, July")
        }
    }

    @Test("smart albums: made with create_smart_album, listed with their count and search, refused as a destination, frozen with freeze_album")
    func smartAlbums() async throws {
        try await application.test(.router) { client in
            let created = try json(try await request(client, "/api/operations", .post, body: #"{"op": "create_smart_album", "name": "Tall", "search": {"shape": "portrait", "album": "Trip"}}"#))
            #expect(created["verdict"] as? String == "created")
            let albums = try #require(try json(try await request(client, "/api/albums"))["albums"] as? [[String: Any]])
            let tall = try #require(albums.first { $0["name"] as? String == "Tall" })
            // p1 is turned (orientation 6): as seen, it is the one portrait photo.
            #expect(tall["smart"] as? Bool == true && tall["count"] as? Int == 1)
            #expect(tall["search"] as? [String: String] == ["shape": "portrait", "album": "Trip"])
            #expect(albums.first { $0["name"] as? String == "Trip" }?["smart"] as? Bool == false)
            let into = try await request(client, "/api/operations", .post, body: #"{"op": "copy", "items": ["Trip:2"], "to": "Tall"}"#)
            #expect(try errorCode(into) == "smart_album" && into.status == .unprocessableContent)
            let impossible = try await request(client, "/api/operations", .post, body: #"{"op": "create_smart_album", "name": "X", "search": {"taken": "2025-02-30"}}"#)
            #expect(impossible.status == .unprocessableContent)
            let frozen = try json(try await request(client, "/api/operations", .post, body: #"{"op": "freeze_album", "album": "Tall"}"#))
            #expect(frozen["verdict"] as? String == "frozen")
            #expect(try itemCount(of: "Tall") == 1)
        }
    }

    @Test("the tree: a batch builds folders in one transaction, /api/albums gives parents and positions, a proposal says why a folder cannot go into itself")
    func tree() async throws {
        try await application.test(.router) { client in
            let batch = """
                {"op": "create_folder", "name": "Travel"}
                {"op": "create_folder", "name": "2026", "into": "Travel"}
                {"op": "move_album", "album": "Trip", "into": "Travel/2026"}
                {"op": "create_album", "name": "Lisbon", "into": "Travel", "at": 1}
                """
            let built = try json(try await request(client, "/api/batch", .post, body: batch))
            #expect(built["operations"] as? Int == 4)
            let folderChanges = try #require(built["folder_changes"] as? [[[String: Any]]])
            #expect(folderChanges.first?.first?["events"] as? [String] == ["created"])

            let tree = try json(try await request(client, "/api/albums"))
            let albums = try #require(tree["albums"] as? [[String: Any]])
            let folders = try #require(tree["folders"] as? [[String: Any]])
            // Book, then Travel (created last) holding Lisbon and 2026, which holds Trip.
            #expect(albums.map { $0["name"] as? String } == ["Book", "Lisbon", "Trip"])
            #expect(folders.map { $0["path"] as? String } == ["Travel", "Travel/2026"])
            let travel = folders[0]["id"] as? Int, year = folders[1]["id"] as? Int
            #expect(albums.map { $0["parent_id"] as? Int } == [nil, travel, year])
            #expect(albums.map { $0["position"] as? Int } == [1, 1, 1])
            #expect(folders.map { $0["position"] as? Int } == [2, 2])

            let intoItself = try json(
                try await request(client, "/api/operations?dry_run=1", .post, body: #"{"op": "move_folder", "folder": "Travel", "into": "Travel/2026"}"#))
            #expect(intoItself["allowed"] as? Bool == false)
            #expect((intoItself["reason"] as? [String: Any])?["code"] as? String == "folder_into_itself")
            let moved = try json(try await request(client, "/api/operations", .post, body: #"{"op": "move_folder", "folder": "Travel/2026", "before": "Travel"}"#))
            #expect((moved["folder_changes"] as? [[String: Any]])?.contains { ($0["events"] as? [String])?.contains("moved") == true } == true)
            let after = try json(try await request(client, "/api/albums"))["folders"] as? [[String: Any]]
            #expect(after?.map { $0["path"] as? String } == ["2026", "Travel"])
            let bad = try await request(client, "/api/operations", .post, body: #"{"op": "delete_folder", "folder": "Travel"}"#)
            #expect(try errorCode(bad) == "folder_not_empty")
        }
    }

    @Test("a Live Photo's motion is streamed by its still's id, whole or by range; a photo without one, or one its asker cannot see, has none to give")
    func liveMotion() async throws {
        let folder = try TemporaryFolder()
        let still = folder.path("IMG_0042.JPG")
        try FileManager.default.copyItem(atPath: ExamplePhotos.path("01-harbour.jpg"), toPath: still)
        let movie = Self.movie(milliseconds: 1_500)
        try movie.write(to: URL(fileURLWithPath: folder.path("IMG_0042.MOV")))
        let content = try await FileLoader().load(still)
        #expect(content.motion?.duration == 1.5 && content.motion?.mediaType == "video/mp4")
        let photo = try await fixture.library.write { writer in try writer.addPhoto(content).photo }
        let (open, closed) = try await fixture.library.write { writer in
            let trip = try writer.album(named: "Trip").id
            _ = try writer.insertPhotos([photo.id], into: trip)
            return (
                try writer.createShareLink(for: trip, expiresAt: nil, password: nil, allowsDownload: true).token,
                try writer.createShareLink(for: trip, expiresAt: nil, password: nil, allowsDownload: false).token)
        }
        try await application.test(.router) { client in
            // A share link: its items say which are Live Photos; it plays the motion where it gives originals.
            let shared = try json(try await request(client, "/api/share/\(open)/items"))["items"] as? [[String: Any]]
            #expect(shared?.map { $0["live_photo"] as? Bool } == [false, false, false, false, false, true])
            let sharedMotion = try await request(client, "/api/share/\(open)/photos/\(photo.id)/motion")
            #expect(sharedMotion.status == .ok && Data(buffer: sharedMotion.body) == movie)
            let refused = try await request(client, "/api/share/\(closed)/photos/\(photo.id)/motion")
            try #expect(refused.status == .forbidden && (try errorCode(refused)) == "download_not_allowed")
            let whole = try await request(client, "/api/photos/\(photo.id)/motion")
            #expect(whole.status == .ok && Data(buffer: whole.body) == movie && whole.headers[.contentType] == "video/mp4")
            let part = try await request(client, "/api/photos/\(photo.id)/motion", headers: [.range: "bytes=4-11"])
            #expect(part.status == .partialContent && Data(buffer: part.body) == movie[4...11])
            let items = try json(try await request(client, "/api/albums/Trip/items"))["items"] as? [[String: Any]]
            let item = try #require(items?.first { $0["photo_id"] as? Int64 == photo.id.rawValue })
            #expect(item["live_photo"] as? Bool == true && item["motion_duration"] as? Double == 1.5)
            let none = try await request(client, "/api/photos/1/motion")
            try #expect(none.status == .notFound && (try errorCode(none)) == "not_found")
        }
    }

    static let corpus = ProcessInfo.processInfo.environment["ALBUMS_PHOTO_CORPUS"].map { URL(fileURLWithPath: $0) }

    @Test(
        "a video plays from its original where browsers play it, else from the rendition made for it (preparing first), streamed by range; a share link gives it where it gives originals; a still plays nothing",
        .enabled(if: corpus != nil && PlayableRenditions().unavailableReason == nil, "the corpus (scripts/test) and ffmpeg (scripts/install-dependencies)"))
    func videoPlayback() async throws {
        let videos = try #require(Self.corpus).appending(path: "videos")
        let avi = try await fixture.library.write { [content = try await FileLoader().load(videos.appending(path: "clip.avi").path)] writer in
            try writer.addPhoto(content).photo
        }
        let mp4 = try await fixture.library.write { [content = try await FileLoader().load(videos.appending(path: "clip.mp4").path)] writer in
            try writer.addPhoto(content).photo
        }
        let (open, closed) = try await fixture.library.write { writer in
            let clips = try writer.createAlbum(named: "Clips")
            try writer.insertPhotos([avi.id, mp4.id], into: clips.id, at: 0)
            return (
                try writer.createShareLink(for: clips.id, expiresAt: nil, password: nil, allowsDownload: true).token,
                try writer.createShareLink(for: clips.id, expiresAt: nil, password: nil, allowsDownload: false).token)
        }
        try await application.test(.router) { client in
            let first = try json(try await request(client, "/api/photos/\(avi.id)/playback"))
            #expect(first["state"] as? String == "preparing" && first["progress"] as? Double == 0 && first["url"] == nil)
            var made: [String: Any] = [:]
            for _ in 0..<3000 {
                made = try json(try await request(client, "/api/photos/\(avi.id)/playback"))
                if made["state"] as? String != "preparing" { break }
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(made["state"] as? String == "rendition" && made["url"] as? String == "/api/photos/\(avi.id)/rendition", "\(made)")
            let whole = try await request(client, "/api/photos/\(avi.id)/rendition")
            #expect(whole.status == .ok && whole.headers[.contentType] == "video/mp4" && whole.headers[.eTag] == "\"\(avi.content.sha256Hex)-mp4\"")
            let part = try await request(client, "/api/photos/\(avi.id)/rendition", headers: [.range: "bytes=4-7"])
            #expect(part.status == .partialContent && String(buffer: part.body) == "ftyp")
            let plays = try json(try await request(client, "/api/photos/\(mp4.id)/playback"))
            #expect(plays["state"] as? String == "original" && plays["url"] as? String == "/api/photos/\(mp4.id)/original")
            let none = try await request(client, "/api/photos/\(mp4.id)/rendition")
            try #expect(none.status == .notFound && (try errorCode(none)) == "not_found")
            let still = try await request(client, "/api/photos/1/playback")
            try #expect(still.status == .notFound && (try errorCode(still)) == "not_found")
            let unknown = try await request(client, "/api/photos/999/playback")
            #expect(unknown.status == .notFound)

            // A share link: the same answers under its own paths, where it gives originals.
            let shared = try json(try await request(client, "/api/share/\(open)/photos/\(avi.id)/playback"))
            #expect(shared["state"] as? String == "rendition" && shared["url"] as? String == "/api/share/\(open)/photos/\(avi.id)/rendition")
            #expect(try await request(client, "/api/share/\(open)/photos/\(avi.id)/rendition").status == .ok)
            for path in ["playback", "rendition"] {
                let refused = try await request(client, "/api/share/\(closed)/photos/\(avi.id)/\(path)")
                try #expect(refused.status == .forbidden && (try errorCode(refused)) == "download_not_allowed")
                let outside = try await request(client, "/api/share/\(open)/photos/1/\(path)")
                #expect(outside.status == .notFound, "a photo the link does not show")
            }
        }
    }

    @Test("an original is streamed whole with its digest as ETag, or the byte range asked for")
    func originalRanges() async throws {
        let folder = try TemporaryFolder()
        let source = folder.path("real.jpg")
        try FileManager.default.copyItem(atPath: ExamplePhotos.path("01-harbour.jpg"), toPath: source)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: source))
        let size = bytes.count
        let content = try await FileLoader().load(source)
        let photo = try await fixture.library.write { writer in try writer.addPhoto(content).photo }
        let uri = "/api/photos/\(photo.id)/original"
        try await application.test(.router) { client in
            let whole = try await request(client, uri)
            #expect(whole.status == .ok && Data(buffer: whole.body) == bytes)
            #expect(whole.headers[.acceptRanges] == "bytes" && whole.headers[.contentLength] == "\(size)")
            let tag = try #require(whole.headers[.eTag])
            #expect(tag == "\"\(content.sha256.map { String(format: "%02x", $0) }.joined())\"")

            func ranged(_ range: String, ifRange: String? = nil) async throws -> TestResponse {
                var headers: HTTPFields = [.range: range]
                if let ifRange { headers[.ifRange] = ifRange }
                return try await request(client, uri, headers: headers)
            }
            let middle = try await ranged("bytes=2-5")
            #expect(middle.status == .partialContent && middle.headers[.contentRange] == "bytes 2-5/\(size)")
            #expect(Data(buffer: middle.body) == bytes[2...5])
            let rest = try await ranged("bytes=\(size - 10)-")
            #expect(rest.status == .partialContent && Data(buffer: rest.body) == bytes.suffix(10))
            let last = try await ranged("bytes=-3")
            #expect(last.status == .partialContent && Data(buffer: last.body) == bytes.suffix(3) && last.headers[.contentRange] == "bytes \(size - 3)-\(size - 1)/\(size)")
            let pastTheEnd = try await ranged("bytes=\(size)-")
            #expect(pastTheEnd.status == .rangeNotSatisfiable && pastTheEnd.headers[.contentRange] == "bytes */\(size)")
            let clamped = try await ranged("bytes=0-\(size * 2)")
            #expect(clamped.status == .partialContent && Data(buffer: clamped.body) == bytes)
            // What is not one plain range gets the whole file, as HTTP allows.
            for whole in ["bytes=0-1,4-5", "lines=1-2", "bytes=5-2", "bytes=x-"] {
                let answer = try await ranged(whole)
                #expect(answer.status == .ok && Data(buffer: answer.body) == bytes, "\(whole)")
            }
            let stale = try await ranged("bytes=2-5", ifRange: "\"another\"")
            #expect(stale.status == .ok && Data(buffer: stale.body) == bytes)
            let current = try await ranged("bytes=2-5", ifRange: tag)
            #expect(current.status == .partialContent)
        }
    }

    @Test("an original the library keeps a copy of is served, with ranges, and drawn from that copy once its source is gone")
    func keptOriginal() async throws {
        let folder = try TemporaryFolder()
        let source = folder.path("card.jpg")
        try FileManager.default.copyItem(atPath: ExamplePhotos.path("01-harbour.jpg"), toPath: source)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: source))
        let keeper = try await fixture.library.write { try $0.chooseStoragePlace(.folder(folder.path("kept"))) }
        let report = await LoadRunner(session: TransferSession(library: fixture.library), keeper: FolderKeeper(place: keeper)).loadIntoLibrary([source])
        let photoID = try #require(report.committed.first?.photo)
        try FileManager.default.removeItem(atPath: source)
        try await application.test(.router) { client in
            let whole = try await request(client, "/api/photos/\(photoID)/original")
            #expect(whole.status == .ok && Data(buffer: whole.body) == bytes)
            let part = try await request(client, "/api/photos/\(photoID)/original", headers: [.range: "bytes=10-19"])
            #expect(part.status == .partialContent && Data(buffer: part.body) == bytes[10...19])
            let thumbnail = try await request(client, "/api/photos/\(photoID)/thumbnail?size=64")
            #expect(thumbnail.status == .ok && thumbnail.headers[.contentType] == "image/jpeg")
        }
    }

    @Test("photos by id only; the page's files and the OpenAPI document are served from the binary")
    func photosAndPage() async throws {
        let folder = try TemporaryFolder()
        let source = folder.path("real.jpg")
        try FileManager.default.copyItem(atPath: ExamplePhotos.path("01-harbour.jpg"), toPath: source)
        let content = try await FileLoader().load(source)
        let photo = try await fixture.library.write { writer in try writer.addPhoto(content).photo }
        try await application.test(.router) { client in
            let original = try await request(client, "/api/photos/\(photo.id)/original")
            #expect(original.status == .ok && original.headers[.contentType] == "image/jpeg" && original.body.readableBytes == content.byteCount)
            let gone = try await request(client, "/api/photos/1/original")
            try #expect(gone.status == .notFound && (try errorCode(gone)) == "source_missing")
            let unknown = try await request(client, "/api/photos/999/original")
            #expect(unknown.status == .notFound)
            for trick in ["..%2F..%2Fetc%2Fpasswd", "-1", "0", "1e3", "%00", "99999999999999999999"] {
                let tricked = try await request(client, "/api/photos/\(trick)/original")
                try #expect(tricked.status == .badRequest && (try errorCode(tricked)) == "invalid_photo_id", "\(trick)")
            }
            let outside = try await request(client, "/page/..%2FAlbumsServer.swift")
            #expect(outside.status == .notFound)
            let thumbnail = try await request(client, "/api/photos/\(photo.id)/thumbnail?size=64")
            #expect(thumbnail.status == .ok && thumbnail.headers[.contentType] == "image/jpeg")
            #expect(try ImageHeaderReader.read(Data(buffer: thumbnail.body)).pixelWidth == 64)
            let tag = try #require(thumbnail.headers[.eTag])
            let unchanged = try await request(client, "/api/photos/\(photo.id)/thumbnail?size=64", headers: [.ifNoneMatch: tag])
            #expect(unchanged.status == .notModified && unchanged.body.readableBytes == 0)
            let tooBig = try await request(client, "/api/photos/\(photo.id)/thumbnail?size=9999")
            try #expect(tooBig.status == .badRequest && (try errorCode(tooBig)) == "invalid_parameter")
            // A few sizes for everyone: nobody makes the server render and keep every size.
            for offLadder in [65, 100, 2047] {
                let odd = try await request(client, "/api/photos/\(photo.id)/thumbnail?size=\(offLadder)")
                try #expect(odd.status == .badRequest && (try errorCode(odd)) == "invalid_parameter", "\(offLadder)")
            }
            let noSource = try await request(client, "/api/photos/1/thumbnail")
            try #expect(noSource.status == .notFound && (try errorCode(noSource)) == "source_missing")
            let script = try await request(client, "/page/organizer/app.js")
            #expect(script.status == .ok && script.headers[.contentType]?.hasPrefix("text/javascript") == true)
            #expect(script.headers[.cacheControl] == "no-cache")
            // The page names this build's files by its version: those the browser keeps.
            let page = String(buffer: try await request(client, "/").body)
            let version = try #require(page.firstMatch(of: /"\/page\/([0-9a-f]+)\/organizer\/app\.js"/)?.1)
            #expect(!page.contains("\"/page/common/"), "every file the page names carries the version")
            let kept = try await request(client, "/page/\(version)/organizer/view/timeline.js")
            #expect(kept.status == .ok && kept.headers[.cacheControl] == "public, max-age=31536000, immutable")
            let older = try await request(client, "/page/0123abcd/organizer/view/timeline.js")
            #expect(older.status == .ok && older.headers[.cacheControl] == "no-cache", "another build's name: today's file, asked for again next time")
            let openAPI = try json(try await request(client, "/api/openapi.json"))
            let paths = try #require(openAPI["paths"] as? [String: Any])
            #expect(Set(paths.keys) == ["/api/albums", "/api/albums/{name}/items", "/api/albums/{name}/files", "/api/operations", "/api/batch", "/api/photos", "/api/photos/months", "/api/photos/{id}/original", "/api/photos/{id}/motion", "/api/photos/{id}/playback", "/api/photos/{id}/rendition", "/api/photos/{id}/thumbnail", "/api/events", "/api/history", "/api/undo", "/api/redo",
                "/api/session", "/api/people", "/api/albums/{name}/roles", "/api/share/{token}", "/api/share/{token}/unlock",
                "/api/share/{token}/items", "/api/share/{token}/photos/{id}/thumbnail", "/api/share/{token}/photos/{id}/original",
                "/api/share/{token}/photos/{id}/playback", "/api/share/{token}/photos/{id}/rendition", "/api/share/{token}/photos/{id}/motion"])
        }
    }

    @Test("the sign-in and share pages name their files by a version of those files alone, never the build's; what they load is all public")
    func publicPagesNameNoBuild() async throws {
        try await application.test(.router) { client in
            for uri in ["/signin", "/s/sometoken"] {
                let page = String(buffer: try await request(client, uri).body)
                #expect(!page.contains(PageFiles.version), "\(uri) names the build")
                let named = Set(page.matches(of: /"\/page\/([0-9a-f]+)\/([a-z.\-\/]+)"/).map { String($0.1) })
                #expect(named == [PageFiles.publicVersion], "\(uri): \(named)")
                // Each module the page loads, and each it imports, is one a stranger may have, and kept under that name.
                var files = page.matches(of: /"\/page\/[0-9a-f]+\/([a-z.\-\/]+)"/).map { String($0.1) }
                var seen: Set<String> = []
                while let file = files.popLast() {
                    guard seen.insert(file).inserted else { continue }
                    #expect(PageFiles.isPublic(file), "\(uri) loads \(file)")
                    let response = try await request(client, "/page/\(PageFiles.publicVersion)/\(file)")
                    #expect(response.status == .ok && response.headers[.cacheControl] == "public, max-age=31536000, immutable", "\(file)")
                    // An import's path, relative to the importing module's folder.
                    let folder = URL(fileURLWithPath: "/" + file).deletingLastPathComponent()
                    files += String(buffer: response.body).matches(of: /from ["']([a-z.\-\/]+)["']/).map { match in
                        String(folder.appending(path: String(match.1)).standardized.path.dropFirst())
                    }
                }
            }
            // The organizer's files are not kept under the public version: it does not change with them.
            let app = try await request(client, "/page/\(PageFiles.publicVersion)/organizer/app.js")
            #expect(app.headers[.cacheControl] == "no-cache")
        }
    }

    @Test("each library error is answered with the table's HTTP status and code, and the library's facts as its message", arguments: LibraryError.examples)
    func libraryErrors(_ error: LibraryError) async throws {
        // As the file's holder reads it: with paths.
        let response = APIError.response(for: error, showingPaths: true)
        let outcome = FailureOutcome(error)
        #expect(Int(response.status.code) == outcome.httpStatus)
        #expect(!response.status.reasonPhrase.isEmpty)
        let collected = CollectedBody()
        try await response.body.write(CollectedBody.Writer(into: collected))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(buffer: collected.buffer)) as? [String: [String: Any]])
        #expect(json["error"]?["code"] as? String == outcome.code && json["error"]?["message"] as? String == outcome.message)
    }

    @Test("without libvips, a thumbnail is 503 thumbnails_unavailable with libvips' reason, not a photo's fault")
    func thumbnailsUnavailable() throws {
        let response = APIError.response(for: ThumbnailFailure.unavailable(detail: "libvips cannot be loaded (libvips.so.42: file too short)"))
        #expect(response.status == .serviceUnavailable)
        let failure = ThumbnailFailure.unavailable(detail: "why")
        #expect(failure.code == "thumbnails_unavailable" && failure.description == "no thumbnails can be made: why")
        // On this machine libvips loads: the thumbnails above were made by it.
        #expect(AlbumsServer.thumbnailsUnavailableReason == nil)
    }

    /// A multipart/form-data body as a browser's FormData sends it.
    /// A PNG of `width` × `height` with no pixel data: its signature, header and end.
    static func pngHeader(width: UInt32, height: UInt32) -> Data {
        var header = Data("IHDR".utf8)
        for value in [width, height] { withUnsafeBytes(of: value.bigEndian) { header.append(contentsOf: $0) } }
        header.append(contentsOf: [8, 2, 0, 0, 0])
        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13])
        png.append(header)
        png.append(contentsOf: [0, 0, 0, 0])  // CRC: headers are read without checking it
        png.append(contentsOf: [0, 0, 0, 0] + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82])
        return png
    }

    static func formData(_ files: [(name: String, bytes: Data)], boundary: String = "----albumsTestBoundary7MA4YWxk") -> (String, ByteBuffer) {
        var body = Data()
        for file in files {
            body += Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"files\"; filename=\"\(file.name)\"\r\nContent-Type: application/octet-stream\r\n\r\n".utf8)
            body += file.bytes + Data("\r\n".utf8)
        }
        body += Data("--\(boundary)--\r\n".utf8)
        return ("multipart/form-data; boundary=\(boundary)", ByteBuffer(bytes: body))
    }

    func photoNames(in album: String) throws -> [String?] {
        try fixture.library.read { reader in
            try reader.items(in: try reader.album(named: album).id).map { item in try item.photoID.map { try reader.photo($0).content.originalName } }
        }
    }

    func waitForLoads(in album: String) async throws {
        for _ in 0..<12_000 where try photoNames(in: album).contains(nil) { try await Task.sleep(for: .milliseconds(25)) }
    }

    @Test("files dropped from the desktop: placeholders at the slot at once, answered 202, then photos in their place")
    func uploads() async throws {
        let harbour = try Data(contentsOf: URL(fileURLWithPath: ExamplePhotos.path("01-harbour.jpg")))
        let forest = try Data(contentsOf: URL(fileURLWithPath: ExamplePhotos.path("11-forest.jpg")))
        try await application.test(.router) { client in
            let (type, body) = Self.formData([("../../harbour.jpg", harbour), ("forest.jpg", forest)])
            let response = try await client.executeRequest(
                uri: "/api/albums/Trip/files?at=2", method: .post, headers: headers + [.contentType: type], body: body)
            #expect(response.status == .accepted, "\(String(buffer: response.body))")
            let answer = try json(response)
            #expect(answer["files"] as? [String] == ["harbour.jpg", "forest.jpg"] && answer["position"] as? Int == 2)
            #expect((answer["placeholders"] as? [Int])?.count == 2)
            try await waitForLoads(in: "Trip")
            #expect(try photoNames(in: "Trip") == ["p1.jpg", "harbour.jpg", "forest.jpg", "p2.jpg", "p3.jpg", "p4.jpg", "p5.jpg"])
            let kept = fixture.folder.path("library.albums.uploads")
            #expect(FileManager.default.fileExists(atPath: kept), "the files live beside the library")

            // A photo the album holds already: its load fails at once and
            // takes its placeholder away, yet the upload was taken (202).
            // Ten times over, so the failure often beats the answer.
            for _ in 0..<10 {
                let (type, body) = Self.formData([("again.jpg", harbour)])
                let again = try await client.executeRequest(
                    uri: "/api/albums/Trip/files?at=1", method: .post, headers: headers + [.contentType: type], body: body)
                try #expect(again.status == .accepted && (try json(again))["position"] as? Int == 1, "\(String(buffer: again.body))")
            }
            try await waitForLoads(in: "Trip")
            #expect(try photoNames(in: "Trip").count == 7)
        }
    }

    /// An MP4 that says it runs `milliseconds`: an ftyp box of a video's
    /// brands and a movie header (`mvhd`, version 0, a time scale of 1000).
    static func movie(milliseconds: UInt32) -> Data {
        func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
            let size = UInt32(8 + payload.count)
            return [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)] + Array(type.utf8) + payload
        }
        let bigEndian = { (value: UInt32) in [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
        let header = [0, 0, 0, 0] + [UInt8](repeating: 0, count: 8) + bigEndian(1000) + bigEndian(milliseconds) + [UInt8](repeating: 0, count: 80)
        return Data(box("ftyp", Array("isom".utf8) + [0, 0, 2, 0] + Array("isomiso2avc1mp41".utf8)) + box("moov", box("mvhd", header)))
    }

    @Test("a video dropped from the desktop comes in as a video with its length; a video may be larger than a photo, told by its first bytes")
    func videoUploads() async throws {
        let clip = Self.movie(milliseconds: 2_500)
        try await application.test(.router) { client in
            let (type, body) = Self.formData([("clip.mp4", clip)])
            let response = try await client.executeRequest(uri: "/api/albums/Trip/files?at=1", method: .post, headers: headers + [.contentType: type], body: body)
            #expect(response.status == .accepted, "\(String(buffer: response.body))")
            try await waitForLoads(in: "Trip")
            let items = try json(try await client.executeRequest(uri: "/api/albums/Trip/items", method: .get, headers: headers, body: nil))["items"] as? [[String: Any]]
            let first = try #require(items?.first)
            #expect(first["file"] as? String == "clip.mp4" && first["media_type"] as? String == "video/mp4" && first["duration"] as? Double == 2.5, "\(first)")
        }
        // The inbox's limits: a photo's is passed by a video's bytes only.
        let folder = try TemporaryFolder()
        let inbox = UploadInbox(libraryPath: folder.path("small.albums"), maximumFileSize: 64, maximumVideoSize: 4_096)
        let video = try inbox.receive(sentName: "clip.mp4")
        try (clip + Data(repeating: 0, count: 200)).withUnsafeBytes { bytes in
            for start in stride(from: 0, to: bytes.count, by: 7) { try video.append(UnsafeRawBufferPointer(rebasing: bytes[start..<min(start + 7, bytes.count)])) }
        }
        #expect(video.byteCount > 64)
        let photo = try inbox.receive(sentName: "photo.jpg")
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: ExamplePhotos.path("01-harbour.jpg"))).prefix(300)
        #expect(throws: UploadInbox.Refusal.tooLarge(name: "photo.jpg", limit: 64)) {
            try jpeg.withUnsafeBytes { try photo.append($0) }
        }
        let big = try inbox.receive(sentName: "big.mp4")
        #expect(throws: UploadInbox.Refusal.tooLarge(name: "big.mp4", limit: 4_096)) {
            try (clip + Data(repeating: 0, count: 5_000)).withUnsafeBytes { try big.append($0) }
        }
    }

    @Test("an upload with a file that is not a photo, none at all, a bad body, a locked or missing album: refused, nothing kept")
    func refusedUploads() async throws {
        let harbour = try Data(contentsOf: URL(fileURLWithPath: ExamplePhotos.path("01-harbour.jpg")))
        let before = try photoNames(in: "Trip")
        try await application.test(.router) { client in
            func send(_ uri: String, _ files: [(name: String, bytes: Data)], type: String? = nil) async throws -> TestResponse {
                let (formType, body) = Self.formData(files)
                return try await client.executeRequest(uri: uri, method: .post, headers: headers + [.contentType: type ?? formType], body: body)
            }
            let text = try await send("/api/albums/Trip/files", [("photo.jpg", harbour), ("notes.jpg", Data("just text\n".utf8))])
            try #expect(text.status == .unsupportedMediaType && (try errorCode(text)) == "not_an_image")
            // A decompression bomb: a valid PNG header declaring 100000 × 100000 pixels.
            let bomb = try await send("/api/albums/Trip/files", [("bomb.png", Self.pngHeader(width: 100_000, height: 100_000))])
            try #expect(bomb.status == .unprocessableContent && (try errorCode(bomb)) == "too_many_pixels", "\(bomb.status) \(String(buffer: bomb.body))")
            let empty = try await send("/api/albums/Trip/files", [("empty.jpg", Data())])
            try #expect(empty.status == .unsupportedMediaType && (try errorCode(empty)) == "not_an_image")
            let none = try await send("/api/albums/Trip/files", [])
            try #expect(none.status == .badRequest && (try errorCode(none)) == "invalid_upload")
            let raw = try await send("/api/albums/Trip/files", [("a.jpg", harbour)], type: "image/jpeg")
            try #expect(raw.status == .unsupportedMediaType && (try errorCode(raw)) == "invalid_upload")
            let missing = try await send("/api/albums/Nowhere/files", [("a.jpg", harbour)])
            try #expect(missing.status == .notFound && (try errorCode(missing)) == "album_not_found")
            let far = try await send("/api/albums/Trip/files?at=99", [("a.jpg", harbour)])
            #expect(far.status == .unprocessableContent)
            let stale = try await send("/api/albums/Trip/files?expect_revision=0", [("a.jpg", harbour)])
            #expect(stale.status == .conflict)
            try await fixture.library.write { writer in try writer.setAlbumLocked(try writer.album(named: "Book").id, true) }
            let locked = try await send("/api/albums/Book/files", [("a.jpg", harbour)])
            try #expect(locked.status == .unprocessableContent && (try errorCode(locked)) == "album_locked")
            #expect(try itemCount(of: "Book") == 0)
        }
        #expect(try photoNames(in: "Trip") == before)
        let inbox = fixture.folder.path("library.albums.uploads")
        let kept = (FileManager.default.enumerator(atPath: inbox)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".jpg") }
        #expect(kept.isEmpty, "refused uploads leave no file: \(kept)")
    }

    @Test("over a real socket, a Host naming another server is refused (DNS rebinding); this server's own name passes")
    func hostHeader() async throws {
        let listening = ListeningPort()
        let app = liveApplication(listening) { ["localhost:\($0)", "127.0.0.1:\($0)"] }
        try await app.test(.live) { framework in
            let port = try listening.learn(from: framework)
            // The client's read timeout only guards against a hang: on a loaded
            // machine (every suite at once on two cores) an answer can take long.
            try await TestClient.withClient(host: "127.0.0.1", port: port, configuration: .init(timeout: .seconds(600))) { client in
                func get(authority: String) async throws -> (status: HTTPResponse.Status, body: ByteBuffer) {
                    let response = try await client.execute(TestClient.Request("/api/albums", method: .get, authority: authority, headers: headers))
                    return (response.head.status, response.body ?? ByteBuffer())
                }
                for own in ["127.0.0.1:\(port)", "localhost:\(port)", "LOCALHOST:\(port)"] {
                    let answer = try await get(authority: own)
                    #expect(answer.status == .ok, "\(own): \(String(buffer: answer.body))")
                }
                for foreign in ["evil.example:\(port)", "localhost", "127.0.0.1:1"] {
                    let rebound = try await get(authority: foreign)
                    try #expect(rebound.status == .misdirectedRequest && (try errorCode(rebound.body)) == "wrong_host", "\(foreign)")
                }
            }
        }
    }

    #if os(Linux)
    @Test("the event stream carries a commit made by another process: an albums CLI moving an item")
    func eventsFromAnotherProcess() async throws {
        let listening = ListeningPort()
        let app = liveApplication(listening) { ["127.0.0.1:\($0)"] }
        let library = fixture.library.path
        let bookID = try albumID(of: "Book")
        try await app.test(.live) { framework in
            let port = try listening.learn(from: framework)
            // Blocking socket reads and a child process: on a thread of their own, off the cooperative pool.
            let (stream, move) = try await withCheckedThrowingContinuation { continuation in
                Thread {
                    continuation.resume(with: Result {
                        let events = try EventStreamReader(port: port, token: Self.token)
                        defer { events.close() }
                        _ = try events.read(until: "albums change stream")
                        let move = try ExternalAlbums.run(["--library", library, "move", "Trip:1", "--to", "Book", "--at", "1"])
                        return (try events.read(until: "event: change"), move)
                    })
                }.start()
            }
            #expect(move.status == 0, "\(move.output)")
            let data = try #require(stream.split(separator: "\n").first { $0.hasPrefix("data: ") }?.dropFirst(6), "\(stream)")
            let event = try #require(try JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any])
            let changes = (event["operations"] as? [[[String: Any]]])?.first ?? []
            #expect(changes.contains { $0["album_id"] as? Int64 == bookID || $0["album_id"] as? Int == Int(bookID) }, "\(event)")
            #expect((event["sequence"] as? Int ?? 0) > 0)
            #expect((event["folder_changes"] as? [Any])?.isEmpty == true)
        }
    }
    #endif
}

/// The port a live test server took (port 0 picks a free one).
final class ListeningPort: Sendable {
    private let value = Mutex(0)
    var port: Int { value.withLock { $0 } }

    func learn(from framework: some TestClientProtocol) throws -> Int {
        let port = try #require(framework.port)
        value.withLock { $0 = port }
        return port
    }
}

#if os(Linux)
/// The `albums` binary built beside the tests, run as another process.
enum ExternalAlbums {
    static let binary: String = {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appending(path: "albums").path
        if FileManager.default.isExecutableFile(atPath: beside) { return beside }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appending(path: ".build/debug/albums").path
    }()

    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}

/// A plain HTTP/1.1 client of `GET /api/events` over a socket, reading the
/// stream as it comes (HummingbirdTesting's clients wait for a whole body).
final class EventStreamReader {
    private let socket: Int32
    private var received = ""

    convenience init(port: Int, token: String) throws {
        try self.init(port: port, credential: "Authorization: Bearer \(token)")
    }

    /// A stream asked for with `credential`, a whole header line (`Cookie: albums_person=…`).
    init(port: Int, credential: String) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw StreamError("cannot connect to port \(port)") }
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let request = "GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\(credential)\r\nAccept: text/event-stream\r\n\r\n"
        guard Array(request.utf8).withUnsafeBytes({ send(socket, $0.baseAddress, $0.count, 0) }) == request.utf8.count else {
            throw StreamError("cannot send the request")
        }
    }

    /// The chunk that ends a chunked response: the server closed the stream.
    static let end = "\r\n0\r\n\r\n"

    /// Everything received once `marker` has arrived; fails after 600 s
    /// without it (a bound against hanging, not a measure of speed).
    func read(until marker: String) throws -> String {
        let deadline = Date().addingTimeInterval(600)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !received.contains(marker) {
            guard Date() < deadline else { throw StreamError("no \(marker.debugDescription) within 600 s; received: \(received)") }
            let count = recv(socket, &buffer, buffer.count, 0)
            if count > 0 { received += String(decoding: buffer[0..<count], as: UTF8.self) }
            if count == 0 { throw StreamError("the server closed the stream; received: \(received)") }
        }
        return received
    }

    func close() { _ = Glibc.close(socket) }

    struct StreamError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
#endif

/// What a response body writes, collected to be read in a test.
final class CollectedBody: @unchecked Sendable {
    var buffer = ByteBuffer()

    struct Writer: ResponseBodyWriter {
        let into: CollectedBody

        mutating func write(_ buffer: ByteBuffer) async throws {
            var buffer = buffer
            into.buffer.writeBuffer(&buffer)
        }

        consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }
}
