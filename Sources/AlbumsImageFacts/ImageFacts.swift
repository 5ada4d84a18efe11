import Foundation

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
    /// The words and marks the file carries (a title, a caption, a rating, keywords).
    public var words = ImageWords()
    /// The Live Photo content identifier (Apple's maker note): the motion
    /// beside the still carries the same one.
    public var contentIdentifier: String?

    /// The facts of a file whose XMP sidecar (`IMG_1.jpg.xmp` or `IMG_1.xmp`,
    /// as digiKam, darktable and Lightroom write them) holds `sidecar`:
    /// what the sidecar says is written on the photo wins, field by field,
    /// over what the file itself carries, as those programs read it.
    public func withSidecar(_ sidecar: Data) -> ImageFacts {
        var facts = self
        facts.words = ImageWords(xmp: sidecar).filled(from: words)
        return facts
    }
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
