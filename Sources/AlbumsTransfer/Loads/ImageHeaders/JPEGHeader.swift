/// JPEG: markers from SOI; the pixel size is in the first SOF segment, the
/// capture date in an APP1 "Exif" segment before it.
enum JPEGHeader {
    /// One marker segment: its marker byte, the offset of its 0xFF, and
    /// where the next marker starts.
    struct Segment {
        let marker: UInt8
        let offset: Int
        let end: Int

        var body: Int { offset + 4 }
        /// The length the segment declares, its two length bytes included.
        var length: Int { end - offset - 2 }
    }

    /// The marker segments from SOI, up to and including the first start
    /// of scan (SOS) or end of image (EOI), which end at their marker. The
    /// walk stops early, at the offset it returns, where the bytes are not a
    /// segment; every step advances, so it is bounded by the file.
    static func segments(_ bytes: ByteView) -> (segments: [Segment], stoppedAt: Int) {
        var segments: [Segment] = []
        var offset = 2
        while true {
            // Markers may be preceded by fill bytes (0xFF).
            while bytes.u8(offset) == 0xFF && bytes.u8(offset + 1) == 0xFF { offset += 1 }
            guard bytes.u8(offset) == 0xFF, let marker = bytes.u8(offset + 1) else { return (segments, offset) }
            if marker == 0xD9 || marker == 0xDA {
                segments.append(Segment(marker: marker, offset: offset, end: offset + 2))
                return (segments, offset)
            }
            if marker == 0x01 || (0xD0...0xD7).contains(marker) {
                offset += 2  // markers without a length
                continue
            }
            guard let length = bytes.u16(offset + 2, bigEndian: true), length >= 2 else { return (segments, offset) }
            segments.append(Segment(marker: marker, offset: offset, end: offset + 2 + Int(length)))
            offset += 2 + Int(length)
        }
    }

    static func read(_ bytes: ByteView) throws(ImageReadFailure) -> ImageFacts {
        var facts = ImageFacts(mediaType: "image/jpeg")
        let (segments, stoppedAt) = segments(bytes)
        for segment in segments {
            switch segment.marker {
            case 0xD9, 0xDA:
                throw .damaged(format: "JPEG", detail: "image data starts before any frame header")
            case 0xE1 where facts.capturedAt == nil && bytes.matches(Array("Exif\0\0".utf8), at: segment.body):
                facts.capturedAt = bytes.slice(segment.body + 6, count: segment.length - 8).flatMap(TIFFDirectory.read)?.capturedAt
            case 0xC0...0xCF where segment.marker != 0xC4 && segment.marker != 0xC8 && segment.marker != 0xCC:
                guard let height = bytes.u16(segment.body + 1, bigEndian: true), let width = bytes.u16(segment.body + 3, bigEndian: true) else {
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
        }
        throw .damaged(format: "JPEG", detail: "no frame header before byte \(stoppedAt)")
    }
}
