import AlbumsPersistence
import AlbumsTestSupport
import AlbumsThumbnails
import Foundation
import Testing

@testable import AlbumsServer

/// The OpenAPI document is the API: it names every route the server
/// answers under /api, with its method, and no route it does not.
@Suite("albums serve: the OpenAPI document and the routes")
struct OpenAPIDocumentTests {
    @Test("every /api route is in openapi.json with its method, and openapi.json names no other")
    func routesMatchTheDocument() throws {
        let fixture = try LibraryFixture()
        let (_, allowed) = AlbumsServer.routes(
            library: fixture.library, thumbnails: ThumbnailStore(folder: fixture.folder.url), loads: LoadsInFlight(),
            settings: GateSettings(token: "t", authorities: { [] }))
        // The document describes the API, not itself.
        let served = allowed.described.filter { $0.contains(" /api/") && !$0.hasSuffix("/api/openapi.json") }
        let document = try #require(PageFiles.file(named: "openapi.json")?.text)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(document.utf8)) as? [String: Any])
        let paths = try #require(json["paths"] as? [String: [String: Any]])
        let methods: Set = ["get", "put", "post", "delete", "patch", "head", "options"]
        let described = Set(paths.flatMap { path, operations in operations.keys.filter(methods.contains).map { "\($0.uppercased()) \(path)" } })
        #expect(served.subtracting(described).sorted() == [], "routes the document does not describe")
        #expect(described.subtracting(served).sorted() == [], "operations the document describes that no route answers")
        #expect(served.count >= 20, "the routes were not read")
    }
}
