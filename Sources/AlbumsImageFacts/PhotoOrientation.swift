/// How a photo's stored pixels are turned to be seen upright: the eight
/// values of EXIF's `Orientation` tag, by their numbers.
///
/// The stored raster is ``PhotoContent/pixelWidth`` by
/// ``PhotoContent/pixelHeight``; a viewer rotates or mirrors it as the
/// orientation says. Orientations 5–8 turn it a quarter, so the photo is
/// seen with width and height swapped.
public enum PhotoOrientation: Int, Hashable, Sendable, CaseIterable, Codable {
    /// Stored upright (EXIF 1, also when a file says nothing).
    case up = 1
    /// Mirrored left to right (EXIF 2).
    case upMirrored = 2
    /// Upside down: turn 180° (EXIF 3).
    case down = 3
    /// Mirrored top to bottom (EXIF 4).
    case downMirrored = 4
    /// Mirrored left to right, then turned 90° anticlockwise (EXIF 5).
    case leftMirrored = 5
    /// Turn 90° clockwise to see it upright (EXIF 6: a portrait taken with the camera turned right).
    case right = 6
    /// Mirrored left to right, then turned 90° clockwise (EXIF 7).
    case rightMirrored = 7
    /// Turn 90° anticlockwise to see it upright (EXIF 8).
    case left = 8

    /// The orientation a library row holds; the schema allows only 1–8.
    package init(storedValue: Int?) {
        self = storedValue.flatMap(PhotoOrientation.init(rawValue:)) ?? .up
    }

    /// Whether the photo is seen with its stored width and height swapped.
    public var swapsWidthAndHeight: Bool { rawValue >= 5 }

    /// How a person would say it: "upright", "turned 90° clockwise", …
    public var summary: String {
        switch self {
        case .up: "upright"
        case .upMirrored: "mirrored left to right"
        case .down: "turned 180°"
        case .downMirrored: "mirrored top to bottom"
        case .leftMirrored: "mirrored, turned 90° anticlockwise"
        case .right: "turned 90° clockwise"
        case .rightMirrored: "mirrored, turned 90° clockwise"
        case .left: "turned 90° anticlockwise"
        }
    }
}
