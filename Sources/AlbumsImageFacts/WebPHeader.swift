/// WebP: a RIFF file of chunks. The size is in VP8X (extended), VP8
/// (lossy) or VP8L (lossless); EXIF is in an EXIF chunk, XMP in an "XMP " chunk.
enum WebPHeader {
    static func read(_ bytes: ByteView) throws(ImageReadFailure) -> ImageFacts {
        var facts = ImageFacts(mediaType: "image/webp")
        var metadata = EmbeddedMetadata()
        var offset = 12
        for _ in 0..<10_000 {
            guard let type = bytes.ascii(offset, count: 4), let length = bytes.u32(offset + 4, bigEndian: false) else { break }
            let body = offset + 8
            switch type {
            case "VP8X" where facts.pixelWidth == nil:
                guard let width = bytes.u24le(body + 4), let height = bytes.u24le(body + 7) else { break }
                facts.pixelWidth = Int(width) + 1
                facts.pixelHeight = Int(height) + 1
            case "VP8 " where facts.pixelWidth == nil:
                // Frame tag (3 bytes), start code 9D 01 2A, then 14-bit sizes.
                guard bytes.matches([0x9D, 0x01, 0x2A], at: body + 3), let width = bytes.u16(body + 6, bigEndian: false),
                    let height = bytes.u16(body + 8, bigEndian: false)
                else { throw .damaged(format: "WebP", detail: "the VP8 frame header is cut short or wrong") }
                facts.pixelWidth = Int(width & 0x3FFF)
                facts.pixelHeight = Int(height & 0x3FFF)
            case "VP8L" where facts.pixelWidth == nil:
                // Signature 0x2F, then width-1 and height-1 in 14 bits each, little-endian.
                guard bytes.u8(body) == 0x2F, let bits = bytes.u32(body + 1, bigEndian: false) else {
                    throw .damaged(format: "WebP", detail: "the VP8L header is cut short or wrong")
                }
                facts.pixelWidth = Int(bits & 0x3FFF) + 1
                facts.pixelHeight = Int((bits >> 14) & 0x3FFF) + 1
            case "EXIF" where metadata.exif == nil:
                // Some writers keep JPEG's "Exif\0\0" prefix.
                let start = bytes.matches(Array("Exif\0\0".utf8), at: body) ? body + 6 : body
                metadata.exif = bytes.slice(start, count: Int(length) - (start - body)).flatMap(TIFFDirectory.read)
            case "XMP ":
                if let packet = bytes.slice(body, count: Int(length)) { metadata.addXMP(XMPFields.read(packet)) }
            default:
                break
            }
            // Chunks are padded to an even length.
            offset = body + Int(length) + Int(length & 1)
        }
        guard let width = facts.pixelWidth, let height = facts.pixelHeight, width > 0, height > 0 else {
            throw .damaged(format: "WebP", detail: "no VP8, VP8L or VP8X chunk gives its size")
        }
        return metadata.facts(mediaType: facts.mediaType, width: width, height: height)
    }
}
