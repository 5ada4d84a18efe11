import Foundation
import Testing

@testable import AlbumsStorage

/// The bucket client's own rules, against a service played by the test:
/// when it asks again and how long it waits, what it reads of S3's XML, and
/// where it finds its keys.
@Suite("The bucket client's retries, answers and keys")
struct S3ClientTests {
    /// A service that gives the answers it is told, in order, and keeps the requests.
    final class PlayedService: S3Transport, @unchecked Sendable {
        private let lock = NSLock()
        private var answers: [Result<S3Response, S3TransportFailure>]
        private(set) var requests: [S3Request] = []

        init(_ answers: [Result<S3Response, S3TransportFailure>]) { self.answers = answers }

        func send(_ request: S3Request) async throws(S3TransportFailure) -> S3Response {
            let next: Result<S3Response, S3TransportFailure> = lock.withLock {
                requests.append(request)
                return answers.isEmpty ? .success(S3Response(status: 500)) : answers.removeFirst()
            }
            return try next.get()
        }
    }

    func bucket(_ service: PlayedService, waits: WaitLog, attempts: Int = 6) throws -> S3Bucket {
        S3Bucket(
            endpoint: try #require(URL(string: "https://s3.example.com")), name: "photos",
            credentials: S3Credentials(accessKeyID: "AKID", secretAccessKey: "secret"), region: "eu-west-1", transport: service,
            retries: S3Retries(attempts: attempts, firstWait: 0.25, longestWait: 1, wait: { await waits.add($0) }),
            now: { Date(timeIntervalSince1970: 1_700_000_000) })
    }

    @Test("a burst of 503s and a dropped connection are waited out, each wait twice the last up to a bound")
    func busyThenAnswers() async throws {
        let service = PlayedService([
            .success(S3Response(status: 503, body: Data("<Error><Code>SlowDown</Code></Error>".utf8))),
            .failure(S3TransportFailure(detail: "connection reset")), .success(S3Response(status: 503)), .success(S3Response(status: 503)),
            .success(S3Response(status: 200, body: Data("bytes".utf8))),
        ])
        let waits = WaitLog()
        #expect(try await bucket(service, waits: waits).object("a/b.jpg") == Data("bytes".utf8))
        #expect(await waits.seconds == [0.25, 0.5, 1, 1])
        // Each attempt is signed afresh, and says what it is.
        #expect(service.requests.count == 5 && service.requests.allSatisfy { $0.method == "GET" })
        #expect(service.requests[0].url.absoluteString == "https://s3.example.com/photos/a/b.jpg")
        let authorization = try #require(service.requests[0].headers.first { $0.name == "Authorization" }?.value)
        #expect(authorization.hasPrefix("AWS4-HMAC-SHA256 Credential=AKID/20231114/eu-west-1/s3/aws4_request, SignedHeaders=host;x-amz-content-sha256;x-amz-date, Signature="))
    }

    @Test("an object read as it arrives is asked again while the service is busy; the whole object for a range from its middle is refused")
    func objectPartsRetriedAndChecked() async throws {
        let service = PlayedService([
            .success(S3Response(status: 503)), .success(S3Response(status: 206, body: Data("tes".utf8))),
            .success(S3Response(status: 200, headers: [("Content-Length", "5")], body: Data("bytes".utf8))),
            .success(S3Response(status: 200, headers: [("Content-Length", "5")], body: Data("bytes".utf8))),
        ])
        let waits = WaitLog()
        let bucket = try bucket(service, waits: waits)
        #expect(try await bucket.objectParts("a.jpg", range: 2...4).collect(upTo: 100) == Data("tes".utf8))
        #expect(await waits.seconds == [0.25])
        #expect(service.requests.last?.headers.contains { $0.name == "Range" && $0.value == "bytes=2-4" } == true)
        await #expect(throws: S3Failure.self) { _ = try await bucket.objectParts("a.jpg", range: 2...4) }
        // From the first byte to past the end, the whole object is what was asked.
        #expect(try await bucket.objectParts("a.jpg", range: 0...9).collect(upTo: 100) == Data("bytes".utf8))
    }

    @Test("a refusal is not asked again; a service busy every time is said so, with the count")
    func refusalsAndGivingUp() async throws {
        let denied = PlayedService([.success(S3Response(status: 403, body: Data("<Error><Code>SignatureDoesNotMatch</Code><Message>no</Message></Error>".utf8)))])
        let waits = WaitLog()
        await #expect(throws: S3Failure.refused(status: 403, code: "SignatureDoesNotMatch", message: "no")) {
            try await bucket(denied, waits: waits).put("k", bytes: Data())
        }
        let waited = await waits.seconds
        #expect(denied.requests.count == 1 && waited.isEmpty)
        let busy = PlayedService(Array(repeating: .success(S3Response(status: 503)), count: 10))
        await #expect(throws: S3Failure.unavailable(status: 503, attempts: 3)) {
            try await bucket(busy, waits: waits, attempts: 3).remove("k")
        }
        #expect(busy.requests.count == 3)
    }

    @Test("a listing is read page by page, its keys' entities decoded; a page that says truncated without a token is refused")
    func listings() async throws {
        let first = "<ListBucketResult><IsTruncated>true</IsTruncated><NextContinuationToken>t+1/=</NextContinuationToken>"
            + "<Contents><Key>a&amp;b &lt;1&gt;.jpg</Key><Size>3</Size></Contents></ListBucketResult>"
        let second = "<ListBucketResult><IsTruncated>false</IsTruncated><Contents><Key>caf&#xE9; &#9728;.jpg</Key></Contents></ListBucketResult>"
        let service = PlayedService([.success(S3Response(status: 200, body: Data(first.utf8))), .success(S3Response(status: 200, body: Data(second.utf8)))])
        let waits = WaitLog()
        #expect(try await bucket(service, waits: waits).keys(prefix: "a b") == ["a&b <1>.jpg", "café ☀.jpg"])
        #expect(service.requests[0].url.query == "list-type=2&prefix=a%20b&max-keys=1000")
        #expect(service.requests[1].url.query?.hasSuffix("&continuation-token=t%2B1%2F%3D") == true)
        let broken = PlayedService([.success(S3Response(status: 200, body: Data("<IsTruncated>true</IsTruncated>".utf8)))])
        await #expect(throws: S3Failure.unreadable(detail: "a truncated listing without a continuation token")) {
            _ = try await bucket(broken, waits: waits).keys()
        }
        #expect(S3XML.value(of: "Key", in: "<Key>&unknown; &#xZZ; & tail</Key>") == "&unknown; &#xZZ; & tail")
    }

    @Test("keys come from the environment, else the profile of the shared credentials file; what is missing is named")
    func credentials() throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "albums-aws-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appending(path: ".aws"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let home = folder.path
        #expect(throws: S3CredentialsFailure.noKeys(file: home + "/.aws/credentials")) { try S3Credentials.found(in: [:], homeFolder: home) }
        let file = """
            # the usual file
            [default]
            aws_access_key_id = AKIDDEFAULT
            aws_secret_access_key = s3cr3t=with=equals

            [profile work]
            ; a comment
            AWS_ACCESS_KEY_ID=AKIDWORK
            aws_secret_access_key = w
            aws_session_token = token
            [half]
            aws_access_key_id = AKIDHALF
            """
        try Data(file.utf8).write(to: folder.appending(path: ".aws/credentials"))
        #expect(try S3Credentials.found(in: [:], homeFolder: home) == S3Credentials(accessKeyID: "AKIDDEFAULT", secretAccessKey: "s3cr3t=with=equals"))
        #expect(
            try S3Credentials.found(in: ["AWS_PROFILE": "work"], homeFolder: home)
                == S3Credentials(accessKeyID: "AKIDWORK", secretAccessKey: "w", sessionToken: "token"))
        #expect(throws: S3CredentialsFailure.noProfile("other", file: home + "/.aws/credentials")) {
            try S3Credentials.found(in: ["AWS_PROFILE": "other"], homeFolder: home)
        }
        #expect(throws: S3CredentialsFailure.secretMissing(source: "profile 'half' of \(home)/.aws/credentials")) {
            try S3Credentials.found(in: ["AWS_PROFILE": "half"], homeFolder: home)
        }
        // The environment comes first.
        #expect(
            try S3Credentials.found(in: ["AWS_ACCESS_KEY_ID": "AKIDENV", "AWS_SECRET_ACCESS_KEY": "e", "AWS_PROFILE": "work"], homeFolder: home)
                == S3Credentials(accessKeyID: "AKIDENV", secretAccessKey: "e"))
        #expect(throws: S3CredentialsFailure.secretMissing(source: "the environment")) {
            try S3Credentials.found(in: ["AWS_ACCESS_KEY_ID": "AKIDENV"], homeFolder: home)
        }
    }

    @Test("a session token is sent and signed")
    func sessionToken() async throws {
        let service = PlayedService([.success(S3Response(status: 204))])
        let waits = WaitLog()
        let bucket = S3Bucket(
            endpoint: try #require(URL(string: "http://127.0.0.1:9000")), name: "b",
            credentials: S3Credentials(accessKeyID: "A", secretAccessKey: "S", sessionToken: "T"), region: "us-east-1", transport: service,
            retries: S3Retries(wait: { await waits.add($0) }))
        try await bucket.remove("k")
        let headers = try #require(service.requests.first?.headers)
        #expect(headers.contains { $0.name == "X-Amz-Security-Token" && $0.value == "T" })
        #expect(headers.contains { $0.name == "Host" && $0.value == "127.0.0.1:9000" })
        #expect(headers.first { $0.name == "Authorization" }?.value.contains("SignedHeaders=host;x-amz-content-sha256;x-amz-date;x-amz-security-token") == true)
    }
}
