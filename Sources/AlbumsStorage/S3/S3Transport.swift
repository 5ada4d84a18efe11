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

/// An answer whose body is read as it arrives, a part at a time.
package struct S3StreamedResponse: Sendable {
    package var status: Int
    package var headers: [(name: String, value: String)]
    package var body: S3Body

    /// The first header named `name`, in any case.
    package func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// An answer's body as it arrives: the parts the connection reads, asked
/// for one by one, so that no more than a part is held while the reader
/// is slower than the service.
package struct S3Body: AsyncSequence, Sendable {
    package typealias Element = Data

    private enum Source: Sendable {
        case whole(Data)
        case arriving(HTTPClientResponse.Body)
    }

    private let source: Source

    /// A body that is all there already.
    package init(_ bytes: Data) { source = .whole(bytes) }

    init(arriving body: HTTPClientResponse.Body) { source = .arriving(body) }

    package func makeAsyncIterator() -> Iterator {
        switch source {
        case .whole(let bytes): Iterator(state: .whole(bytes.isEmpty ? nil : bytes))
        case .arriving(let body): Iterator(state: .arriving(body.makeAsyncIterator()))
        }
    }

    /// The whole body, or a failure once it passes `limit` bytes.
    package func collect(upTo limit: Int) async throws(S3TransportFailure) -> Data {
        var bytes = Data()
        do {
            for try await part in self {
                guard bytes.count + part.count <= limit else { throw S3TransportFailure(detail: "an answer longer than \(limit) bytes") }
                bytes.append(part)
            }
        } catch {
            throw error as? S3TransportFailure ?? S3TransportFailure(detail: String(describing: error))
        }
        return bytes
    }

    package struct Iterator: AsyncIteratorProtocol {
        fileprivate enum State {
            case whole(Data?)
            case arriving(HTTPClientResponse.Body.AsyncIterator)
        }

        fileprivate var state: State

        /// The next part; nil at the end.
        ///
        /// - Throws: ``S3TransportFailure`` when the connection is cut or
        ///   stalls before the end.
        package mutating func next() async throws -> Data? {
            switch state {
            case .whole(let bytes):
                state = .whole(nil)
                return bytes
            case .arriving(var parts):
                do {
                    let part = try await parts.next()
                    state = .arriving(parts)
                    return part.map { Data($0.readableBytesView) }
                } catch {
                    throw S3TransportFailure(detail: String(describing: error))
                }
            }
        }
    }
}

/// What carries requests to the service: HTTP over AsyncHTTPClient, or,
/// in tests, a service played by the test.
package protocol S3Transport: Sendable {
    /// The answer to `request`, whatever its status, its body read whole.
    ///
    /// - Throws: ``S3TransportFailure`` when no answer came (no connection,
    ///   a connection cut, a timeout).
    func send(_ request: S3Request) async throws(S3TransportFailure) -> S3Response

    /// The answer to `request` once its head has come, its body to be read
    /// as it arrives.
    func open(_ request: S3Request) async throws(S3TransportFailure) -> S3StreamedResponse
}

extension S3Transport {
    /// A transport that only answers whole gives its body as one part.
    package func open(_ request: S3Request) async throws(S3TransportFailure) -> S3StreamedResponse {
        let answer = try await send(request)
        return S3StreamedResponse(status: answer.status, headers: answer.headers, body: S3Body(answer.body))
    }
}

/// No answer came: the connection failed, was cut, or timed out.
package struct S3TransportFailure: Error, Equatable, CustomStringConvertible {
    package let detail: String
    package var description: String { detail }
}

/// Requests over HTTP and HTTPS with one AsyncHTTPClient client for the
/// process (its event loops, its connection pool, TLS by SwiftNIO SSL).
package struct HTTPTransport: S3Transport {
    /// The most bytes an answer's body read whole may hold (``send(_:)``).
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
        // A body read as it arrives is past the request's deadline: a
        // service that goes quiet mid-body fails it after this long.
        configuration.timeout.read = .seconds(30)
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    package func send(_ request: S3Request) async throws(S3TransportFailure) -> S3Response {
        let answer = try await open(request)
        return S3Response(status: answer.status, headers: answer.headers, body: try await answer.body.collect(upTo: maximumBodySize))
    }

    package func open(_ request: S3Request) async throws(S3TransportFailure) -> S3StreamedResponse {
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = HTTPMethod(rawValue: request.method)
        for (name, value) in request.headers where name.lowercased() != "host" { outgoing.headers.add(name: name, value: value) }
        if !request.body.isEmpty || request.method == "PUT" || request.method == "POST" {
            outgoing.body = .bytes(ByteBuffer(bytes: request.body))
        }
        do {
            // The deadline covers the request's body and the answer's head.
            let response = try await Self.client.execute(outgoing, timeout: timeout + .seconds(Int64(request.body.count / slowestUpload)))
            return S3StreamedResponse(
                status: Int(response.status.code), headers: response.headers.map { (name: $0.name, value: $0.value) },
                body: S3Body(arriving: response.body))
        } catch {
            throw S3TransportFailure(detail: String(describing: error))
        }
    }
}
