import Foundation

/// The image format a file's first bytes announce, before its header is
/// read: with ``MediaKind``, which reads those bytes from a file, what
/// tells a folder of photos from a folder of other files without reading
/// whole files.
public enum ImageSignature: String, Hashable, Sendable {
    /// JPEG: `FF D8 FF`.
    case jpeg
    /// PNG: its eight-byte signature.
    case png
    /// GIF87a or GIF89a.
    case gif
    /// WebP: a RIFF file of form `WEBP`.
    case webp
    /// TIFF or BigTIFF, in either byte order.
    case tiff
    /// HEIF, HEIC or AVIF: an `ftyp` box first, naming an image brand.
    case heif

    /// How many leading bytes ``init(prefix:)`` looks at: enough for an
    /// `ftyp` box's major brand and its first compatible brands.
    public static let length = 32

    /// The `ftyp` brands of a still image (HEIF's, HEIC's, AVIF's). An MP4,
    /// a QuickTime movie, a 3GP clip or a Canon CR3 raw file has an `ftyp`
    /// box too, with brands of its own (`isom`, `qt  `, `3gp4`, `crx `): it
    /// is no photo, and is never listed or loaded as one.
    static let imageBrands: Set<String> = ["heic", "heix", "hevc", "hevx", "heim", "heis", "avif", "avis", "mif1", "msf1"]

    /// The format `prefix` (a file's first ``length`` bytes or fewer) announces; nil for none.
    public init?(prefix: Data) {
        let signature: ImageSignature? = prefix.withUnsafeBytes { raw in Self.of(ByteView(bytes: raw)) }
        guard let signature else { return nil }
        self = signature
    }

    /// The format `bytes` announce; HEIF by its `ftyp` box's image brands
    /// (its header reader reads them all).
    static func of(_ bytes: ByteView) -> ImageSignature? {
        if bytes.matches([0xFF, 0xD8, 0xFF], at: 0) { return .jpeg }
        if bytes.matches([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], at: 0) { return .png }
        if bytes.matches(Array("GIF87a".utf8), at: 0) || bytes.matches(Array("GIF89a".utf8), at: 0) { return .gif }
        if bytes.matches(Array("RIFF".utf8), at: 0) && bytes.matches(Array("WEBP".utf8), at: 8) { return .webp }
        // Classic TIFF (42) and BigTIFF (43), in either byte order.
        if bytes.matches(Array("II*\0".utf8), at: 0) || bytes.matches([0x4D, 0x4D, 0x00, 0x2A], at: 0)
            || bytes.matches(Array("II+\0".utf8), at: 0) || bytes.matches([0x4D, 0x4D, 0x00, 0x2B], at: 0)
        {
            return .tiff
        }
        if bytes.matches(Array("ftyp".utf8), at: 4) {
            // The major brand at 8, then (after the minor version) compatible brands, within the box.
            let boxEnd = min(Int(bytes.u32(0, bigEndian: true) ?? 0), length)
            let brands = [8] + stride(from: 16, to: boxEnd - 3, by: 4)
            return brands.contains { offset in bytes.ascii(offset, count: 4).map(imageBrands.contains) == true } ? .heif : nil
        }
        return nil
    }
}
