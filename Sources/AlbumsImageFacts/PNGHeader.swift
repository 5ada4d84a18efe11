/// PNG: the IHDR chunk comes first and holds the pixel size; an eXIf chunk
/// holds EXIF, an iTXt chunk named "XML:com.adobe.xmp" holds XMP.
enum PNGHeader {
    static func read(_ bytes: ByteView) throws(ImageReadFailure) -> ImageFacts {
        guard bytes.matches(Array("IHDR".utf8), at: 12), let width = bytes.u32(16, bigEndian: true),
            let height = bytes.u32(20, bigEndian: true)
        else { throw .damaged(format: "PNG", detail: "the IHDR chunk is missing or cut short") }
        guard width > 0, height > 0, width <= Int32.max, height <= Int32.max else {
            throw .damaged(format: "PNG", detail: "IHDR declares \(width)×\(height) pixels")
        }
        var metadata = EmbeddedMetadata()
        // Walk the chunks to the image's end; each step advances.
        var offset = 8
        for _ in 0..<100_000 {
            guard let length = bytes.u32(offset, bigEndian: true), let type = bytes.ascii(offset + 4, count: 4),
                let body = bytes.slice(offset + 8, count: Int(length))
            else { break }
            switch type {
            case "eXIf" where metadata.exif == nil:
                metadata.exif = TIFFDirectory.read(body)
            case "iTXt":
                if let packet = xmpPacket(inInternationalText: body) { metadata.addXMP(XMPFields.read(packet)) }
            case "IEND":
                return metadata.facts(mediaType: "image/png", width: Int(width), height: Int(height))
            default:
                break
            }
            offset += 12 + Int(length)
        }
        return metadata.facts(mediaType: "image/png", width: Int(width), height: Int(height))
    }

    /// The text of an iTXt chunk whose keyword is XMP's, when stored
    /// uncompressed (as XMP's specification asks).
    private static func xmpPacket(inInternationalText body: ByteView) -> ByteView? {
        let keyword = Array("XML:com.adobe.xmp\0".utf8)
        // keyword, compression flag and method, then a language tag and a translated keyword, each NUL-ended.
        guard body.matches(keyword, at: 0), body.u8(keyword.count) == 0 else { return nil }
        var offset = keyword.count + 2
        for _ in 0..<2 {
            while let byte = body.u8(offset), byte != 0 { offset += 1 }
            offset += 1
        }
        return body.slice(offset, count: body.count)
    }
}
