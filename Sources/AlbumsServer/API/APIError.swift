import AlbumsPersistence
import AlbumsThumbnails
import AlbumsTransfer
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

    /// The response for any error a handler throws.
    static func response(for error: any Error) -> Response {
        switch error {
        case let error as LibraryError:
            return response(for: error)
        case let refusal as BatchRefusal:
            var response = response(for: refusal.reason)
            if let line = refusal.line {
                response = APIError.response(
                    status: response.status, code: refusal.reason.code, message: "line \(line): \(refusal.reason.description)")
            }
            return response
        // 400 is a request that is not the shape the document describes;
        // a reference of the right shape past the parser's limits is refused
        // like the library's other rules, 422.
        case let error as TransferBatchFormat.FormatError:
            if error.isBeyondLimits { return response(status: .unprocessableContent, code: "invalid_reference", message: error.description) }
            return response(status: .badRequest, code: "invalid_batch", message: error.description)
        case let error as ReferenceParser.ParseError:
            return response(status: error.isBeyondLimits ? .unprocessableContent : .badRequest, code: "invalid_reference", message: error.description)
        case let failure as ThumbnailFailure:
            switch failure {
            case .sourceMissing: return response(status: .notFound, code: failure.code, message: failure.description)
            case .sourceChanged: return response(status: .conflict, code: failure.code, message: failure.description)
            case .undecodable: return response(status: .unprocessableContent, code: failure.code, message: failure.description)
            case .unsupportedSize: return response(status: .badRequest, code: failure.code, message: failure.description)
            case .unavailable: return response(status: .serviceUnavailable, code: failure.code, message: failure.description)
            }
        case let refusal as UploadInbox.Refusal:
            switch refusal {
            case .tooLarge: return response(status: .contentTooLarge, code: refusal.code, message: refusal.description)
            case .notAnImage: return response(status: .unsupportedMediaType, code: refusal.code, message: refusal.description)
            case .tooManyPixels: return response(status: .unprocessableContent, code: refusal.code, message: refusal.description)
            case .cannotWrite: return response(status: HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage"), code: refusal.code, message: refusal.description)
            }
        case let refusal as RequestRefusal:
            return response(status: refusal.status, code: refusal.code, message: refusal.message)
        case let error as HTTPError:
            return response(status: error.status, code: "http_\(error.status.code)", message: error.body ?? error.status.reasonPhrase)
        default:
            return response(status: .internalServerError, code: "io_error", message: LibraryError.describeFileError(error))
        }
    }

    static func response(for error: LibraryError) -> Response {
        switch error {
        case .revisionMismatch(_, _, let actual):
            // 409 with the current revision, for the page to reload and retry.
            return response(status: .conflict, code: error.code, message: error.description, extra: ["revision": actual])
        case .albumNotFound, .folderNotFound, .itemNotFound, .photoNotFound, .noLibrary, .personNotFound, .shareLinkNotFound:
            return response(status: .notFound, code: error.code, message: error.description)
        case .forbidden:
            // Seen, but not theirs to change: what they cannot see is 404 above.
            return response(status: .forbidden, code: error.code, message: error.description)
        case .nothingToUndo, .nothingToRedo, .cannotUndo, .cannotRedo:
            // The history's state, not the request, is in the way.
            return response(status: .conflict, code: error.code, message: error.description)
        default:
            switch error.kind {
            case .refused: return response(status: .unprocessableContent, code: error.code, message: error.description)
            case .busy: return response(status: .serviceUnavailable, code: error.code, message: error.description)
            case .unusableFile, .inputOutput: return response(status: .internalServerError, code: error.code, message: error.description)
            }
        }
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

/// A request the API will not serve as sent: a bad parameter, path or body.
struct RequestRefusal: Error {
    let status: HTTPResponse.Status
    let code: String
    let message: String

    static func badParameter(_ message: String) -> RequestRefusal {
        RequestRefusal(status: .badRequest, code: "invalid_parameter", message: message)
    }
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
    static func make(status: HTTPResponse.Status = .ok, _ value: some Encodable) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(value)) ?? Data(#"{"error":{"code":"io_error","message":"cannot encode the answer"}}"#.utf8)
        return Response(
            status: status, headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}
