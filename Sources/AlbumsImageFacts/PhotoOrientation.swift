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

    /// How a picture made upright as `seen` says is turned to stand as this
    /// orientation says: mirrored left to right first (or not), then turned
    /// clockwise by quarter turns. A photo whose organizer turned it (in
    /// its catalog, not its file) is drawn from the file so.
    ///
    /// ```swift
    /// PhotoOrientation.right.turn(from: .up)    // (mirrored: false, quarterTurns: 1)
    /// PhotoOrientation.up.turn(from: .up)       // (mirrored: false, quarterTurns: 0)
    /// ```
    public func turn(from seen: PhotoOrientation) -> (mirrored: Bool, quarterTurns: Int) {
        // Each orientation as the matrix taking the stored raster's
        // coordinates (x right, y down) to the upright picture's.
        let wanted = matrix.times(seen.matrix.inverse)
        for mirrored in [false, true] {
            for quarterTurns in 0..<4 {
                var candidate = mirrored ? Matrix.mirror : Matrix.identity
                for _ in 0..<quarterTurns { candidate = Matrix.quarterTurn.times(candidate) }
                if candidate == wanted { return (mirrored, quarterTurns) }
            }
        }
        return (false, 0)  // unreachable: the eight orientations are a group
    }

    /// A 2×2 integer matrix, row by row.
    private struct Matrix: Equatable {
        let a, b, c, d: Int
        static let identity = Matrix(a: 1, b: 0, c: 0, d: 1)
        /// Left to right: x ↦ −x.
        static let mirror = Matrix(a: -1, b: 0, c: 0, d: 1)
        /// A quarter turn clockwise on a screen: right ↦ down.
        static let quarterTurn = Matrix(a: 0, b: -1, c: 1, d: 0)

        func times(_ other: Matrix) -> Matrix {
            Matrix(a: a * other.a + b * other.c, b: a * other.b + b * other.d, c: c * other.a + d * other.c, d: c * other.b + d * other.d)
        }

        /// These matrices are orthogonal: the inverse is the transpose.
        var inverse: Matrix { Matrix(a: a, b: c, c: b, d: d) }
    }

    private var matrix: Matrix {
        switch self {
        case .up: .identity
        case .upMirrored: .mirror
        case .down: Matrix(a: -1, b: 0, c: 0, d: -1)
        case .downMirrored: Matrix(a: 1, b: 0, c: 0, d: -1)
        case .leftMirrored: Matrix(a: 0, b: 1, c: 1, d: 0)  // the transpose
        case .right: .quarterTurn
        case .rightMirrored: Matrix(a: 0, b: -1, c: -1, d: 0)  // the transverse
        case .left: Matrix(a: 0, b: 1, c: -1, d: 0)
        }
    }

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
