import AlbumsImageFacts
import Foundation

/// A bucket of an S3-compatible service (AWS S3, Backblaze B2, Wasabi,
/// MinIO, Ceph, OpenStack Swift's s3api), addressed by path
/// (`https://host/bucket/key`), every request signed with Signature
/// Version 4 and tried again, with growing waits, while the service is busy
/// or does not answer.
///
/// ```swift
/// let bucket = S3Bucket(endpoint: endpoint, name: "family-photos", credentials: keys, region: "us-east-1")
/// try await bucket.put("ab/abcdef….jpg", bytes: data)
/// let head = try await bucket.object("ab/abcdef….jpg", range: 0...1023)
/// ```
package struct S3Bucket: Sendable {
    /// The service: scheme, host and port.
    package let endpoint: URL
    package let name: String
    let signer: SignatureV4
    let transport: any S3Transport
    let retries: S3Retries
    /// The time requests are signed at: the clock, or a test's.
    let now: @Sendable () -> Date

    package init(
        endpoint: URL, name: String, credentials: S3Credentials, region: String, transport: any S3Transport = HTTPTransport(),
        retries: S3Retries = S3Retries(), now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.endpoint = endpoint
        self.name = name
        self.signer = SignatureV4(credentials: credentials, region: region)
        self.transport = transport
        self.retries = retries
        self.now = now
    }

    /// What the service says of an object.
    package struct ObjectInfo: Sendable, Equatable {
        package let size: Int64
        /// Its ETag, without quotes: for a single PUT, the MD5 of its bytes in hex.
        package let etag: String
    }

    // MARK: - The bucket

    /// Creates the bucket; one that exists already and is the caller's is no failure.
    package func create() async throws(S3Failure) {
        let answer = try await send("PUT", key: nil)
        if answer.status == 200 { return }
        let failure = S3Failure.refusal(answer)
        if case .refused(_, "BucketAlreadyOwnedByYou", _) = failure { return }
        throw failure
    }

    /// Deletes the bucket, which must be empty.
    package func delete() async throws(S3Failure) {
        try expect(204, 200, in: try await send("DELETE", key: nil))
    }

    // MARK: - Objects

    /// Stores `bytes` under `key` in one request, their SHA-256 signed
    /// (`sha256Hex` when the caller took it already, else taken here).
    ///
    /// - Returns: The object's ETag.
    @discardableResult
    package func put(_ key: String, bytes: Data, contentType: String? = nil, sha256Hex: String? = nil) async throws(S3Failure) -> String {
        let answer = try await send(
            "PUT", key: key, headers: contentType.map { [("Content-Type", $0)] } ?? [], body: bytes, payloadHash: sha256Hex)
        try expect(200, in: answer)
        return Self.unquoted(answer.header("ETag") ?? "")
    }

    /// An object's bytes, or with `range` (inclusive byte offsets) those of
    /// that part.
    package func object(_ key: String, range: ClosedRange<Int64>? = nil) async throws(S3Failure) -> Data {
        let answer = try await send("GET", key: key, headers: Self.rangeHeader(range))
        try expect(range == nil ? 200 : 206, 200, in: answer)
        try Self.checkAnswered(range, status: answer.status, length: answer.header("Content-Length"))
        return answer.body
    }

    /// The same bytes as ``object(_:range:)``, read as they arrive: the
    /// caller holds one part at a time, and has the first before the last
    /// has left the service. Only asking is tried again; a body cut off
    /// midway fails as the parts are read.
    package func objectParts(_ key: String, range: ClosedRange<Int64>? = nil) async throws(S3Failure) -> S3Body {
        let answer = try await exchange("GET", key: key, headers: Self.rangeHeader(range)) { request throws(S3TransportFailure) in
            let answer = try await transport.open(request)
            return (answer.status, answer)
        }
        guard answer.status == 200 || answer.status == (range == nil ? 200 : 206) else {
            // An error's body is a short XML document that says why.
            let said = (try? await answer.body.collect(upTo: 1 << 16)) ?? Data()
            throw S3Failure.refusal(S3Response(status: answer.status, headers: answer.headers, body: said))
        }
        try Self.checkAnswered(range, status: answer.status, length: answer.header("Content-Length"))
        return answer.body
    }

    private static func rangeHeader(_ range: ClosedRange<Int64>?) -> [(name: String, value: String)] {
        range.map { [("Range", "bytes=\($0.lowerBound)-\($0.upperBound)")] } ?? []
    }

    /// A whole object (200) answers a range only when the range is the
    /// whole object, from its first byte: any other would be the wrong bytes.
    private static func checkAnswered(_ range: ClosedRange<Int64>?, status: Int, length: String?) throws(S3Failure) {
        guard let range, status == 200 else { return }
        guard range.lowerBound == 0, let length = length.flatMap({ Int64($0) }), length <= range.upperBound + 1 else {
            throw .unreadable(detail: "the service answered bytes \(range.lowerBound)-\(range.upperBound) with the whole object")
        }
    }

    /// What the service says of `key`; nil when no such object exists.
    package func info(_ key: String) async throws(S3Failure) -> ObjectInfo? {
        let answer = try await send("HEAD", key: key)
        if answer.status == 404 { return nil }
        try expect(200, in: answer)
        guard let length = answer.header("Content-Length").flatMap({ Int64($0) }) else {
            throw .unreadable(detail: "a HEAD answer without Content-Length")
        }
        return ObjectInfo(size: length, etag: Self.unquoted(answer.header("ETag") ?? ""))
    }

    /// Deletes `key`; deleting what is not there is no failure (S3's rule).
    package func remove(_ key: String) async throws(S3Failure) {
        try expect(204, 200, in: try await send("DELETE", key: key))
    }

    /// Every key that begins with `prefix`, in the service's order (by their
    /// bytes), read a page of `pageSize` at a time, at most `pages` pages.
    package func keys(prefix: String = "", pageSize: Int = 1000, pages: Int = .max) async throws(S3Failure) -> [String] {
        var keys: [String] = []
        var token: String?
        var read = 0
        repeat {
            read += 1
            var query: [(name: String, value: String)] = [("list-type", "2"), ("prefix", prefix), ("max-keys", String(pageSize))]
            if let token { query.append(("continuation-token", token)) }
            let answer = try await send("GET", key: nil, query: query)
            try expect(200, in: answer)
            let text = String(decoding: answer.body, as: UTF8.self)
            keys += S3XML.blocks(of: "Contents", in: text).compactMap { S3XML.value(of: "Key", in: $0) }
            token = S3XML.value(of: "IsTruncated", in: text) == "true" ? S3XML.value(of: "NextContinuationToken", in: text) : nil
            if S3XML.value(of: "IsTruncated", in: text) == "true" && token == nil {
                throw .unreadable(detail: "a truncated listing without a continuation token")
            }
        } while token != nil && read < pages
        return keys
    }

    // MARK: - Multipart uploads

    /// Begins an upload in parts (each but the last at least 5 MiB, at most 10,000 of them).
    ///
    /// - Returns: The upload's id, which the parts and the end name.
    package func startUpload(_ key: String, contentType: String? = nil) async throws(S3Failure) -> String {
        let answer = try await send("POST", key: key, query: [("uploads", "")], headers: contentType.map { [("Content-Type", $0)] } ?? [])
        try expect(200, in: answer)
        guard let id = S3XML.value(of: "UploadId", in: String(decoding: answer.body, as: UTF8.self)), !id.isEmpty else {
            throw .unreadable(detail: "a new upload without its UploadId")
        }
        return id
    }

    /// Sends part `number` (1-based) of an upload; sending it again replaces it.
    ///
    /// - Returns: The part's ETag, which ``finishUpload(_:id:parts:)`` names.
    package func uploadPart(_ key: String, id: String, number: Int, bytes: Data) async throws(S3Failure) -> String {
        let answer = try await send("PUT", key: key, query: [("partNumber", String(number)), ("uploadId", id)], body: bytes)
        try expect(200, in: answer)
        guard let etag = answer.header("ETag") else { throw .unreadable(detail: "an uploaded part without its ETag") }
        return Self.unquoted(etag)
    }

    /// Joins the parts into the object, in their numbers' order.
    package func finishUpload(_ key: String, id: String, parts: [(number: Int, etag: String)]) async throws(S3Failure) {
        let list = parts.sorted { $0.number < $1.number }.map {
            "<Part><PartNumber>\($0.number)</PartNumber><ETag>\"\(XMLEntities.encoded($0.etag))\"</ETag></Part>"
        }.joined()
        let body = Data("<CompleteMultipartUpload>\(list)</CompleteMultipartUpload>".utf8)
        let answer = try await send("POST", key: key, query: [("uploadId", id)], body: body)
        try expect(200, in: answer)
        // S3 may answer 200 and put the failure in the body.
        let text = String(decoding: answer.body, as: UTF8.self)
        if text.contains("<Error>") { throw S3Failure.refusal(S3Response(status: 200, body: answer.body)) }
    }

    /// The uploads in parts begun and neither finished nor given up, of keys
    /// that begin with `prefix` (the first 1,000: S3's one page).
    package func unfinishedUploads(prefix: String) async throws(S3Failure) -> [(key: String, id: String)] {
        let answer = try await send("GET", key: nil, query: [("prefix", prefix), ("uploads", "")])
        try expect(200, in: answer)
        return S3XML.blocks(of: "Upload", in: String(decoding: answer.body, as: UTF8.self)).compactMap { upload in
            guard let key = S3XML.value(of: "Key", in: upload), let id = S3XML.value(of: "UploadId", in: upload) else { return nil }
            return (key, id)
        }
    }

    /// Gives an upload up, its parts with it.
    package func abortUpload(_ key: String, id: String) async throws(S3Failure) {
        try expect(204, 200, 404, in: try await send("DELETE", key: key, query: [("uploadId", id)]))
    }

    // MARK: - Requests

    /// Sends a signed request about the bucket (`key` nil) or one of its
    /// objects, tried again while no answer comes or the service is busy.
    func send(
        _ method: String, key: String?, query: [(name: String, value: String)] = [], headers: [(name: String, value: String)] = [],
        body: Data = Data(), payloadHash knownHash: String? = nil
    ) async throws(S3Failure) -> S3Response {
        try await exchange(method, key: key, query: query, headers: headers, body: body, payloadHash: knownHash) { request throws(S3TransportFailure) in
            let answer = try await transport.send(request)
            return (answer.status, answer)
        }
    }

    /// Signs a request afresh for each attempt and has `carry` take it to
    /// the service, until an answer that is not a passing failure comes.
    private func exchange<Answer>(
        _ method: String, key: String?, query: [(name: String, value: String)] = [], headers: [(name: String, value: String)] = [],
        body: Data = Data(), payloadHash knownHash: String? = nil,
        through carry: (S3Request) async throws(S3TransportFailure) -> (status: Int, answer: Answer)
    ) async throws(S3Failure) -> Answer {
        let path = SignatureV4.encodedPath(key.map { "\(name)/\($0)" } ?? name)
        var components = URLComponents()
        components.scheme = endpoint.scheme
        components.host = endpoint.host
        components.port = endpoint.port
        components.percentEncodedPath = path
        if !query.isEmpty {
            components.percentEncodedQuery = query.map {
                SignatureV4.percentEncoded($0.name, keepingSlashes: false) + ($0.value.isEmpty ? "" : "=" + SignatureV4.percentEncoded($0.value, keepingSlashes: false))
            }.joined(separator: "&")
        }
        guard let url = components.url, let host = endpoint.host else { throw .unreadable(detail: "no host in the endpoint \(endpoint)") }
        let payloadHash = knownHash ?? SignatureV4.hexSHA256(body)
        var attempt = 1
        while true {
            let time = now()
            var signed = headers + [
                ("Host", endpoint.port.map { "\(host):\($0)" } ?? host), ("X-Amz-Date", SignatureV4.amzDate(time)),
                ("X-Amz-Content-SHA256", payloadHash),
            ]
            if let token = signer.credentials.sessionToken { signed.append(("X-Amz-Security-Token", token)) }
            let request = SignatureV4.Request(method: method, path: path, query: query, headers: signed, payloadHash: payloadHash)
            let outgoing = S3Request(
                method: method, url: url, headers: signed + [("Authorization", signer.authorization(for: request, at: time))], body: body)
            let failure: S3Failure
            do {
                let (status, answer) = try await carry(outgoing)
                guard S3Retries.isPassing(status) else { return answer }
                failure = .unavailable(status: status, attempts: attempt)
            } catch {
                failure = .unreachable(detail: error.detail, attempts: attempt)
            }
            if attempt >= retries.attempts || Task.isCancelled { throw failure }
            attempt += 1
            await retries.wait(retries.waitBefore(attempt: attempt))
        }
    }

    /// Refuses an answer whose status is none of `statuses`, with what the service said.
    private func expect(_ statuses: Int..., in answer: S3Response) throws(S3Failure) {
        if !statuses.contains(answer.status) { throw S3Failure.refusal(answer) }
    }

    private static func unquoted(_ etag: String) -> String {
        etag.hasPrefix("\"") && etag.hasSuffix("\"") && etag.count >= 2 ? String(etag.dropFirst().dropLast()) : etag
    }
}
