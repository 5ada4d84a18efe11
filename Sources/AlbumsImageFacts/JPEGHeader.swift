/// JPEG: markers from SOI; the pixel size is in the first SOF segment,
/// EXIF and XMP in APP1 segments before the first scan.
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

    private static let exifSignature = Array("Exif\0\0".utf8)
    private static let xmpSignature = Array("http://ns.adobe.com/xap/1.0/\0".utf8)
    private static let extendedXMPSignature = Array("http://ns.adobe.com/xmp/extension/\0".utf8)
    private static let photoshopSignature = Array("Photoshop 3.0\0".utf8)

    static func read(_ bytes: ByteView) throws(ImageReadFailure) -> ImageFacts {
        var metadata = EmbeddedMetadata()
        var extendedXMP: [ExtendedXMPChunk] = []
        let (segments, stoppedAt) = segments(bytes)
        for segment in segments {
            switch segment.marker {
            case 0xD9, 0xDA:
                throw .damaged(format: "JPEG", detail: "image data starts before any frame header")
            case 0xE1:
                guard let body = bytes.slice(segment.body, count: segment.length - 2) else { break }
                if metadata.exif == nil && body.matches(exifSignature, at: 0) {
                    metadata.exif = body.slice(exifSignature.count, count: body.count).flatMap(TIFFDirectory.read)
                } else if body.matches(xmpSignature, at: 0), let packet = body.slice(xmpSignature.count, count: body.count) {
                    metadata.addXMP(XMPFields.read(packet))
                } else if body.matches(extendedXMPSignature, at: 0), let chunk = ExtendedXMPChunk(body, after: extendedXMPSignature.count) {
                    extendedXMP.append(chunk)
                }
            case 0xED where metadata.iptc == nil:
                guard let body = bytes.slice(segment.body, count: segment.length - 2), body.matches(photoshopSignature, at: 0),
                    let resources = body.slice(photoshopSignature.count, count: body.count)
                else { break }
                metadata.iptc = IPTCRecords.iimBlock(inPhotoshopResources: resources).flatMap(IPTCRecords.words)
            case 0xC0...0xCF where segment.marker != 0xC4 && segment.marker != 0xC8 && segment.marker != 0xCC:
                guard let height = bytes.u16(segment.body + 1, bigEndian: true), let width = bytes.u16(segment.body + 3, bigEndian: true) else {
                    throw .damaged(format: "JPEG", detail: "frame header is cut short")
                }
                guard width > 0 && height > 0 else {
                    throw .damaged(format: "JPEG", detail: "frame header declares \(width)×\(height) pixels")
                }
                // Metadata segments come before the frame header (JFIF, EXIF and XMP all say so).
                if let guid = metadata.xmp?.extendedXMPGUID, let fields = ExtendedXMPChunk.assemble(extendedXMP, guid: guid, limit: bytes.count) {
                    metadata.xmp?.fillGaps(from: fields)
                }
                return metadata.facts(mediaType: "image/jpeg", width: Int(width), height: Int(height))
            default:
                break
            }
        }
        throw .damaged(format: "JPEG", detail: "no frame header before byte \(stoppedAt)")
    }

    /// One part of an XMP packet too large for one segment: the packet's
    /// GUID, its full length, and this part's offset in it.
    struct ExtendedXMPChunk {
        let guid: String
        let fullLength: Int
        let offset: Int
        let data: ByteView

        init?(_ body: ByteView, after signature: Int) {
            guard let guid = body.ascii(signature, count: 32), let fullLength = body.u32(signature + 32, bigEndian: true),
                let offset = body.u32(signature + 36, bigEndian: true), let data = body.slice(signature + 40, count: body.count)
            else { return nil }
            self.guid = guid
            self.fullLength = Int(fullLength)
            self.offset = Int(offset)
            self.data = data
        }

        /// The fields of the packet whose parts carry `guid`, laid out at their
        /// offsets; nil if it claims more bytes than `limit` (the file's size).
        static func assemble(_ chunks: [ExtendedXMPChunk], guid: String, limit: Int) -> XMPFields? {
            let parts = chunks.filter { $0.guid == guid }
            guard let length = parts.first?.fullLength, length <= limit else { return nil }
            var packet = [UInt8](repeating: 0x20, count: length)
            for part in parts where part.fullLength == length && part.offset <= length {
                let count = min(part.data.count, length - part.offset)
                for index in 0..<count { packet[part.offset + index] = part.data.bytes[index] }
            }
            return packet.withUnsafeBytes { XMPFields.read(ByteView(bytes: $0)) }
        }
    }
}
