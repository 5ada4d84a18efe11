import CVips
import Foundation

/// libvips, started once per process, turning image bytes into a thumbnail.
///
/// Why libvips: it decodes every format albums imports (HEIC and AVIF
/// through libheif), shrinks JPEGs while decoding them, and streams
/// images through small tiles, so a thumbnail of a 50-megapixel photo
/// takes a fraction of the time and memory ImageMagick needs.
enum VipsThumbnailer {
    /// Started on first use; each operation runs on one thread, and the
    /// store runs several operations at once.
    private static let isStarted: Bool = albums_vips_start("albums", 1) == 0

    /// JPEG quality: thumbnails are looked at in a grid, not printed.
    static let quality: Int32 = 82

    /// Decodes `bytes` and makes the JPEG thumbnail; blocks while it works.
    static func makeJPEG(from bytes: Data, longerSide: Int) -> Result<Data, VipsFailure> {
        guard isStarted else { return .failure(VipsFailure(detail: "libvips could not start")) }
        var result = albums_vips_thumbnail_t()
        let status = bytes.withUnsafeBytes { raw in
            albums_vips_thumbnail(raw.baseAddress, raw.count, Int32(longerSide), quality, &result)
        }
        defer { albums_vips_release(&result) }
        guard status == 0, let encoded = result.bytes else {
            let detail = result.error.map { String(cString: $0) } ?? "libvips failed"
            return .failure(VipsFailure(detail: detail.split(separator: "\n").first.map(String.init) ?? detail))
        }
        return .success(Data(bytes: encoded, count: result.length))
    }
}

struct VipsFailure: Error {
    let detail: String
}
