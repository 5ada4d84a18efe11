import Foundation

/// Recognises an image from its bytes (never its file name) and reads its
/// header and metadata: JPEG, PNG, GIF, WebP, HEIC/HEIF (and AVIF), TIFF
/// (and BigTIFF).
///
/// Why these readers are ours rather than a C library's: the persistence
/// and transfer modules are embedded on iOS and macOS as well as Linux.
/// - libexif reads EXIF only, and only from JPEG: no pixel sizes, no PNG,
///   WebP or HEIF.
/// - exiv2 covers all of it, but is C++ (its C binding, gexiv2, brings
///   GLib) and is not on Apple platforms without vendoring it.
///
/// What is needed is small. Every format puts its size in a fixed header
/// field, and EXIF is a TIFF directory. So these readers walk the bytes
/// already in memory for hashing, with bounds checked on every read, and
/// with loops that always advance and are capped in count.
public enum ImageHeaderReader {
    /// The media type, pixel size, orientation and capture date of an image's bytes.
    ///
    /// - Throws: ``ImageReadFailure/notAnImage(detail:)`` for bytes of no
    ///   known image format, ``ImageReadFailure/damaged(format:detail:)``
    ///   for a known format whose header cannot be read.
    public static func read(_ data: Data) throws(ImageReadFailure) -> ImageFacts {
        let result = data.withUnsafeBytes { raw -> Result<ImageFacts, ImageReadFailure> in
            do throws(ImageReadFailure) {
                return .success(try read(ByteView(bytes: raw)))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    static func read(_ bytes: ByteView) throws(ImageReadFailure) -> ImageFacts {
        let facts = try readHeader(bytes)
        try ImageCompleteness.require(bytes, mediaType: facts.mediaType)
        return facts
    }

    private static func readHeader(_ bytes: ByteView) throws(ImageReadFailure) -> ImageFacts {
        if bytes.count == 0 { throw .notAnImage(detail: "the file is empty") }
        switch ImageSignature.of(bytes) {
        case .jpeg: return try JPEGHeader.read(bytes)
        case .png: return try PNGHeader.read(bytes)
        case .gif: return try GIFHeader.read(bytes)
        case .webp: return try WebPHeader.read(bytes)
        case .tiff: return try TIFFHeader.read(bytes)
        case .heif: if let facts = try HEIFHeader.read(bytes) { return facts }
        case nil: break
        }
        throw .notAnImage(detail: "its first bytes match no image format albums reads (JPEG, PNG, GIF, WebP, HEIC/HEIF/AVIF, TIFF/BigTIFF)")
    }
}
