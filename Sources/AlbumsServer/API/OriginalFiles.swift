import AlbumsImporting
import AlbumsPersistence
import Foundation
import Hummingbird

/// A photo's original bytes, as imported, streamed from the copy the
/// library keeps or else from its source file:
/// read in chunks by Hummingbird's non-blocking file I/O (never whole into
/// memory, never on a concurrency thread), with byte ranges, so that a
/// browser can resume a download or seek in a large file.
struct OriginalFiles: Sendable {
    let fileIO = FileIO()

    /// `GET …/original`, or the part a `Range: bytes=…` header asks for.
    ///
    /// - 200 with the whole file, `Accept-Ranges: bytes` and the photo's
    ///   digest as its `ETag`;
    /// - 206 with `Content-Range` for one satisfiable range (a malformed one,
    ///   several, or an `If-Range` that is not this file's tag get the whole
    ///   file, as HTTP allows);
    /// - 416 with `Content-Range: bytes */SIZE` for a range past the end;
    /// - 404 `source_missing` when the file cannot be read.
    func response(for photo: Photo, in library: Library, _ request: Request, context: some RequestContext) async throws -> Response {
        let original = try library.originalLocation(of: photo)
        guard let path = original.filePath else { return try await bucketResponse(for: photo, in: library, request) }
        return try await fileResponse(
            path: path, tagged: photo.content.sha256Hex, mediaType: photo.content.mediaType, missing: "the source of photo id:\(photo.id)", request,
            context: context)
    }

    /// `GET …/motion`: a Live Photo's motion, with the same answers as its
    /// still's original, read from its copy kept beside the still's (else
    /// its source); 404 `not_found` for a photo without one.
    func motionResponse(for photo: Photo, in library: Library, _ request: Request, context: some RequestContext) async throws -> Response {
        guard let motion = photo.motionAsOriginal, let location = try library.motionLocation(of: photo) else {
            return APIError.response(status: .notFound, code: "not_found", message: "photo id:\(photo.id) is no Live Photo: it has no motion")
        }
        guard let path = location.filePath else { return try await bucketResponse(for: motion, in: library, request) }
        return try await fileResponse(
            path: path, tagged: motion.content.sha256Hex, mediaType: motion.content.mediaType, missing: "the Live Photo motion of photo id:\(photo.id)",
            request, context: context)
    }

    /// `GET …/rendition`: a video's rendition (H.264 in MP4), with the same
    /// answers as its original, tagged apart from it.
    func renditionResponse(file path: String, of photo: Photo, _ request: Request, context: some RequestContext) async throws -> Response {
        try await fileResponse(
            path: path, tagged: photo.content.sha256Hex + "-mp4", mediaType: "video/mp4", missing: "the rendition of photo id:\(photo.id)", request,
            context: context)
    }

    /// The file at `path`, whole or the range asked, tagged by its digest.
    private func fileResponse(
        path: String, tagged identity: String, mediaType: String, missing: String, _ request: Request, context: some RequestContext
    ) async throws -> Response {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, access(path, R_OK) == 0 else {
            let reason = LibraryError.describeFileError(POSIXError(POSIXErrorCode(rawValue: errno) ?? .ENOENT))
            return APIError.response(status: .notFound, code: "source_missing", message: "\(missing) cannot be read (\(reason))")
        }
        let size = Int(status.st_size)
        let tag = "\"\(identity)\""
        var headers: HTTPFields = [
            .contentType: mediaType, .cacheControl: "private, max-age=3600", .acceptRanges: "bytes", .eTag: tag,
        ]
        let asked = request.headers[.range].flatMap { ByteRange(header: $0) }
        let applies = request.headers[.ifRange].map { $0 == tag } ?? true
        guard let asked, applies, size > 0 else {
            let body = size > 0 ? try await fileIO.loadFile(path: path, range: 0...(size - 1), context: context) : ResponseBody()
            return Response(status: .ok, headers: headers, body: body)
        }
        guard let range = asked.bytes(ofFileSized: size) else {
            headers[.contentRange] = "bytes */\(size)"
            return Response(status: .rangeNotSatisfiable, headers: headers)
        }
        headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound)/\(size)"
        return Response(status: .partialContent, headers: headers, body: try await fileIO.loadFile(path: path, range: range, context: context))
    }

    /// The same answers for a copy kept in a bucket: its bytes passed on as
    /// they arrive from the service, never held whole.
    private func bucketResponse(for photo: Photo, in library: Library, _ request: Request) async throws -> Response {
        let size = Int(photo.content.byteCount)
        let tag = "\"\(photo.content.sha256Hex)\""
        var headers: HTTPFields = [
            .contentType: photo.content.mediaType, .cacheControl: "private, max-age=3600", .acceptRanges: "bytes", .eTag: tag,
        ]
        let asked = request.headers[.range].flatMap { ByteRange(header: $0) }
        let applies = request.headers[.ifRange].map { $0 == tag } ?? true
        var range = 0...max(0, size - 1)
        var status = HTTPResponse.Status.ok
        if let asked, applies, size > 0 {
            guard let bytes = asked.bytes(ofFileSized: size) else {
                headers[.contentRange] = "bytes */\(size)"
                return Response(status: .rangeNotSatisfiable, headers: headers)
            }
            range = bytes
            status = .partialContent
            headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound)/\(size)"
        }
        guard size > 0 else { return Response(status: .ok, headers: headers, body: ResponseBody()) }
        // Asked before answering: a copy that is gone is a 404, not a cut-off body.
        let parts: KeptBytes
        do {
            parts = try await library.originalParts(of: photo, in: Int64(range.lowerBound)...Int64(range.upperBound))
        } catch {
            return APIError.response(
                status: .notFound, code: "source_missing", message: "the original of photo id:\(photo.id) cannot be read (\((error as? KeepingFailure)?.description ?? "\(error)"))")
        }
        let body = ResponseBody(contentLength: range.count) { writer in
            try await parts.forEach { try await writer.write(ByteBuffer(bytes: $0)) }
            try await writer.finish(nil)
        }
        return Response(status: status, headers: headers, body: body)
    }
}

/// One range of a `Range: bytes=…` header: `first-last`, `first-` or `-suffixLength`.
struct ByteRange: Equatable {
    enum Form: Equatable {
        case from(Int, through: Int?)
        case last(Int)
    }

    let form: Form

    /// Nil for anything but one byte range (several, another unit, malformed):
    /// the caller then sends the whole file.
    init?(header: String) {
        let text = header.trimmingCharacters(in: .whitespaces)
        guard text.lowercased().hasPrefix("bytes=") else { return nil }
        let spec = text.dropFirst("bytes=".count).trimmingCharacters(in: .whitespaces)
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return nil }
        let first = spec[..<dash].trimmingCharacters(in: .whitespaces)
        let last = spec[spec.index(after: dash)...].trimmingCharacters(in: .whitespaces)
        let isDigits = { (part: String) in !part.isEmpty && part.utf8.allSatisfy { (48...57).contains($0) } }
        if first.isEmpty {
            guard isDigits(last), let length = Int(last) else { return nil }
            form = .last(length)
        } else {
            guard isDigits(first), let start = Int(first) else { return nil }
            if last.isEmpty {
                form = .from(start, through: nil)
            } else {
                guard isDigits(last), let end = Int(last), end >= start else { return nil }
                form = .from(start, through: end)
            }
        }
    }

    /// The bytes it names of a file of `size` bytes, or nil when none of them exists.
    func bytes(ofFileSized size: Int) -> ClosedRange<Int>? {
        switch form {
        case .from(let start, let end):
            guard start < size else { return nil }
            return start...min(end ?? (size - 1), size - 1)
        case .last(let length):
            guard length > 0, size > 0 else { return nil }
            return max(0, size - length)...(size - 1)
        }
    }
}
