import AlbumsPersistence
import AlbumsTransfer
import Foundation
import Hummingbird

/// What the API reads from a request, in one place for every route:
/// the path's parts, the query's numbers and flags, the body's text, the
/// photo an id names, and the limits they are held to.
enum RequestParts {
    /// The longest page of items one request returns.
    static let maximumLimit = 2_000
    /// The largest operation or batch body, in bytes.
    static let maximumBodySize = 4 << 20
    /// The most one upload request may carry, in bytes.
    static let maximumUploadSize = 2 << 30


    /// `?dry_run=1` (or `true`); `0`, `false` or none: a real write. Any
    /// other value is refused: a mistyped dry run must not write.
    static func isDryRun(_ request: Request) throws -> Bool {
        switch request.uri.queryParameters.get("dry_run").map({ String($0) }) {
        case nil, "0", "false": false
        case "1", "true": true
        case let other?: throw RequestRefusal.badParameter("dry_run must be 1, true, 0 or false, not '\(other)'")
        }
    }

    /// The path parameter `name`, percent-decoded.
    static func pathText(_ context: AlbumsRequestContext, _ name: String) throws -> String {
        guard let raw = context.parameters.get(name), let text = raw.removingPercentEncoding else {
            throw RequestRefusal.badParameter("the path's \(name) is not valid percent-encoded UTF-8")
        }
        return text
    }

    /// The query parameter `name` as text, or nil when absent. A NUL is
    /// refused: no name, date or cursor holds one, and SQLite would read
    /// the text only up to it.
    static func text(_ request: Request, _ name: String) throws -> String? {
        guard let text = request.uri.queryParameters.get(name).map({ String($0) }) else { return nil }
        guard !text.unicodeScalars.contains("\u{0}") else { throw RequestRefusal.badParameter("\(name) cannot hold a NUL character") }
        return text
    }

    /// The query parameter `name` as a whole number in `range`, or `value` when absent.
    static func integer(_ request: Request, _ name: String, default value: Int, range: ClosedRange<Int>) throws -> Int {
        guard let text = request.uri.queryParameters.get(name) else { return value }
        guard let number = Int(text), range.contains(number) else {
            throw RequestRefusal.badParameter("\(name) must be a whole number in \(range.lowerBound)…\(range.upperBound)")
        }
        return number
    }

    /// The query parameter `name` as true (`1`, `true`) or false (`0`, `false`), or nil when absent.
    static func optionalFlag(_ request: Request, _ name: String) throws -> Bool? {
        switch request.uri.queryParameters.get(name).map({ String($0) }) {
        case nil: nil
        case "1", "true": true
        case "0", "false": false
        case let other?: throw RequestRefusal.badParameter("\(name) must be 1, true, 0 or false, not '\(other)'")
        }
    }

    /// The query parameter `name` as a whole number in `range`, or nil when absent.
    static func optionalInteger(_ request: Request, _ name: String, range: ClosedRange<Int>) throws -> Int? {
        guard request.uri.queryParameters.get(name) != nil else { return nil }
        return try integer(request, name, default: 0, range: range)
    }

    /// The body as UTF-8 text, up to ``maximumBodySize``.
    static func bodyText(_ request: Request) async throws -> String {
        var request = request
        let buffer: ByteBuffer
        do {
            buffer = try await request.collectBody(upTo: maximumBodySize)
        } catch {
            throw RequestRefusal(status: .contentTooLarge, code: "body_too_large", message: "the body is larger than \(maximumBodySize >> 20) MiB")
        }
        guard let text = String(validating: buffer.readableBytesView, as: UTF8.self) else {
            throw RequestRefusal(status: .badRequest, code: "invalid_batch", message: "the body is not UTF-8 text")
        }
        return text
    }

    /// The photo the path's `id` names: ids only, never a path. One the
    /// principal cannot see is not found, as if it did not exist.
    static func photo(_ context: AlbumsRequestContext, session: TransferSession) async throws -> Photo {
        guard let id = Int64(try pathText(context, "id")), id > 0 else {
            throw RequestRefusal(status: .badRequest, code: "invalid_photo_id", message: "a photo is named by its id, a positive whole number")
        }
        return try await session.read { reader in
            let photo = PhotoID(rawValue: id)
            guard try reader.canSee(photo) else { throw LibraryError.photoNotFound(photo) }
            return try reader.photo(photo)
        }
    }
}
