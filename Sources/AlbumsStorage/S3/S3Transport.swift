import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// One HTTP request to an S3-compatible service, signed already.
package struct S3Request: Sendable {
    package var method: String
    package var url: URL
    package var headers: [(name: String, value: String)]
    package var body: Data
}

/// A service's answer: its status, headers and body.
package struct S3Response: Sendable {
    package var status: Int
    package var headers: [(name: String, value: String)]
    package var body: Data

    package init(status: Int, headers: [(name: String, value: String)] = [], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first header named `name`, in any case.
    package func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// What carries requests to the service: HTTP over AsyncHTTPClient, or,
/// in tests, a service played by the test.
package protocol S3Transport: Sendable {
    /// The answer to `request`, whatever its status.
    ///
    /// - Throws: ``S3TransportFailure`` when no answer came (no connection,
    ///   a connection cut, a timeout).
    func send(_ request: S3Request) async throws(S3TransportFailure) -> S3Response
}

/// No answer came: the connection failed, was cut, or timed out.
package struct S3TransportFailure: Error, Equatable, CustomStringConvertible {
    package let detail: String
    package var description: String { detail }
}

/// Requests over HTTP and HTTPS with one AsyncHTTPClient client for the
/// process (its event loops, its connection pool, TLS by SwiftNIO SSL).
package struct HTTPTransport: S3Transport {
    /// The most bytes an answer's body may hold: answers are read whole.
    package let maximumBodySize: Int
    /// How long a request without a body may take, answer included.
    package let timeout: TimeAmount
    /// The slowest upload allowed, in bytes a second: a body adds its size
    /// at this rate to ``timeout``.
    package let slowestUpload: Int

    package init(maximumBodySize: Int = 256 << 20, timeout: TimeAmount = .seconds(30), slowestUpload: Int = 256 << 10) {
        self.maximumBodySize = maximumBodySize
        self.timeout = timeout
        self.slowestUpload = max(1, slowestUpload)
    }

    /// The process's client, as AsyncHTTPClient's shared one but for one
    /// thing: a connection refused fails its request at once, instead of
    /// being tried again until the request's deadline (30 s and more, each
    /// of ``S3Retries``'s tries); the retries' growing waits decide how long
    /// a service that is down is waited for. Never shut down, as the shared
    /// client is not: it lives as long as the process.
    private static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration.singletonConfiguration
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout.connect = .seconds(10)
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    package func send(_ request: S3Request) async throws(S3TransportFailure) -> S3Response {
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = HTTPMethod(rawValue: request.method)
        for (name, value) in request.headers where name.lowercased() != "host" { outgoing.headers.add(name: name, value: value) }
        if !request.body.isEmpty || request.method == "PUT" || request.method == "POST" {
            outgoing.body = .bytes(ByteBuffer(bytes: request.body))
        }
        do {
            let response = try await Self.client.execute(outgoing, timeout: timeout + .seconds(Int64(request.body.count / slowestUpload)))
            let body = try await response.body.collect(upTo: maximumBodySize)
            return S3Response(
                status: Int(response.status.code), headers: response.headers.map { (name: $0.name, value: $0.value) },
                body: Data(body.readableBytesView))
        } catch {
            throw S3TransportFailure(detail: String(describing: error))
        }
    }
}
