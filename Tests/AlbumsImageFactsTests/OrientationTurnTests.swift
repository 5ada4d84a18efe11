import Testing

@testable import AlbumsImageFacts

/// The turn that takes a picture upright as one orientation says to
/// upright as another says, checked on a small raster of distinct values
/// against EXIF's own description of each orientation (where the stored
/// 0th row and 0th column are seen), written here apart from the algebra.
@Suite("Orientation turns")
struct OrientationTurnTests {
    typealias Raster = [[Int]]

    /// A 2×3 raster: every value distinct, no symmetry.
    let stored: Raster = [[1, 2, 3], [4, 5, 6]]

    /// The raster as seen, per EXIF's words for each orientation.
    func upright(_ r: Raster, _ orientation: PhotoOrientation) -> Raster {
        let (h, w) = (r.count, r[0].count)
        let swapped = orientation.swapsWidthAndHeight
        let (rows, columns) = swapped ? (w, h) : (h, w)
        return (0..<rows).map { y in
            (0..<columns).map { x in
                switch orientation {
                case .up: r[y][x]  // 0th row top, 0th column left
                case .upMirrored: r[y][w - 1 - x]  // 0th row top, 0th column right
                case .down: r[h - 1 - y][w - 1 - x]  // 0th row bottom, 0th column right
                case .downMirrored: r[h - 1 - y][x]  // 0th row bottom, 0th column left
                case .leftMirrored: r[x][y]  // 0th row left, 0th column top
                case .right: r[h - 1 - x][y]  // 0th row right, 0th column top
                case .rightMirrored: r[h - 1 - x][w - 1 - y]  // 0th row right, 0th column bottom
                case .left: r[x][w - 1 - y]  // 0th row left, 0th column bottom
                }
            }
        }
    }

    func mirrored(_ r: Raster) -> Raster { r.map { $0.reversed() } }

    /// A quarter turn clockwise.
    func turned(_ r: Raster) -> Raster {
        let (h, w) = (r.count, r[0].count)
        return (0..<w).map { y in (0..<h).map { x in r[h - 1 - x][y] } }
    }

    @Test("for every pair of orientations, mirroring then turning the picture seen one way shows it the other way")
    func everyPair() {
        for seen in PhotoOrientation.allCases {
            for shown in PhotoOrientation.allCases {
                let turn = shown.turn(from: seen)
                var picture = upright(stored, seen)
                if turn.mirrored { picture = mirrored(picture) }
                for _ in 0..<turn.quarterTurns { picture = turned(picture) }
                #expect(picture == upright(stored, shown), "from \(seen) to \(shown): \(turn)")
            }
        }
        #expect(PhotoOrientation.right.turn(from: .up) == (false, 1))
        #expect(PhotoOrientation.up.turn(from: .right) == (false, 3))
        #expect(PhotoOrientation.down.turn(from: .down) == (false, 0))
    }
}
