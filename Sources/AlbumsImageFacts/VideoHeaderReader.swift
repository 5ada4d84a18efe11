import Foundation

/// Reads ``VideoFacts`` from a video's container, seeking through its
/// structure rather than reading it whole: a movie's index (`moov`) may
/// stand at its end, gigabytes in. Every size and count comes from the
/// file and is checked before it is used, so a crafted or truncated file
/// fails or yields fewer facts, never a trap.
///
/// ```swift
/// let facts = try VideoHeaderReader.read(fileAt: "/media/ana/DCIM/IMG_0042.MOV")
/// print(facts.mediaType, facts.duration ?? 0)  // video/quicktime 12.4
/// ```
public enum VideoHeaderReader {
    /// Reads the video at `path`.
    ///
    /// - Throws: ``VideoReadFailure``.
    public static func read(fileAt path: String) throws(VideoReadFailure) -> VideoFacts {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw .unreadable(detail: "cannot open \(path)") }
        defer { try? handle.close() }
        guard let end = try? handle.seekToEnd() else { throw .unreadable(detail: "cannot read \(path)") }
        return try read(FileBytes(handle: handle, length: end))
    }

    /// Reads a video held in memory.
    ///
    /// - Throws: ``VideoReadFailure``.
    public static func read(_ data: Data) throws(VideoReadFailure) -> VideoFacts {
        try read(MemoryBytes(data: data))
    }

    static func read(_ bytes: some RandomAccessBytes) throws(VideoReadFailure) -> VideoFacts {
        let prefix = bytes.read(at: 0, count: 16) ?? Data()
        func matches(_ expected: [UInt8], at offset: Int) -> Bool {
            prefix.count >= offset + expected.count && Array(prefix[offset..<offset + expected.count]) == expected
        }
        if matches(Array("ftyp".utf8), at: 4) { return try IsoMedia(bytes: bytes).read() }
        if matches([0x1A, 0x45, 0xDF, 0xA3], at: 0) { return try Matroska(bytes: bytes).read() }
        if matches(Array("RIFF".utf8), at: 0) && matches(Array("AVI ".utf8), at: 8) { return AVI(bytes: bytes).read() }
        if matches([0x00, 0x00, 0x01, 0xBA], at: 0) { return VideoFacts(container: .mpeg) }
        throw .notAVideo
    }
}

/// Bytes that can be read at any offset: a file, or memory.
protocol RandomAccessBytes {
    var length: UInt64 { get }
    /// `count` bytes at `offset`; nil where fewer are there.
    func read(at offset: UInt64, count: Int) -> Data?
}

struct FileBytes: RandomAccessBytes {
    let handle: FileHandle
    let length: UInt64

    func read(at offset: UInt64, count: Int) -> Data? {
        guard count >= 0, offset <= length, UInt64(count) <= length - offset else { return nil }
        guard (try? handle.seek(toOffset: offset)) != nil, let data = try? handle.read(upToCount: count), data.count == count else { return nil }
        return data
    }
}

struct MemoryBytes: RandomAccessBytes {
    let data: Data
    var length: UInt64 { UInt64(data.count) }

    func read(at offset: UInt64, count: Int) -> Data? {
        guard count >= 0, offset <= length, UInt64(count) <= length - offset else { return nil }
        let start = data.startIndex + Int(offset)
        return data[start..<start + count]
    }
}

extension Data {
    /// The big-endian unsigned integer of `count` bytes at `offset`; nil past the end.
    func bigEndian(at offset: Int, count: Int) -> UInt64? {
        guard offset >= 0, count <= 8, offset + count <= self.count else { return nil }
        return self[(startIndex + offset)..<(startIndex + offset + count)].reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// The little-endian unsigned integer of `count` bytes at `offset`.
    func littleEndian(at offset: Int, count: Int) -> UInt64? {
        guard offset >= 0, count <= 8, offset + count <= self.count else { return nil }
        return self[(startIndex + offset)..<(startIndex + offset + count)].reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }
}

/// ISO base media (MP4, QuickTime, 3GP): boxes of a size and a type, the
/// movie's facts in `moov`: `mvhd` (time scale, duration, creation time),
/// each track's `tkhd` (its matrix) and `mdia` (`hdlr` says a video track,
/// `stsd` its stored size), and QuickTime's `meta` (`keys`, `ilst`).
struct IsoMedia<Bytes: RandomAccessBytes> {
    let bytes: Bytes
    /// At most this many boxes are looked at in one box: a file of tiny boxes cannot take long.
    static var boxesPerLevel: Int { 4096 }

    struct Box {
        let type: String
        /// The type's four bytes as a number: an `ilst` item's is its key's index.
        let code: UInt32
        /// Where its content starts and ends.
        let start: UInt64
        let end: UInt64
    }

    /// The boxes in `start..<end`, as far as they are whole.
    func boxes(from start: UInt64, to end: UInt64) -> [Box] {
        var found: [Box] = []
        var offset = start
        while offset < end, found.count < Self.boxesPerLevel, let header = bytes.read(at: offset, count: 8),
            let size32 = header.bigEndian(at: 0, count: 4)
        {
            let type = String(decoding: header[(header.startIndex + 4)...], as: Unicode.ASCII.self)
            var headerLength: UInt64 = 8
            var size = size32
            if size32 == 1 {
                guard let large = bytes.read(at: offset + 8, count: 8)?.bigEndian(at: 0, count: 8) else { break }
                size = large
                headerLength = 16
            } else if size32 == 0 {
                size = end - offset  // to the end of its parent
            }
            guard size >= headerLength, size <= end - offset else { break }
            found.append(Box(type: type, code: UInt32(header.bigEndian(at: 4, count: 4) ?? 0), start: offset + headerLength, end: offset + size))
            offset += size
        }
        return found
    }

    func content(of box: Box, limit: Int = 1 << 16) -> Data? {
        bytes.read(at: box.start, count: Int(min(box.end - box.start, UInt64(limit))))
    }

    func read() throws(VideoReadFailure) -> VideoFacts {
        let top = boxes(from: 0, to: bytes.length)
        let brand = top.first { $0.type == "ftyp" }.flatMap { content(of: $0, limit: 4) }.map { String(decoding: $0, as: Unicode.ASCII.self) } ?? ""
        let container: VideoContainer = brand == "qt  " ? .quickTime : brand.hasPrefix("3g") ? .threeGP : .mp4
        var facts = VideoFacts(container: container)
        guard let movie = top.first(where: { $0.type == "moov" }) else { throw .damaged(container: container, detail: "it has no movie header (moov)") }
        let inMovie = boxes(from: movie.start, to: movie.end)
        if let header = inMovie.first(where: { $0.type == "mvhd" }).flatMap({ content(of: $0, limit: 32) }) {
            let long = header.first == 1
            let (created, scale, length) =
                long
                ? (header.bigEndian(at: 4, count: 8), header.bigEndian(at: 20, count: 4), header.bigEndian(at: 24, count: 8))
                : (header.bigEndian(at: 4, count: 4), header.bigEndian(at: 12, count: 4), header.bigEndian(at: 16, count: 4))
            if let scale, scale > 0, let length, length != UInt64(UInt32.max), length != UInt64.max { facts.duration = Double(length) / Double(scale) }
            // Seconds since 1904 in UTC; 0 is a camera that did not say.
            if let created, created > 0, created < UInt64(Int64.max) { facts.capturedAt = CaptureDate(utcSeconds: Int64(created) - 2_082_844_800) }
        }
        for track in inMovie where track.type == "trak" {
            let inTrack = boxes(from: track.start, to: track.end)
            guard let media = inTrack.first(where: { $0.type == "mdia" }) else { continue }
            let inMedia = boxes(from: media.start, to: media.end)
            guard let handler = inMedia.first(where: { $0.type == "hdlr" }).flatMap({ content(of: $0, limit: 12) }), handler.count == 12,
                String(decoding: handler[(handler.startIndex + 8)...], as: Unicode.ASCII.self) == "vide"
            else { continue }
            if let header = inTrack.first(where: { $0.type == "tkhd" }).flatMap({ content(of: $0, limit: 92) }) {
                // The matrix after version, flags, times, id, duration and the fields before it.
                let matrixOffset = header.first == 1 ? 52 : 40
                if let a = header.bigEndian(at: matrixOffset, count: 4), let b = header.bigEndian(at: matrixOffset + 4, count: 4),
                    let c = header.bigEndian(at: matrixOffset + 12, count: 4), let d = header.bigEndian(at: matrixOffset + 16, count: 4)
                {
                    facts.orientation = Self.orientation(a: Int32(truncatingIfNeeded: a), b: Int32(truncatingIfNeeded: b), c: Int32(truncatingIfNeeded: c), d: Int32(truncatingIfNeeded: d))
                }
            }
            if let information = inMedia.first(where: { $0.type == "minf" }),
                let table = boxes(from: information.start, to: information.end).first(where: { $0.type == "stbl" }),
                let description = boxes(from: table.start, to: table.end).first(where: { $0.type == "stsd" }).flatMap({ content(of: $0, limit: 44) }),
                let width = description.bigEndian(at: 40, count: 2), let height = description.bigEndian(at: 42, count: 2), width > 0, height > 0
            {
                // Version and flags, the entry count, then the first visual sample entry's header and fields.
                (facts.pixelWidth, facts.pixelHeight) = (Int(width), Int(height))
            }
            break
        }
        let values = quickTimeValues(in: inMovie, named: [Self.creationDateKey, Self.contentIdentifierKey])
        if let date = values[Self.creationDateKey].flatMap(Self.captureDate(quickTime:)) { facts.capturedAt = date }
        facts.contentIdentifier = values[Self.contentIdentifierKey].map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap { $0.isEmpty ? nil : $0 }
        return facts
    }

    /// The orientation a track's matrix (16.16 fixed point) turns the picture to.
    static func orientation(a: Int32, b: Int32, c: Int32, d: Int32) -> PhotoOrientation {
        switch (a.signum(), b.signum(), c.signum(), d.signum()) {
        case (0, 1, -1, 0): .right
        case (-1, 0, 0, -1): .down
        case (0, -1, 1, 0): .left
        case (-1, 0, 0, 1): .upMirrored
        case (1, 0, 0, -1): .downMirrored
        case (0, 1, 1, 0): .leftMirrored
        case (0, -1, -1, 0): .rightMirrored
        default: .up
        }
    }

    static var creationDateKey: String { "com.apple.quicktime.creationdate" }
    static var contentIdentifierKey: String { "com.apple.quicktime.content.identifier" }

    /// QuickTime's metadata of the keys `names` (moov/meta, or
    /// moov/udta/meta), as text: the creation date (the camera's clock with
    /// its zone), a Live Photo's content identifier.
    func quickTimeValues(in movie: [Box], named names: Set<String>) -> [String: String] {
        var found: [String: String] = [:]
        var metas = movie.filter { $0.type == "meta" }
        for data in movie where data.type == "udta" { metas += boxes(from: data.start, to: data.end).filter { $0.type == "meta" } }
        for meta in metas {
            // ISO's meta is a full box (four bytes of version and flags first), QuickTime's is not.
            var inMeta = boxes(from: meta.start, to: meta.end)
            if !inMeta.contains(where: { $0.type == "keys" }), meta.end - meta.start > 4 { inMeta = boxes(from: meta.start + 4, to: meta.end) }
            guard let keysBox = inMeta.first(where: { $0.type == "keys" }), let keys = content(of: keysBox),
                let list = inMeta.first(where: { $0.type == "ilst" })
            else { continue }
            // Entries: a size (with its 8-byte header), a namespace, the key.
            var index: UInt64 = 0
            var wanted: [UInt64: String] = [:]
            var offset = 8
            while let size = keys.bigEndian(at: offset, count: 4), size >= 8, offset + Int(size) <= keys.count, index < 4096 {
                index += 1
                let key = String(decoding: keys[(keys.startIndex + offset + 8)..<(keys.startIndex + offset + Int(size))], as: UTF8.self)
                if names.contains(key) { wanted[index] = key }
                offset += Int(size)
            }
            for item in boxes(from: list.start, to: list.end) {
                guard let key = wanted[UInt64(item.code)], found[key] == nil,
                    let value = boxes(from: item.start, to: item.end).first(where: { $0.type == "data" }).flatMap({ content(of: $0, limit: 256) }),
                    value.count > 8
                else { continue }
                // A type (1: UTF-8) and a locale, then the text.
                found[key] = String(decoding: value[(value.startIndex + 8)...], as: UTF8.self)
            }
        }
        return found
    }

    /// `2024-07-14T12:00:00+0200` (QuickTime writes its offset without a colon).
    static func captureDate(quickTime text: String) -> CaptureDate? {
        var text = text.trimmingCharacters(in: .whitespacesAndNewlines.union(.controlCharacters))
        if text.hasSuffix("Z") { text = text.dropLast() + "+00:00" }
        let tail = text.suffix(5)
        if tail.count == 5, let sign = tail.first, sign == "+" || sign == "-", tail.dropFirst().allSatisfy(\.isASCII), tail.dropFirst().allSatisfy(\.isNumber) {
            text = text.dropLast(2) + ":" + tail.suffix(2)
        }
        return CaptureDate(text)
    }
}

/// Matroska and WebM: EBML elements of a variable-length id and size; the
/// facts in the Segment's Info (timestamp scale, duration, date) and
/// Tracks (the video track's pixel size).
struct Matroska<Bytes: RandomAccessBytes> {
    let bytes: Bytes

    struct Element {
        let id: UInt64
        let start: UInt64
        let end: UInt64
    }

    /// The variable-length integer at `offset`: its value (with or
    /// without its length marker) and its length; nil where it is not one.
    func variableInteger(at offset: UInt64, keepingMarker: Bool) -> (value: UInt64, length: Int)? {
        guard let first = bytes.read(at: offset, count: 1)?.first, first != 0 else { return nil }
        let length = first.leadingZeroBitCount + 1
        guard let raw = bytes.read(at: offset, count: length)?.bigEndian(at: 0, count: length) else { return nil }
        if keepingMarker { return (raw, length) }
        let value = raw & ((1 << UInt64(7 * length)) - 1)
        // All ones: a size not known (a live stream's segment), read to the parent's end.
        return (value == (1 << UInt64(7 * length)) - 1 ? .max : value, length)
    }

    func elements(from start: UInt64, to end: UInt64, limit: Int = 4096) -> [Element] {
        var found: [Element] = []
        var offset = start
        while offset < end, found.count < limit, let id = variableInteger(at: offset, keepingMarker: true),
            let size = variableInteger(at: offset + UInt64(id.length), keepingMarker: false)
        {
            let contentStart = offset + UInt64(id.length + size.length)
            guard contentStart <= end else { break }
            let contentEnd = size.value == .max || size.value > end - contentStart ? end : contentStart + size.value
            found.append(Element(id: id.value, start: contentStart, end: contentEnd))
            offset = contentEnd
        }
        return found
    }

    func unsigned(_ element: Element) -> UInt64? {
        let count = element.end - element.start
        guard count >= 1, count <= 8 else { return nil }
        return bytes.read(at: element.start, count: Int(count))?.bigEndian(at: 0, count: Int(count))
    }

    func read() throws(VideoReadFailure) -> VideoFacts {
        let top = elements(from: 0, to: bytes.length, limit: 16)
        let docType = top.first { $0.id == 0x1A45_DFA3 }.flatMap { header in
            elements(from: header.start, to: header.end).first { $0.id == 0x4282 }
        }.flatMap { bytes.read(at: $0.start, count: Int(min($0.end - $0.start, 32))) }.map { String(decoding: $0, as: UTF8.self) }
        var facts = VideoFacts(container: docType?.hasPrefix("webm") == true ? .webM : .matroska)
        guard let segment = top.first(where: { $0.id == 0x1853_8067 }) else {
            throw .damaged(container: facts.container, detail: "it has no segment")
        }
        var scale: UInt64 = 1_000_000  // nanoseconds per tick, unless Info says otherwise
        var duration: Double?
        for element in elements(from: segment.start, to: segment.end) {
            switch element.id {
            case 0x1549_A966:  // Info
                for field in elements(from: element.start, to: element.end) {
                    switch field.id {
                    case 0x2AD7B1: if let value = unsigned(field), value > 0 { scale = value }
                    case 0x4489: duration = float(field)
                    case 0x4461:  // DateUTC: nanoseconds since 2001-01-01T00:00:00 UTC, signed
                        if let value = unsigned(field), field.end - field.start == 8 {
                            facts.capturedAt = CaptureDate(utcSeconds: Int64(bitPattern: value) / 1_000_000_000 + 978_307_200)
                        }
                    default: break
                    }
                }
            case 0x1654_AE6B:  // Tracks
                for entry in elements(from: element.start, to: element.end) where entry.id == 0xAE {
                    let fields = elements(from: entry.start, to: entry.end)
                    guard fields.first(where: { $0.id == 0x83 }).flatMap(unsigned) == 1,
                        let video = fields.first(where: { $0.id == 0xE0 })
                    else { continue }
                    let picture = elements(from: video.start, to: video.end)
                    if let width = picture.first(where: { $0.id == 0xB0 }).flatMap(unsigned), let height = picture.first(where: { $0.id == 0xBA }).flatMap(unsigned),
                        width > 0, height > 0, width <= UInt64(Int32.max), height <= UInt64(Int32.max)
                    {
                        (facts.pixelWidth, facts.pixelHeight) = (Int(width), Int(height))
                    }
                    break
                }
            default: break
            }
        }
        if let duration, duration > 0, case let seconds = duration * Double(scale) / 1_000_000_000, seconds.isFinite { facts.duration = seconds }
        return facts
    }

    func float(_ element: Element) -> Double? {
        switch element.end - element.start {
        case 4: bytes.read(at: element.start, count: 4)?.bigEndian(at: 0, count: 4).map { Double(Float(bitPattern: UInt32($0))) }
        case 8: bytes.read(at: element.start, count: 8)?.bigEndian(at: 0, count: 8).map { Double(bitPattern: $0) }
        default: nil
        }
    }
}

/// AVI: a RIFF file whose `hdrl` list holds the main header (`avih`):
/// microseconds per frame, frames, width and height.
struct AVI<Bytes: RandomAccessBytes> {
    let bytes: Bytes

    func read() -> VideoFacts {
        var facts = VideoFacts(container: .avi)
        // RIFF header (12 bytes), then the LIST 'hdrl' whose first chunk is 'avih'.
        guard let list = bytes.read(at: 12, count: 12), String(decoding: list[(list.startIndex + 8)...], as: Unicode.ASCII.self) == "hdrl",
            let header = bytes.read(at: 24, count: 8 + 40), String(decoding: header.prefix(4), as: Unicode.ASCII.self) == "avih"
        else { return facts }
        if let perFrame = header.littleEndian(at: 8, count: 4), let frames = header.littleEndian(at: 24, count: 4), perFrame > 0, frames > 0 {
            facts.duration = Double(perFrame) * Double(frames) / 1_000_000
        }
        if let width = header.littleEndian(at: 40, count: 4), let height = header.littleEndian(at: 44, count: 4), width > 0, height > 0,
            width <= UInt64(Int32.max), height <= UInt64(Int32.max)
        {
            (facts.pixelWidth, facts.pixelHeight) = (Int(width), Int(height))
        }
        return facts
    }
}
