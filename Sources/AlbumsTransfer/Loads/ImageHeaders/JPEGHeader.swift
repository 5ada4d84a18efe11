/// JPEG: markers from SOI; the pixel size is in the first SOF segment, the
/// capture date in an APP1 "Exif" segment before it.
enum JPEGHeader {
    static func read(_ bytes: ByteView) throws(ImageReadFailure) -> ImageFacts {
        var facts = ImageFacts(mediaType: "image/jpeg")
        var offset = 2
        while true {
            // Markers may be preceded by fill bytes (0xFF).
            while bytes.u8(offset) == 0xFF && bytes.u8(offset + 1) == 0xFF { offset += 1 }
            guard bytes.u8(offset) == 0xFF, let marker = bytes.u8(offset + 1) else {
                throw .damaged(format: "JPEG", detail: "no frame header before byte \(offset)")
            }
            if marker == 0xD9 || marker == 0xDA {
                throw .damaged(format: "JPEG", detail: "image data starts before any frame header")
            }
            if marker == 0x01 || (0xD0...0xD7).contains(marker) {
                offset += 2  // markers without a length
                continue
            }
            guard let length = bytes.u16(offset + 2, bigEndian: true), length >= 2 else {
                throw .damaged(format: "JPEG", detail: "segment at byte \(offset) is cut short")
            }
            let body = offset + 4
            switch marker {
            case 0xE1 where facts.capturedAt == nil && bytes.matches(Array("Exif\0\0".utf8), at: body):
                facts.capturedAt = bytes.slice(body + 6, count: Int(length) - 8).flatMap(TIFFDirectory.read)?.capturedAt
            case 0xC0...0xCF where marker != 0xC4 && marker != 0xC8 && marker != 0xCC:
                guard let height = bytes.u16(body + 1, bigEndian: true), let width = bytes.u16(body + 3, bigEndian: true) else {
                    throw .damaged(format: "JPEG", detail: "frame header is cut short")
                }
                guard width > 0 && height > 0 else {
                    throw .damaged(format: "JPEG", detail: "frame header declares \(width)×\(height) pixels")
                }
                facts.pixelWidth = Int(width)
                facts.pixelHeight = Int(height)
                return facts
            default:
                break
            }
            offset = body + Int(length) - 2
        }
    }
}
