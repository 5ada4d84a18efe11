import CVips
import Foundation

/// libvips, started once per process, turning image bytes into a thumbnail.
///
/// Why libvips: it decodes every format albums imports (HEIC and AVIF
/// through libheif), shrinks JPEGs while decoding them, and streams
/// images through small tiles, so a thumbnail of a 50-megapixel photo
/// takes a fraction of the time and memory ImageMagick needs.
enum VipsThumbnailer {
    /// Opened and started on first use, so that only a process that makes
    /// thumbnails loads libvips; nil once started, else why it could not.
    /// Each operation runs on one thread; the store runs several at once.
    static let startFailure: String? = albums_vips_start("albums", 1).map { String(cString: $0) }

    /// JPEG quality: thumbnails are looked at in a grid, not printed.
    static let quality: Int32 = 82

    /// Decodes `bytes` and makes the JPEG thumbnail, upright as the file
    /// says, then turned by `turn`; blocks while it works.
    static func makeJPEG(from bytes: Data, longerSide: Int, turn: (mirrored: Bool, quarterTurns: Int) = (false, 0)) -> Result<Data, VipsFailure> {
        if let startFailure { return .failure(.unavailable(detail: startFailure)) }
        var result = albums_vips_thumbnail_t()
        let status = bytes.withUnsafeBytes { raw in
            albums_vips_thumbnail(raw.baseAddress, raw.count, Int32(longerSide), quality, turn.mirrored ? 1 : 0, Int32(turn.quarterTurns), &result)
        }
        defer { albums_vips_release(&result) }
        guard status == 0, let encoded = result.bytes else {
            let detail = result.error.map { String(cString: $0) } ?? "libvips failed"
            return .failure(.undecodable(detail: detail.split(separator: "\n").first.map(String.init) ?? detail))
        }
        return .success(Data(bytes: encoded, count: result.length))
    }
}

enum VipsFailure: Error {
    /// libvips cannot be loaded or started: no thumbnail can be made.
    case unavailable(detail: String)
    /// libvips could not decode these bytes.
    case undecodable(detail: String)
}
