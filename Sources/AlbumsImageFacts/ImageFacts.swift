

/// What an image file's bytes tell: its media type, pixel size,
/// orientation and capture date.
public struct ImageFacts: Hashable, Sendable {
    /// A MIME type such as `image/jpeg`.
    public var mediaType: String
    /// The stored raster's width.
    public var pixelWidth: Int?
    /// The stored raster's height.
    public var pixelHeight: Int?
    /// How the raster is turned to be seen upright.
    public var orientation: PhotoOrientation = .up
    /// When the photo was taken, by the rules of ``CaptureDateRules``.
    public var capturedAt: CaptureDate?
    /// The camera's maker (EXIF `Make`), as written: "FUJIFILM", "Apple".
    public var cameraMake: String?
    /// The camera's model (EXIF `Model`), as written: "X100V", "iPhone 15 Pro".
    public var cameraModel: String?
    /// The lens (EXIF `LensModel`), as written.
    public var lens: String?
    /// Whether the file records where it was taken (a GPS latitude and longitude); the place itself is not kept.
    public var hasLocation = false
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
