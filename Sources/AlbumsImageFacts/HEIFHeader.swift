

/// HEIF (HEIC, AVIF): an ISO base media file. The `ftyp` brands say which
/// kind; the primary item's `ispe` property gives the size and its `irot`
/// and `imir` properties the orientation; an item of type `Exif`, located
/// by `iloc`, holds EXIF, and a `mime` item of type application/rdf+xml XMP.
enum HEIFHeader {
    /// The facts, or nil when the brands are not an image format (an MP4 video, say).
    static func read(_ bytes: ByteView) throws(ImageReadFailure) -> ImageFacts? {
        guard let mediaType = mediaType(bytes) else { return nil }
        var facts = ImageFacts(mediaType: mediaType)
        var metadata = EmbeddedMetadata()
        let file = BoxReader(bytes: bytes)
        guard let meta = file.boxes(from: 0, to: bytes.count).first(where: { $0.type == "meta" }) else {
            throw .damaged(format: "HEIF", detail: "no meta box")
        }
        let children = file.boxes(from: meta.body + 4, to: meta.end)  // meta is a full box
        func child(_ type: String) -> Box? { children.first { $0.type == type } }

        let primary = child("pitm").flatMap { box -> UInt32? in
            bytes.u8(box.body) == 0 ? bytes.u16(box.body + 4, bigEndian: true).map(UInt32.init) : bytes.u32(box.body + 4, bigEndian: true)
        }
        if let iprp = child("iprp") {
            let properties = file.boxes(from: iprp.body, to: iprp.end)
            let ipco = properties.first { $0.type == "ipco" }
            let sizes: [Int: (Int, Int)] = Dictionary(
                uniqueKeysWithValues: (ipco.map { file.boxes(from: $0.body, to: $0.end) } ?? []).enumerated().compactMap { index, box in
                    guard box.type == "ispe", let width = bytes.u32(box.body + 4, bigEndian: true),
                        let height = bytes.u32(box.body + 8, bigEndian: true)
                    else { return nil }
                    return (index + 1, (Int(width), Int(height)))
                })
            let associated = primary.flatMap { id in properties.first { $0.type == "ipma" }.flatMap { file.associations(of: id, in: $0) } }
            let propertyBoxes = ipco.map { file.boxes(from: $0.body, to: $0.end) } ?? []
            metadata.heifOrientation = associated.flatMap { orientation(of: $0, in: propertyBoxes, bytes: bytes) }
            // Areas in UInt64: two 32-bit sides overflow Int.
            let size = associated?.compactMap { sizes[$0] }.first ?? sizes.values.max { UInt64($0.0) * UInt64($0.1) < UInt64($1.0) * UInt64($1.1) }
            if let (width, height) = size, width > 0, height > 0 {
                facts.pixelWidth = width
                facts.pixelHeight = height
            }
        }
        let items = child("iinf").map(file.itemTypes) ?? []
        func location(of id: UInt32) -> (offset: Int, length: Int)? { child("iloc").flatMap { file.location(of: id, in: $0) } }
        if let exif = items.first(where: { $0.type == "Exif" }), let location = location(of: exif.id),
            let headerOffset = bytes.u32(location.offset, bigEndian: true)
        {
            // location.offset was read by u32 above, so it lies inside the file: no overflow.
            let start = location.offset + 4 + Int(headerOffset)
            metadata.exif = bytes.slice(start, count: location.length - 4 - Int(headerOffset)).flatMap(TIFFDirectory.read)
        }
        if let xmp = items.first(where: { $0.type == "mime" && $0.contentType == "application/rdf+xml" }), let location = location(of: xmp.id),
            let packet = bytes.slice(location.offset, count: location.length)
        {
            metadata.xmp = XMPFields.read(packet)
        }
        guard let width = facts.pixelWidth, let height = facts.pixelHeight else { throw .damaged(format: "HEIF", detail: "no image size (ispe) property") }
        return metadata.facts(mediaType: facts.mediaType, width: width, height: height)
    }

    /// The orientation the primary image's transforms (`irot`, `imir`, in
    /// the order associated) give, as EXIF's numbers; nil when it has none.
    private static func orientation(of associated: [Int], in properties: [Box], bytes: ByteView) -> PhotoOrientation? {
        var transform: OrientationMatrix?
        for index in associated where index >= 1 && index <= properties.count {
            let box = properties[index - 1]
            guard let value = bytes.u8(box.body) else { continue }
            let step: OrientationMatrix
            switch box.type {
            // irot: anticlockwise quarter turns.
            case "irot": step = OrientationMatrix.quarterTurnsAnticlockwise(Int(value & 0x03))
            // imir: axis 0 is vertical (left and right swap), 1 horizontal (top and bottom swap).
            case "imir": step = value & 0x01 == 0 ? .mirrorLeftRight : .mirrorTopBottom
            default: continue
            }
            transform = step.after(transform ?? .identity)
        }
        return transform.map(\.orientation)
    }

    /// A turn or mirror of the raster as a 2×2 matrix on pixel coordinates
    /// (x right, y down), to compose HEIF's transforms into one of EXIF's eight.
    struct OrientationMatrix: Equatable {
        let a, b, c, d: Int

        static let identity = OrientationMatrix(a: 1, b: 0, c: 0, d: 1)
        static let mirrorLeftRight = OrientationMatrix(a: -1, b: 0, c: 0, d: 1)
        static let mirrorTopBottom = OrientationMatrix(a: 1, b: 0, c: 0, d: -1)
        static let quarterTurnClockwise = OrientationMatrix(a: 0, b: -1, c: 1, d: 0)

        static func quarterTurnsAnticlockwise(_ count: Int) -> OrientationMatrix {
            (0..<((4 - count % 4) % 4)).reduce(identity) { turn, _ in quarterTurnClockwise.after(turn) }
        }

        /// This transform applied after `first`.
        func after(_ first: OrientationMatrix) -> OrientationMatrix {
            OrientationMatrix(
                a: a * first.a + b * first.c, b: a * first.b + b * first.d,
                c: c * first.a + d * first.c, d: c * first.b + d * first.d)
        }

        /// EXIF's number for the same transform (each of the eight is one of these).
        var orientation: PhotoOrientation {
            let cw = Self.quarterTurnClockwise
            let table: [(OrientationMatrix, PhotoOrientation)] = [
                (.identity, .up), (.mirrorLeftRight, .upMirrored), (cw.after(cw), .down), (.mirrorTopBottom, .downMirrored),
                (cw.after(cw).after(cw).after(.mirrorLeftRight), .leftMirrored), (cw, .right),
                (cw.after(.mirrorLeftRight), .rightMirrored), (cw.after(cw).after(cw), .left),
            ]
            return table.first { $0.0 == self }?.1 ?? .up
        }
    }

    private static func mediaType(_ bytes: ByteView) -> String? {
        guard let size = bytes.u32(0, bigEndian: true), size >= 16, size <= 4096 else { return nil }
        var brands = [bytes.ascii(8, count: 4)]
        var offset = 16
        while offset + 4 <= Int(size) {
            brands.append(bytes.ascii(offset, count: 4))
            offset += 4
        }
        let set = Set(brands.compactMap { $0 })
        if !set.isDisjoint(with: ["heic", "heix", "hevc", "hevx", "heim", "heis"]) { return "image/heic" }
        if !set.isDisjoint(with: ["avif", "avis"]) { return "image/avif" }
        if !set.isDisjoint(with: ["mif1", "msf1"]) { return "image/heif" }
        return nil
    }

    struct Box {
        let type: String
        /// Where the box's content starts (after its header).
        let body: Int
        let end: Int
    }

    struct BoxReader {
        let bytes: ByteView

        /// The boxes laid end to end from `start` to `end`; stops at the first
        /// that does not fit. A lying parent can make `start` pass `end`: no boxes.
        func boxes(from start: Int, to end: Int) -> [Box] {
            var boxes: [Box] = []
            var offset = start
            while offset + 8 <= end, boxes.count < 4096 {
                guard let size32 = bytes.u32(offset, bigEndian: true), let type = bytes.ascii(offset + 4, count: 4) else { break }
                var body = offset + 8
                var size = Int(size32)
                if size32 == 1 {
                    guard let large = bytes.u64be(offset + 8), large <= UInt64(Int.max) else { break }
                    size = Int(large)
                    body += 8
                } else if size32 == 0 {
                    size = end - offset
                }
                // Compared as a difference: a 64-bit size near Int.max must not overflow.
                guard size >= body - offset, size <= end - offset else { break }
                boxes.append(Box(type: type, body: body, end: offset + size))
                offset += size
            }
            return boxes
        }

        /// The property indexes (1-based) an `ipma` box associates with `item`.
        func associations(of item: UInt32, in ipma: Box) -> [Int]? {
            guard let version = bytes.u8(ipma.body), let flags = bytes.u8(ipma.body + 3),
                let count = bytes.u32(ipma.body + 4, bigEndian: true)
            else { return nil }
            var offset = ipma.body + 8
            for _ in 0..<min(Int(count), 65_536) {
                let id = version < 1 ? bytes.u16(offset, bigEndian: true).map(UInt32.init) : bytes.u32(offset, bigEndian: true)
                offset += version < 1 ? 2 : 4
                guard let id, let associationCount = bytes.u8(offset) else { return nil }
                offset += 1
                var indexes: [Int] = []
                for _ in 0..<Int(associationCount) {
                    if flags & 1 == 1 {
                        guard let value = bytes.u16(offset, bigEndian: true) else { return nil }
                        indexes.append(Int(value & 0x7FFF))
                        offset += 2
                    } else {
                        guard let value = bytes.u8(offset) else { return nil }
                        indexes.append(Int(value & 0x7F))
                        offset += 1
                    }
                }
                if id == item { return indexes }
            }
            return nil
        }

        /// An item an `iinf` box lists: its id, type and, for `mime` items, content type.
        struct ItemInfo {
            let id: UInt32
            let type: String
            let contentType: String?
        }

        /// The items an `iinf` box lists (entries of version 2 and 3).
        func itemTypes(in iinf: Box) -> [ItemInfo] {
            guard let version = bytes.u8(iinf.body) else { return [] }
            let entriesStart = iinf.body + 4 + (version == 0 ? 2 : 4)
            var items: [ItemInfo] = []
            for infe in boxes(from: entriesStart, to: iinf.end) where infe.type == "infe" {
                guard let infeVersion = bytes.u8(infe.body), infeVersion >= 2 else { continue }
                let id = infeVersion == 2 ? bytes.u16(infe.body + 4, bigEndian: true).map(UInt32.init) : bytes.u32(infe.body + 4, bigEndian: true)
                let typeOffset = infe.body + 4 + (infeVersion == 2 ? 2 : 4) + 2
                guard let id, let type = bytes.ascii(typeOffset, count: 4) else { continue }
                var contentType: String?
                if type == "mime" {
                    // item_name, then content_type, each NUL-ended.
                    var offset = typeOffset + 4
                    while offset < infe.end, bytes.u8(offset) != 0 { offset += 1 }
                    let start = offset + 1
                    var end = start
                    while end < infe.end, let byte = bytes.u8(end), byte != 0 { end += 1 }
                    contentType = bytes.ascii(start, count: end - start)
                }
                items.append(ItemInfo(id: id, type: type, contentType: contentType))
            }
            return items
        }

        /// Where an item's first extent lies in the file, from an `iloc` box.
        func location(of item: UInt32, in iloc: Box) -> (offset: Int, length: Int)? {
            guard let version = bytes.u8(iloc.body), let sizes = bytes.u8(iloc.body + 4), let sizes2 = bytes.u8(iloc.body + 5) else { return nil }
            let offsetSize = Int(sizes >> 4), lengthSize = Int(sizes & 0xF), baseOffsetSize = Int(sizes2 >> 4)
            let indexSize = version == 1 || version == 2 ? Int(sizes2 & 0xF) : 0
            var offset = iloc.body + 6
            let count = version < 2 ? bytes.u16(offset, bigEndian: true).map(Int.init) : bytes.u32(offset, bigEndian: true).map(Int.init)
            offset += version < 2 ? 2 : 4
            func number(size: Int) -> Int? {
                defer { offset += size }
                switch size {
                case 0: return 0
                case 4: return bytes.u32(offset, bigEndian: true).map(Int.init)
                case 8: return bytes.u64be(offset).flatMap { $0 <= UInt64(Int.max) ? Int($0) : nil }
                default: return nil
                }
            }
            for _ in 0..<min(count ?? 0, 65_536) {
                let id = version < 2 ? bytes.u16(offset, bigEndian: true).map(UInt32.init) : bytes.u32(offset, bigEndian: true)
                offset += version < 2 ? 2 : 4
                if version == 1 || version == 2 { offset += 2 }  // construction method
                offset += 2  // data reference index
                guard let id, let base = number(size: baseOffsetSize), let extents = bytes.u16(offset, bigEndian: true) else { return nil }
                offset += 2
                var first: (Int, Int)?
                for _ in 0..<Int(extents) {
                    offset += indexSize
                    guard let extentOffset = number(size: offsetSize), let extentLength = number(size: lengthSize) else { return nil }
                    let (start, overflow) = base.addingReportingOverflow(extentOffset)
                    if overflow { return nil }
                    if first == nil { first = (start, extentLength) }
                }
                if id == item { return first }
            }
            return nil
        }
    }
}
