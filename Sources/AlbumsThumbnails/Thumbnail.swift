import Foundation

/// A photo made small: upright, sRGB, a JPEG whose longer side is ``longerSide``.
public struct Thumbnail: Sendable {
    /// The encoded image.
    public let jpeg: Data
    /// The length of its longer side, in pixels.
    public let longerSide: Int
    /// Whether it came from the disk cache rather than being made now.
    public let wasCached: Bool

    /// The media type of ``jpeg``.
    public var mediaType: String { "image/jpeg" }
}
