import Foundation

/// Whether an image's bytes reach the end its format marks, so that a file
/// cut short (a copy interrupted, a download stopped) fails rather than
/// entering the library with a good-looking header.
///
/// Each check walks structure only, never pixels, in one pass that always
/// advances. TIFF has no end marker (its strips may lie anywhere), so a
/// TIFF cut after its header is not caught.
enum ImageCompleteness {
    /// - Throws: ``ImageReadFailure/damaged(format:detail:)`` naming what is missing.
    static func require(_ bytes: ByteView, mediaType: String) throws(ImageReadFailure) {
        switch mediaType {
        case "image/jpeg": try jpeg(bytes)
        case "image/png": try png(bytes)
        case "image/gif":
            guard bytes.u8(bytes.count - 1) == 0x3B else { throw cutShort("GIF", "no trailer byte at its end") }
        case "image/webp":
            // The RIFF header gives the size of everything after its first 8 bytes.
            guard let size = bytes.u32(4, bigEndian: false), Int(size) + 8 <= bytes.count else {
                throw cutShort("WebP", "shorter than its RIFF header says")
            }
        case "image/heic", "image/heif", "image/avif": try isoBoxes(bytes, format: "HEIF")
        default: break
        }
    }

    private static func cutShort(_ format: String, _ detail: String) -> ImageReadFailure {
        .damaged(format: format, detail: "cut short: \(detail)")
    }

    /// Segments up to the first scan, then an end-of-image marker after it.
    /// Inside scan data every 0xFF byte is followed by 0x00 or a restart
    /// marker, so the first FF D9 there is the real end.
    private static func jpeg(_ bytes: ByteView) throws(ImageReadFailure) {
        guard let scan = JPEGHeader.segments(bytes).segments.last, scan.marker == 0xDA,
            let base = bytes.bytes.baseAddress
        else { throw cutShort("JPEG", "no image data") }
        // memchr finds each 0xFF at memory speed: this pass reads whole photos.
        var index = scan.end
        while index + 1 < bytes.count, let found = memchr(base + index, 0xFF, bytes.count - index - 1) {
            let position = base.distance(to: UnsafeRawPointer(found))
            if bytes.bytes[position + 1] == 0xD9 { return }
            index = position + 1
        }
        throw cutShort("JPEG", "no end-of-image marker")
    }

    /// Chunks, each inside the file, up to IEND.
    private static func png(_ bytes: ByteView) throws(ImageReadFailure) {
        var offset = 8
        while let length = bytes.u32(offset, bigEndian: true), let type = bytes.ascii(offset + 4, count: 4) {
            let end = offset + 12 + Int(length)
            guard end <= bytes.count else { throw cutShort("PNG", "the \(type) chunk at byte \(offset) runs past the end") }
            if type == "IEND" { return }
            offset = end
        }
        throw cutShort("PNG", "no IEND chunk")
    }

    /// Top-level boxes tile the file: the walk that stops at the first box
    /// not fitting must reach the end, and the image data (`mdat`) is among them.
    private static func isoBoxes(_ bytes: ByteView, format: String) throws(ImageReadFailure) {
        let boxes = HEIFHeader.BoxReader(bytes: bytes).boxes(from: 0, to: bytes.count)
        guard boxes.last?.end == bytes.count else { throw cutShort(format, "a box runs past the end") }
        guard boxes.contains(where: { $0.type == "mdat" }) else { throw cutShort(format, "no mdat box") }
    }
}
