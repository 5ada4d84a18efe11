import Foundation

/// GIF: the logical screen size follows the signature, little-endian; XMP,
/// if any, is in an application extension named "XMP DataXMP".
enum GIFHeader {
    static func read(_ bytes: ByteView) throws(ImageReadFailure) -> ImageFacts {
        guard let width = bytes.u16(6, bigEndian: false), let height = bytes.u16(8, bigEndian: false) else {
            throw .damaged(format: "GIF", detail: "the screen descriptor is cut short")
        }
        guard width > 0, height > 0 else { throw .damaged(format: "GIF", detail: "it declares \(width)×\(height) pixels") }
        var metadata = EmbeddedMetadata()
        if let packet = xmpPacket(bytes) { metadata.xmp = XMPFields.read(packet) }
        return metadata.facts(mediaType: "image/gif", width: Int(width), height: Int(height))
    }

    /// The XMP extension's text. Its bytes are not split into GIF's
    /// sub-blocks (a trailer of 258 bytes makes a decoder skip it), so the
    /// packet runs from the identifier to the trailer's first byte, 0x01.
    private static func xmpPacket(_ bytes: ByteView) -> ByteView? {
        let introducer: [UInt8] = [0x21, 0xFF, 0x0B] + Array("XMP DataXMP".utf8)
        guard let base = bytes.bytes.baseAddress else { return nil }
        var index = 13
        while index < bytes.count, let found = memchr(base + index, 0x21, bytes.count - index) {
            let position = base.distance(to: UnsafeRawPointer(found))
            if bytes.matches(introducer, at: position) {
                let start = position + introducer.count
                var end = start
                while let byte = bytes.u8(end), byte >= 0x09 { end += 1 }
                return bytes.slice(start, count: end - start)
            }
            index = position + 1
        }
        return nil
    }
}
