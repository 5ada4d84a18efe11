import AlbumsPersistence
import AlbumsThumbnails
import AlbumsTransfer
import AlbumsWire
import Foundation
import Hummingbird

/// Errors as the API answers them: the JSON object `--json` prints
/// (`{"error": {"code", "message"}}`), with an HTTP status for its kind.
enum APIError {
    static func response(status: HTTPResponse.Status, code: String, message: String, extra: [String: Int64] = [:]) -> Response {
        var error: [String: JSONValue] = ["code": .string(code), "message": .string(message)]
        for (key, value) in extra { error[key] = .number(value) }
        return JSONResponse.make(status: status, ["error": JSONValue.object(error)])
    }

    /// The response for any error a handler throws: the server's own
    /// refusals with the status each carries (``APIRefusal``), thumbnails'
    /// failures here, the libraries' from ``FailureOutcome``, the table the
    /// CLI's exit statuses come from too.
    ///
    /// With `showingPaths` false (for anyone but the file's holder and
    /// admins), every path on the server's disk is cut to its file's name.
    static func response(for error: any Error, showingPaths: Bool = false) -> Response {
        func response(status: HTTPResponse.Status, code: String, message: String, extra: [String: Int64] = [:]) -> Response {
            APIError.response(status: status, code: code, message: showingPaths ? message : PathFreeMessage.of(message), extra: extra)
        }
        switch error {
        case let failure as ThumbnailFailure:
            switch failure {
            // The holder and admins, who run the server, are told what finds the file; others only that it is not there.
            case .sourceMissing:
                return response(status: .notFound, code: failure.code, message: failure.description + (showingPaths ? "; albums relink finds moved files" : ""))
            case .sourceChanged:
                return response(
                    status: .conflict, code: failure.code, message: failure.description + (showingPaths ? "; albums check --files lists such files" : ""))
            case .undecodable: return response(status: .unprocessableContent, code: failure.code, message: failure.description)
            case .unsupportedSize: return response(status: .badRequest, code: failure.code, message: failure.description)
            case .unavailable: return response(status: .serviceUnavailable, code: failure.code, message: failure.description)
            }
        case let refusal as any APIRefusal:
            return response(status: refusal.status, code: refusal.code, message: refusal.message)
        case let error as HTTPError:
            return response(status: error.status, code: "http_\(error.status.code)", message: error.body ?? error.status.reasonPhrase)
        default:
            return APIError.response(for: FailureOutcome(error) ?? FailureOutcome(fileError: error), showingPaths: showingPaths)
        }
    }

    static func response(for error: LibraryError) -> Response {
        response(for: FailureOutcome(error))
    }

    static func response(for outcome: FailureOutcome, showingPaths: Bool = false) -> Response {
        // 409 with the current revision, for the page to reload and retry.
        let extra: [String: Int64] = if case .revisionMismatch(_, _, let actual) = outcome.libraryError { ["revision": actual] } else { [:] }
        let message = showingPaths ? outcome.message : PathFreeMessage.of(outcome.message)
        return response(status: status(outcome.httpStatus), code: outcome.code, message: message, extra: extra)
    }

    /// The status with its reason phrase (`HTTPResponse.Status(code:)` leaves it empty).
    private static func status(_ code: Int) -> HTTPResponse.Status {
        let known: [HTTPResponse.Status] = [.badRequest, .forbidden, .notFound, .conflict, .unprocessableContent, .internalServerError, .serviceUnavailable]
        return known.first { $0.code == code } ?? HTTPResponse.Status(code: code)
    }
}

extension APIError {
    /// 429 with `Retry-After`: an attempt that must wait (sign-ins, link passwords).
    static func tooManyAttempts(_ what: String, wait: TimeInterval) -> Response {
        let seconds = Int(wait.rounded(.up))
        var response = response(status: .tooManyRequests, code: "too_many_attempts", message: "too many \(what): try again in \(seconds) s")
        response.headers[.retryAfter] = String(seconds)
        return response
    }
}

/// An error only the server raises, which carries its own HTTP status, code
/// and message: the libraries' failures get theirs from ``FailureOutcome``.
protocol APIRefusal: HTTPResponseError {
    /// The `code` of the JSON error.
    var code: String { get }
    /// The facts, in one line.
    var message: String { get }
}

extension APIRefusal {
    /// The JSON error, path-free: the server's error middleware answers
    /// first and shows paths to whom it may; this is Hummingbird's fallback.
    func response(from request: Request, context: some RequestContext) throws -> Response {
        APIError.response(status: status, code: code, message: PathFreeMessage.of(message))
    }
}

/// A request the API will not serve as sent: a bad parameter, path or body.
struct RequestRefusal: APIRefusal {
    let status: HTTPResponse.Status
    let code: String
    let message: String

    static func badParameter(_ message: String) -> RequestRefusal {
        RequestRefusal(status: .badRequest, code: "invalid_parameter", message: message)
    }
}

extension UploadInbox.Refusal: APIRefusal {
    var status: HTTPResponse.Status {
        switch self {
        case .tooLarge: .contentTooLarge
        case .notAnImage: .unsupportedMediaType
        case .tooManyPixels: .unprocessableContent
        case .cannotWrite: HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage")
        }
    }

    var message: String { description }
}

/// A JSON value for the few objects built by hand (errors).
enum JSONValue: Encodable {
    case string(String)
    case number(Int64)
    case object([String: JSONValue])

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

/// JSON responses: sorted keys and unescaped slashes, as the CLI prints.
enum JSONResponse {
    /// The one encoder of the API's answers and events (an encoder keeps no
    /// state between calls, and is safe to share).
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// `value` as JSON with `status`; an answer that cannot be encoded (a
    /// number JSON has no form for) is the server's failure: a 500 saying
    /// so, never `status` with an error in its body.
    static func make(status: HTTPResponse.Status = .ok, _ value: some Encodable) -> Response {
        let encoded = try? encoder.encode(value)
        return Response(
            status: encoded == nil ? .internalServerError : status, headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: encoded ?? Data(#"{"error":{"code":"io_failure","message":"cannot encode the answer"}}"#.utf8))))
    }
}
