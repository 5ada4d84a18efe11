import Foundation
import Testing

@testable import AlbumsStorage

/// The bucket client against a real S3-compatible server: OpenStack Swift's
/// s3api, which `scripts/object-storage start` runs on loopback and
/// `scripts/test` names in `ALBUMS_TEST_S3_*`. Every request is signed by
/// ``SignatureV4`` alone; the server computes the signature its own way and
/// refuses any that differs by a byte.
@Suite(
    "The bucket client against a real S3 server",
    .enabled(if: S3TestServer.configured != nil, "start one with scripts/object-storage start; scripts/test does"))
struct ObjectStorageServerTests {
    let server: S3TestServer
    let bucket: S3Bucket

    init() throws {
        server = try #require(S3TestServer.configured)
        bucket = server.bucket("albums-test-" + UUID().uuidString.prefix(8).lowercased())
    }

    @Test("objects put, read whole and by range, described, listed page by page, removed; keys of any Unicode")
    func objects() async throws {
        try await bucket.create()
        try await bucket.create()  // the caller's already: no failure
        let bytes = Data((0..<1_000).map { UInt8($0 % 251) })
        let keys = ["ab/ab12cd34.jpg", "Summer 2026/Café ☀ (1)+copy.jpg", "Summer 2026/a&b <c>.jpg"]
        for key in keys {
            let etag = try await bucket.put(key, bytes: bytes, contentType: "image/jpeg")
            #expect(!etag.isEmpty)
            #expect(try await bucket.object(key) == bytes, "\(key)")
            #expect(try await bucket.object(key, range: 100...199) == bytes[100..<200], "\(key)")
            #expect(try await bucket.info(key) == S3Bucket.ObjectInfo(size: 1_000, etag: etag))
        }
        // Two to a page: the listing follows its continuation tokens.
        #expect(try await bucket.keys(prefix: "Summer 2026/", pageSize: 1).sorted() == keys.dropFirst().sorted())
        #expect(try await bucket.keys(pageSize: 2).count == 3)
        for key in keys { try await bucket.remove(key) }
        try await bucket.remove(keys[0])  // gone already: no failure
        #expect(try await bucket.info(keys[0]) == nil)
        await #expect(throws: S3Failure.self) { try await bucket.object(keys[0]) }
        try await bucket.delete()
    }

    @Test("an object read as it arrives: the parts the connection reads, whole or a range; a missing one refused before any part")
    func objectReadAsItArrives() async throws {
        try await bucket.create()
        let bytes = Data((0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) })
        try await bucket.put("big.jpg", bytes: bytes)
        var parts: [Data] = []
        for try await part in try await bucket.objectParts("big.jpg") { parts.append(part) }
        #expect(parts.count > 1, "a body of 3 MiB arrives in more than one read")
        #expect(parts.allSatisfy { $0.count <= 1 << 20 } && Data(parts.joined()) == bytes)
        let range: ClosedRange<Int64> = 1_000_000...2_500_000
        #expect(try await bucket.objectParts("big.jpg", range: range).collect(upTo: 4 << 20) == bytes[1_000_000...2_500_000])
        await #expect(throws: S3Failure.refused(status: 404, code: "NoSuchKey", message: "The specified key does not exist.")) {
            _ = try await bucket.objectParts("gone.jpg")
        }
        try await bucket.remove("big.jpg")
        try await bucket.delete()
    }

    @Test("an upload in parts is one object; an upload given up leaves nothing")
    func multipart() async throws {
        try await bucket.create()
        let part = Data(repeating: 7, count: 5 << 20)  // S3's smallest part but the last
        let id = try await bucket.startUpload("big.mov", contentType: "video/quicktime")
        let first = try await bucket.uploadPart("big.mov", id: id, number: 1, bytes: part)
        let second = try await bucket.uploadPart("big.mov", id: id, number: 2, bytes: Data("tail".utf8))
        try await bucket.finishUpload("big.mov", id: id, parts: [(2, second), (1, first)])
        #expect(try await bucket.info("big.mov")?.size == Int64(part.count + 4))
        #expect(try await bucket.object("big.mov", range: Int64(part.count)...Int64(part.count + 3)) == Data("tail".utf8))
        let abandoned = try await bucket.startUpload("gone.mov")
        _ = try await bucket.uploadPart("gone.mov", id: abandoned, number: 1, bytes: Data("x".utf8))
        try await bucket.abortUpload("gone.mov", id: abandoned)
        #expect(try await bucket.info("gone.mov") == nil)
        try await bucket.remove("big.mov")
        try await bucket.delete()
    }

    @Test("a wrong secret, an unknown key and a missing bucket are refused in one line that says which")
    func refusals() async throws {
        let wrongSecret = server.bucket(bucket.name, credentials: S3Credentials(accessKeyID: server.credentials.accessKeyID, secretAccessKey: "not it"))
        await #expect { try await wrongSecret.create() } throws: { error in
            guard let failure = error as? S3Failure else { return false }
            return failure.isWrongKey && failure.description.contains("AWS_SECRET_ACCESS_KEY") && !failure.description.contains("\n")
        }
        let unknownKey = server.bucket(bucket.name, credentials: S3Credentials(accessKeyID: "nobody:here", secretAccessKey: "x"))
        await #expect { try await unknownKey.create() } throws: { ($0 as? S3Failure)?.isWrongKey == true }
        await #expect { _ = try await bucket.object("anything") } throws: { error in
            (error as? S3Failure)?.description.contains("NoSuchBucket") == true
        }
    }

    @Test("a server that is not there: tried again with growing waits, then one line")
    func unreachable() async throws {
        let waits = WaitLog()
        let nowhere = S3Bucket(
            endpoint: try #require(URL(string: "http://127.0.0.1:9")), name: "x", credentials: server.credentials, region: server.region,
            transport: HTTPTransport(timeout: .milliseconds(300)), retries: S3Retries(attempts: 3, firstWait: 0.01, wait: { await waits.add($0) }))
        await #expect { _ = try await nowhere.object("a") } throws: { error in
            guard case .unreachable(_, let attempts) = error as? S3Failure else { return false }
            return attempts == 3
        }
        #expect(await waits.seconds == [0.01, 0.02])
    }
}

/// The server the tests were given, and buckets on it.
struct S3TestServer: Sendable {
    let endpoint: URL
    let credentials: S3Credentials
    let region: String

    /// The server `ALBUMS_TEST_S3_ENDPOINT` names, with its keys; nil without it.
    static var configured: S3TestServer? {
        let environment = ProcessInfo.processInfo.environment
        guard let text = environment["ALBUMS_TEST_S3_ENDPOINT"], let endpoint = URL(string: text),
            let key = environment["ALBUMS_TEST_S3_ACCESS_KEY"], let secret = environment["ALBUMS_TEST_S3_SECRET_KEY"]
        else { return nil }
        return S3TestServer(
            endpoint: endpoint, credentials: S3Credentials(accessKeyID: key, secretAccessKey: secret),
            region: environment["ALBUMS_TEST_S3_REGION"] ?? "us-east-1")
    }

    func bucket(_ name: String, credentials: S3Credentials? = nil) -> S3Bucket {
        S3Bucket(endpoint: endpoint, name: name, credentials: credentials ?? self.credentials, region: region)
    }
}

/// The waits a client asked for, in order.
actor WaitLog {
    private(set) var seconds: [Double] = []
    func add(_ wait: Double) { seconds.append(wait) }
}
