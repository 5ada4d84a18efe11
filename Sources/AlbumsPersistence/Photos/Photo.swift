import Foundation

/// One piece of content in the library, identified by the SHA-256 of its bytes.
public struct Photo: Identifiable, Hashable, Sendable {
    public let id: PhotoID
    public let content: PhotoContent
    /// When the photo first entered the library (stored to the millisecond).
    public let importedAt: Date

    public init(id: PhotoID, content: PhotoContent, importedAt: Date) {
        self.id = id
        self.content = content
        self.importedAt = importedAt
    }
}

/// What is known of a photo's bytes and where they came from: the facts
/// a loader records, before the photo has an identity in a library.
public struct PhotoContent: Hashable, Sendable {
    /// The SHA-256 of the bytes: 32 bytes.
    public var sha256: Data
    public var byteCount: Int64
    /// A MIME type such as `image/jpeg`.
    public var mediaType: String
    public var pixelWidth: Int?
    public var pixelHeight: Int?
    /// The capture date as the file states it, `YYYY-MM-DDTHH:MM:SS` (no zone).
    public var capturedAt: String?
    /// The file name it was imported from.
    public var originalName: String
    /// Where the bytes were read from.
    public var sourcePath: String

    public init(
        sha256: Data, byteCount: Int64, mediaType: String, pixelWidth: Int? = nil,
        pixelHeight: Int? = nil, capturedAt: String? = nil, originalName: String, sourcePath: String
    ) {
        self.sha256 = sha256
        self.byteCount = byteCount
        self.mediaType = mediaType
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.capturedAt = capturedAt
        self.originalName = originalName
        self.sourcePath = sourcePath
    }

    /// The digest as 64 lowercase hexadecimal digits.
    public var sha256Hex: String { HexDigits.string(sha256) }
}
