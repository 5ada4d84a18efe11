/// What the first bytes of an image file tell: its media type, pixel size
/// and capture date.
public struct ImageFacts: Hashable, Sendable {
    /// A MIME type such as `image/jpeg`.
    public var mediaType: String
    public var pixelWidth: Int?
    public var pixelHeight: Int?
    /// `YYYY-MM-DDTHH:MM:SS`, with the zone offset when the file records one.
    public var capturedAt: String?
}

/// Why bytes could not be read as an image.
public enum ImageReadFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// Not a format albums knows: not an image, as far as albums can tell.
    case notAnImage(detail: String)
    /// A known format whose header is cut short or contradicts itself.
    case damaged(format: String, detail: String)

    public var description: String {
        switch self {
        case .notAnImage(let detail): "not an image (\(detail))"
        case .damaged(let format, let detail): "damaged \(format): \(detail)"
        }
    }
}
