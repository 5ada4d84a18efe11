import AlbumsTransfer
import Foundation
import MultipartKit
import NIOCore

/// Receives a `multipart/form-data` body into the library's upload inbox,
/// one file per part that names a file name, as the bytes arrive.
///
/// All or nothing: if any file is too large or not a photo, or the body
/// ends early (the client vanished), every file received is deleted.
final class UploadReceiver {
    private let inbox: UploadInbox
    private let parser: MultipartParser
    private var headers: [(String, String)] = []
    private var current: UploadInbox.IncomingFile?
    private var received: [UploadInbox.IncomingFile] = []
    /// The first refusal; once set, the rest of the body is only drained.
    private var refusal: (any Error)?

    /// - Parameter contentType: The request's Content-Type, which names the boundary.
    init(contentType: String?, inbox: UploadInbox) throws(RequestRefusal) {
        guard let contentType, let boundary = Self.boundary(of: contentType) else {
            throw RequestRefusal(
                status: .unsupportedMediaType, code: "invalid_upload",
                message: "send the files as multipart/form-data (the browser's FormData), one part per file")
        }
        self.inbox = inbox
        parser = MultipartParser(boundary: boundary)
        parser.onHeader = { [unowned self] name, value in headers.append((name, value)) }
        parser.onBody = { [unowned self] buffer in receive(&buffer) }
        parser.onPartComplete = { [unowned self] in completePart() }
    }

    /// Feeds the next bytes of the body.
    func consume(_ buffer: ByteBuffer) throws {
        do {
            try parser.execute(buffer)
        } catch {
            abandon()
            throw RequestRefusal(status: .badRequest, code: "invalid_upload", message: "the multipart body is malformed")
        }
        if let refusal {
            abandon()
            throw refusal
        }
    }

    /// The files received, each whole and sniffed as a photo.
    func finish() throws -> [UploadInbox.IncomingFile] {
        if current != nil {
            abandon()
            throw RequestRefusal(status: .badRequest, code: "invalid_upload", message: "the upload ended before its last file did")
        }
        guard !received.isEmpty else {
            throw RequestRefusal(status: .badRequest, code: "invalid_upload", message: "the upload holds no file")
        }
        return received
    }

    /// Deletes every file received so far.
    func abandon() {
        current?.abandon()
        current = nil
        for file in received { file.abandon() }
        received = []
    }

    private func receive(_ buffer: inout ByteBuffer) {
        guard refusal == nil, startFileIfNamed() else { return }
        do {
            try buffer.withUnsafeReadableBytes { try current?.append($0) }
        } catch {
            refusal = error
        }
    }

    private func completePart() {
        defer { headers = [] }
        // An empty file part never called onBody: its file starts here.
        guard refusal == nil, startFileIfNamed(), let file = current else { return }
        current = nil
        received.append(file)
        do {
            try file.finish()
        } catch {
            refusal = error
        }
    }

    /// Starts receiving the current part's file, once; false for a part
    /// that names no file (a plain form field, ignored) or a refusal.
    private func startFileIfNamed() -> Bool {
        if current != nil { return true }
        guard let name = Self.fileName(in: headers) else { return false }
        do {
            current = try inbox.receive(sentName: name)
            return true
        } catch {
            refusal = error
            return false
        }
    }

    /// The boundary parameter of a multipart/form-data Content-Type.
    static func boundary(of contentType: String) -> String? {
        let parts = contentType.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.first?.lowercased() == "multipart/form-data" else { return nil }
        for part in parts.dropFirst() where part.lowercased().hasPrefix("boundary=") {
            let value = part.dropFirst("boundary=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            return value.isEmpty || value.count > 200 ? nil : value
        }
        return nil
    }

    /// The `filename` of a part's Content-Disposition (browsers quote it and
    /// write `"` as `%22`); nil for a part that is not a file.
    static func fileName(in headers: [(String, String)]) -> String? {
        guard let disposition = headers.first(where: { $0.0.lowercased() == "content-disposition" })?.1 else { return nil }
        guard let start = disposition.range(of: "filename=\"") else { return nil }
        var name = ""
        var escaped = false
        for character in disposition[start.upperBound...] {
            if escaped {
                name.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "\"" {
                return name.replacingOccurrences(of: "%22", with: "\"")
            } else {
                name.append(character)
            }
        }
        return nil
    }
}
