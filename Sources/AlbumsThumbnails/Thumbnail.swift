import Foundation

/// A photo made small: upright, sRGB, a JPEG whose longer side is ``longerSide``.
package struct Thumbnail: Sendable {
    /// The encoded image.
    package let jpeg: Data
    /// The length of its longer side, in pixels.
    package let longerSide: Int
    /// Whether it came from the disk cache rather than being made now.
    package let wasCached: Bool

    /// The media type of ``jpeg``.
    package var mediaType: String { "image/jpeg" }
}
