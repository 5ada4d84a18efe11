import Crypto
import Foundation
import Testing

@testable import AlbumsStorage

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The signing held to a real S3-compatible server: OpenStack Swift's s3api,
/// which `scripts/object-storage start` runs on loopback and `scripts/test`
/// names in `ALBUMS_TEST_S3_*`. Every request here is signed by
/// ``SignatureV4`` alone; the server computes the signature its own way and
/// refuses any that differs by a byte.
@Suite(
    "AWS Signature Version 4 against a real S3 server",
    .enabled(if: S3TestServer.configured != nil, "start one with scripts/object-storage start; scripts/test does"))
struct ObjectStorageServerTests {
    let server: S3TestServer
    let bucket = "albums-test-" + UUID().uuidString.prefix(8).lowercased()

    init() throws {
        server = try #require(S3TestServer.configured)
    }

    @Test("a bucket made, objects put, read whole and by range, listed, deleted; the names any Unicode")
    func objectsRoundTrip() async throws {
        #expect(try await server.send("PUT", "/\(bucket)").status == 200)
        let bytes = Data((0..<1_000).map { UInt8($0 % 251) })
        // A key as albums names originals would be, and one as a person names a file.
        for key in ["ab/ab12cd34.jpg", "Summer 2026/Café ☀ (1)+copy.jpg"] {
            let path = "/\(bucket)/" + key
            let put = try await server.send("PUT", path, body: bytes)
            #expect(put.status == 200, "PUT \(key): \(put.text)")
            let got = try await server.send("GET", path)
            #expect(got.status == 200 && got.body == bytes, "GET \(key): \(got.status)")
            let part = try await server.send("GET", path, headers: [("Range", "bytes=100-199")])
            #expect(part.status == 206 && part.body == bytes[100..<200], "range of \(key): \(part.status)")
        }
        let listing = try await server.send("GET", "/\(bucket)", query: [("list-type", "2"), ("prefix", "Summer 2026/")])
        #expect(listing.status == 200 && listing.text.contains("Café ☀ (1)+copy.jpg"), "\(listing.text)")
        for key in ["ab/ab12cd34.jpg", "Summer 2026/Café ☀ (1)+copy.jpg"] {
            #expect(try await server.send("DELETE", "/\(bucket)/" + key).status == 204)
        }
        let gone = try await server.send("GET", "/\(bucket)/ab/ab12cd34.jpg")
        #expect(gone.status == 404 && gone.text.contains("NoSuchKey"))
        #expect(try await server.send("DELETE", "/\(bucket)").status == 204)
    }

    @Test("a wrong secret is refused: the server's signature differs")
    func wrongSecret() async throws {
        let wrong = S3TestServer(
            endpoint: server.endpoint,
            signer: SignatureV4(credentials: S3Credentials(accessKeyID: server.signer.credentials.accessKeyID, secretAccessKey: "not the secret"), region: server.signer.region))
        let answer = try await wrong.send("PUT", "/\(bucket)")
        #expect(answer.status == 403 && answer.text.contains("SignatureDoesNotMatch"), "\(answer.text)")
    }
}

/// The server the tests were given, and requests to it signed by ``SignatureV4``.
struct S3TestServer: Sendable {
    let endpoint: URL
    let signer: SignatureV4

    /// The server `ALBUMS_TEST_S3_ENDPOINT` names, with its keys; nil without it.
    static var configured: S3TestServer? {
        let environment = ProcessInfo.processInfo.environment
        guard let text = environment["ALBUMS_TEST_S3_ENDPOINT"], let endpoint = URL(string: text),
            let key = environment["ALBUMS_TEST_S3_ACCESS_KEY"], let secret = environment["ALBUMS_TEST_S3_SECRET_KEY"]
        else { return nil }
        let credentials = S3Credentials(accessKeyID: key, secretAccessKey: secret)
        return S3TestServer(endpoint: endpoint, signer: SignatureV4(credentials: credentials, region: environment["ALBUMS_TEST_S3_REGION"] ?? "us-east-1"))
    }

    struct Answer {
        let status: Int
        let body: Data
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// Sends a request to `path` (a bucket and a key, not encoded), signed with its payload's hash.
    func send(
        _ method: String, _ path: String, query: [(name: String, value: String)] = [], headers: [(name: String, value: String)] = [],
        body: Data = Data()
    ) async throws -> Answer {
        let encodedPath = SignatureV4.encodedPath(path)
        var components = URLComponents()
        components.percentEncodedPath = encodedPath
        if !query.isEmpty {
            components.percentEncodedQuery = query.map {
                SignatureV4.percentEncoded($0.name, keepingSlashes: false) + "=" + SignatureV4.percentEncoded($0.value, keepingSlashes: false)
            }.joined(separator: "&")
        }
        let url = try #require(components.url(relativeTo: endpoint))
        let time = Date()
        let host = endpoint.port.map { "\(endpoint.host ?? ""):\($0)" } ?? (endpoint.host ?? "")
        let payloadHash = SignatureV4.hexSHA256(body)
        let signed = headers + [("Host", host), ("X-Amz-Date", SignatureV4.amzDate(time)), ("X-Amz-Content-SHA256", payloadHash)]
        let request = SignatureV4.Request(method: method, path: encodedPath, query: query, headers: signed, payloadHash: payloadHash)
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = method
        for (name, value) in signed where name != "Host" { urlRequest.setValue(value, forHTTPHeaderField: name) }
        urlRequest.setValue(signer.authorization(for: request, at: time), forHTTPHeaderField: "Authorization")
        if !body.isEmpty { urlRequest.httpBody = body }
        let (data, response) = try await URLSession.shared.data(for: urlRequest)
        return Answer(status: (response as? HTTPURLResponse)?.statusCode ?? 0, body: data)
    }
}
