/// PNG: the IHDR chunk comes first and holds the pixel size; an eXIf chunk,
/// if any, holds EXIF.
enum PNGHeader {
    static func read(_ bytes: ByteView) throws(ImageReadFailure) -> ImageFacts {
        guard bytes.matches(Array("IHDR".utf8), at: 12), let width = bytes.u32(16, bigEndian: true),
            let height = bytes.u32(20, bigEndian: true)
        else { throw .damaged(format: "PNG", detail: "the IHDR chunk is missing or cut short") }
        guard width > 0, height > 0, width <= Int32.max, height <= Int32.max else {
            throw .damaged(format: "PNG", detail: "IHDR declares \(width)×\(height) pixels")
        }
        var facts = ImageFacts(mediaType: "image/png", pixelWidth: Int(width), pixelHeight: Int(height))
        // Walk the chunks for eXIf, stopping at the image data's end.
        var offset = 8
        for _ in 0..<10_000 {
            guard let length = bytes.u32(offset, bigEndian: true), let type = bytes.ascii(offset + 4, count: 4) else { break }
            if type == "eXIf" {
                facts.capturedAt = bytes.slice(offset + 8, count: Int(length)).flatMap(TIFFDirectory.read)?.capturedAt
                break
            }
            if type == "IEND" { break }
            offset += 12 + Int(length)
        }
        return facts
    }
}
