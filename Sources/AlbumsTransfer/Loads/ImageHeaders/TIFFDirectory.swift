/// The TIFF structure that TIFF files are and that EXIF blocks carry: a
/// byte-order mark ("II" or "MM"), 42, then directories of 12-byte entries.
///
/// Only IFD0 and the EXIF sub-directory are read, each once, so offsets
/// pointing in circles cannot loop.
struct TIFFDirectory {
    var width: Int?
    var height: Int?
    var capturedAt: String?

    private enum Tag {
        static let imageWidth: UInt16 = 0x0100
        static let imageLength: UInt16 = 0x0101
        static let dateTime: UInt16 = 0x0132
        static let exifDirectory: UInt16 = 0x8769
        static let dateTimeOriginal: UInt16 = 0x9003
        static let offsetTimeOriginal: UInt16 = 0x9011
    }

    /// Reads the TIFF structure at the start of `bytes`, or nil if it is not one.
    static func read(_ bytes: ByteView) -> TIFFDirectory? {
        let bigEndian: Bool
        if bytes.matches(Array("MM".utf8), at: 0) {
            bigEndian = true
        } else if bytes.matches(Array("II".utf8), at: 0) {
            bigEndian = false
        } else {
            return nil
        }
        guard bytes.u16(2, bigEndian: bigEndian) == 42, let first = bytes.u32(4, bigEndian: bigEndian) else { return nil }
        let reader = EntryReader(bytes: bytes, bigEndian: bigEndian)
        guard let root = reader.entries(at: Int(first)) else { return nil }
        var directory = TIFFDirectory()
        directory.width = root[Tag.imageWidth].flatMap(reader.integer)
        directory.height = root[Tag.imageLength].flatMap(reader.integer)
        var date = root[Tag.dateTime].flatMap(reader.text)
        var offset: String?
        if let pointer = root[Tag.exifDirectory].flatMap(reader.integer), let exif = reader.entries(at: pointer) {
            date = exif[Tag.dateTimeOriginal].flatMap(reader.text) ?? date
            offset = exif[Tag.offsetTimeOriginal].flatMap(reader.text)
        }
        directory.capturedAt = date.flatMap { normalizedDate($0, offset: offset) }
        return directory
    }

    /// EXIF's `YYYY:MM:DD HH:MM:SS` as `YYYY-MM-DDTHH:MM:SS[±HH:MM]`, or nil
    /// for anything else, including the all-zero "unknown" date.
    static func normalizedDate(_ text: String, offset: String?) -> String? {
        let characters = Array(text.prefix(19))
        guard characters.count == 19 else { return nil }
        let layout = Array("dddd:dd:dd dd:dd:dd")
        for (character, expected) in zip(characters, layout) {
            if expected == "d" ? !(character.isASCII && character.isNumber) : character != expected && !(expected == ":" && character == "-") {
                return nil
            }
        }
        let value = String(characters)
        guard !value.hasPrefix("0000") else { return nil }
        var result = value.prefix(4) + "-" + value.dropFirst(5).prefix(2) + "-" + value.dropFirst(8).prefix(2)
        result += "T" + value.dropFirst(11)
        if let offset, offset.count == 6, offset.first == "+" || offset.first == "-",
            offset.dropFirst().enumerated().allSatisfy({ $0.offset == 2 ? $0.element == ":" : $0.element.isNumber })
        {
            result += offset
        }
        return String(result)
    }

    /// Reads directory entries and their values.
    private struct EntryReader {
        let bytes: ByteView
        let bigEndian: Bool

        struct Entry {
            let type: UInt16
            let count: UInt32
            /// Where the entry's 4-byte value field starts.
            let valueField: Int
        }

        func entries(at offset: Int) -> [UInt16: Entry]? {
            guard let count = bytes.u16(offset, bigEndian: bigEndian), count <= 1024 else { return nil }
            var entries: [UInt16: Entry] = [:]
            for index in 0..<Int(count) {
                let start = offset + 2 + index * 12
                guard let tag = bytes.u16(start, bigEndian: bigEndian), let type = bytes.u16(start + 2, bigEndian: bigEndian),
                    let valueCount = bytes.u32(start + 4, bigEndian: bigEndian)
                else { return entries.isEmpty ? nil : entries }
                entries[tag] = Entry(type: type, count: valueCount, valueField: start + 8)
            }
            return entries
        }

        /// A SHORT or LONG value.
        func integer(_ entry: Entry) -> Int? {
            guard entry.count >= 1 else { return nil }
            switch entry.type {
            case 3: return bytes.u16(entry.valueField, bigEndian: bigEndian).map(Int.init)
            case 4: return bytes.u32(entry.valueField, bigEndian: bigEndian).map(Int.init)
            default: return nil
            }
        }

        /// An ASCII value, without its terminating NUL.
        func text(_ entry: Entry) -> String? {
            guard entry.type == 2, entry.count >= 1, entry.count <= 256 else { return nil }
            let start = entry.count <= 4 ? entry.valueField : bytes.u32(entry.valueField, bigEndian: bigEndian).map(Int.init) ?? -1
            return bytes.ascii(start, count: Int(entry.count)).map { String($0.prefix { $0 != "\0" }) }
        }
    }
}
