import Foundation

/// The TIFF structure that TIFF files are and that EXIF blocks carry: a
/// byte-order mark ("II" or "MM"), 42 (classic) or 43 (BigTIFF), then
/// directories of entries (12 bytes each in classic TIFF, 20 in BigTIFF).
///
/// Only IFD0 and its EXIF and GPS sub-directories are read, each once, so offsets
/// pointing in circles cannot loop.
struct TIFFDirectory {
    var width: Int?
    var height: Int?
    /// EXIF `Orientation` as written, which may be out of 1–8.
    var orientation: Int?
    /// The EXIF dates, as written ("YYYY:MM:DD HH:MM:SS"), with their companions.
    var dateTimeOriginal: ExifDate?
    var createDate: ExifDate?
    /// TIFF's own XMP packet (tag 700), found in TIFF files, not in EXIF blocks.
    var xmp: XMPFields?
    /// The camera's maker and model (`Make`, `Model`), as written.
    var make: String?
    var model: String?
    /// EXIF `LensModel`.
    var lens: String?
    /// Whether the GPS directory gives a latitude and a longitude.
    var hasLocation = false
    /// `ImageDescription`, as written.
    var imageDescription: String?
    /// `Rating` (Windows' stars, 0–5), as written.
    var rating: Int?
    /// TIFF's own IPTC record (tag 33723), found in TIFF files.
    var iptc: ImageWords?
    /// The Live Photo content identifier in Apple's maker note (its tag 17):
    /// the still and its motion carry the same one.
    var contentIdentifier: String?

    /// A date tag with the sub-second and offset tags that qualify it.
    struct ExifDate {
        var text: String
        var subSeconds: String?
        var offset: String?
    }

    private enum Tag {
        static let imageWidth: UInt16 = 0x0100
        static let imageLength: UInt16 = 0x0101
        static let imageDescription: UInt16 = 0x010E
        static let rating: UInt16 = 0x4746
        static let iptc: UInt16 = 0x83BB
        static let make: UInt16 = 0x010F
        static let model: UInt16 = 0x0110
        static let orientation: UInt16 = 0x0112
        static let xmp: UInt16 = 0x02BC
        static let exifDirectory: UInt16 = 0x8769
        static let gpsDirectory: UInt16 = 0x8825
        static let gpsLatitude: UInt16 = 0x0002
        static let gpsLongitude: UInt16 = 0x0004
        static let lensModel: UInt16 = 0xA434
        static let dateTimeOriginal: UInt16 = 0x9003
        static let createDate: UInt16 = 0x9004
        static let offsetTimeOriginal: UInt16 = 0x9011
        static let offsetTimeDigitized: UInt16 = 0x9012
        static let subSecTimeOriginal: UInt16 = 0x9291
        static let subSecTimeDigitized: UInt16 = 0x9292
        static let makerNote: UInt16 = 0x927C
        /// In Apple's maker note.
        static let contentIdentifier: UInt16 = 0x0011
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
        let reader: EntryReader
        let first: Int
        switch bytes.u16(2, bigEndian: bigEndian) {
        case 42:
            guard let offset = bytes.u32(4, bigEndian: bigEndian) else { return nil }
            reader = EntryReader(bytes: bytes, bigEndian: bigEndian, isBig: false)
            first = Int(offset)
        case 43:
            // BigTIFF: offsets are 8 bytes (the header says so), and the first directory's offset follows.
            guard bytes.u16(4, bigEndian: bigEndian) == 8, bytes.u16(6, bigEndian: bigEndian) == 0,
                let offset = bytes.u64(8, bigEndian: bigEndian), offset <= UInt64(Int.max)
            else { return nil }
            reader = EntryReader(bytes: bytes, bigEndian: bigEndian, isBig: true)
            first = Int(offset)
        default:
            return nil
        }
        guard let root = reader.entries(at: first) else { return nil }
        var directory = TIFFDirectory()
        directory.width = root[Tag.imageWidth].flatMap(reader.integer)
        directory.height = root[Tag.imageLength].flatMap(reader.integer)
        directory.orientation = root[Tag.orientation].flatMap(reader.integer)
        directory.xmp = root[Tag.xmp].flatMap(reader.rawBytes).map(XMPFields.read)
        directory.make = root[Tag.make].flatMap(reader.text).flatMap(Self.trimmed)
        directory.model = root[Tag.model].flatMap(reader.text).flatMap(Self.trimmed)
        directory.imageDescription = root[Tag.imageDescription].flatMap { reader.text($0, limit: 65_536) }
        directory.rating = root[Tag.rating].flatMap(reader.integer)
        directory.iptc = root[Tag.iptc].flatMap(reader.rawBytes).flatMap(IPTCRecords.words)
        if let pointer = root[Tag.gpsDirectory].flatMap(reader.integer), let gps = reader.entries(at: pointer) {
            // A position needs both; a GPS directory may hold only a time or an altitude.
            directory.hasLocation = gps[Tag.gpsLatitude].map { $0.count >= 3 } == true && gps[Tag.gpsLongitude].map { $0.count >= 3 } == true
        }
        if let pointer = root[Tag.exifDirectory].flatMap(reader.integer), let exif = reader.entries(at: pointer) {
            func date(_ tag: UInt16, subSeconds: UInt16, offset: UInt16) -> ExifDate? {
                exif[tag].flatMap(reader.text).map {
                    ExifDate(text: $0, subSeconds: exif[subSeconds].flatMap(reader.text), offset: exif[offset].flatMap(reader.text))
                }
            }
            directory.dateTimeOriginal = date(Tag.dateTimeOriginal, subSeconds: Tag.subSecTimeOriginal, offset: Tag.offsetTimeOriginal)
            directory.createDate = date(Tag.createDate, subSeconds: Tag.subSecTimeDigitized, offset: Tag.offsetTimeDigitized)
            directory.lens = exif[Tag.lensModel].flatMap(reader.text).flatMap(Self.trimmed)
            directory.contentIdentifier = exif[Tag.makerNote].flatMap(reader.rawBytes).flatMap(Self.appleContentIdentifier)
        }
        return directory
    }

    /// The content identifier in an Apple maker note: `Apple iOS` and a NUL,
    /// a version (2 bytes), a byte-order mark at 12, then a directory at 14
    /// whose offsets count from the note's start (as exiftool's Apple.pm reads it).
    private static func appleContentIdentifier(_ note: ByteView) -> String? {
        guard note.matches(Array("Apple iOS\0".utf8), at: 0) else { return nil }
        let bigEndian: Bool
        if note.matches(Array("MM".utf8), at: 12) { bigEndian = true } else if note.matches(Array("II".utf8), at: 12) { bigEndian = false } else { return nil }
        let reader = EntryReader(bytes: note, bigEndian: bigEndian, isBig: false)
        guard let entries = reader.entries(at: 14), let identifier = entries[Tag.contentIdentifier].flatMap(reader.text) else { return nil }
        let trimmed = identifier.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? nil : trimmed
    }

    /// A text value without the padding cameras leave around it; nil when nothing is left.
    private static func trimmed(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? nil : trimmed
    }

    /// Reads directory entries and their values.
    private struct EntryReader {
        let bytes: ByteView
        let bigEndian: Bool
        /// BigTIFF: 8-byte counts and offsets, 20-byte entries.
        let isBig: Bool

        struct Entry {
            let type: UInt16
            let count: UInt64
            /// Where the entry's value field (4 bytes, or 8 in BigTIFF) starts.
            let valueField: Int
        }

        private var entrySize: Int { isBig ? 20 : 12 }
        private var valueFieldSize: Int { isBig ? 8 : 4 }

        func entries(at offset: Int) -> [UInt16: Entry]? {
            let declared = isBig ? bytes.u64(offset, bigEndian: bigEndian) : bytes.u16(offset, bigEndian: bigEndian).map(UInt64.init)
            guard let declared, declared <= 1024 else { return nil }
            let first = offset + (isBig ? 8 : 2)
            var entries: [UInt16: Entry] = [:]
            for index in 0..<Int(declared) {
                let start = first + index * entrySize
                guard let tag = bytes.u16(start, bigEndian: bigEndian), let type = bytes.u16(start + 2, bigEndian: bigEndian),
                    let count = isBig ? bytes.u64(start + 4, bigEndian: bigEndian) : bytes.u32(start + 4, bigEndian: bigEndian).map(UInt64.init)
                else { return entries.isEmpty ? nil : entries }
                // The first of a repeated tag counts, as in every reader.
                if entries[tag] == nil {
                    entries[tag] = Entry(type: type, count: count, valueField: start + (isBig ? 12 : 8))
                }
            }
            return entries
        }

        /// Where an entry's `byteCount` bytes of values are: in the value
        /// field when they fit, else at the offset it holds.
        private func valueStart(_ entry: Entry, byteCount: UInt64) -> Int? {
            if byteCount <= UInt64(valueFieldSize) { return entry.valueField }
            let offset = isBig ? bytes.u64(entry.valueField, bigEndian: bigEndian) : bytes.u32(entry.valueField, bigEndian: bigEndian).map(UInt64.init)
            guard let offset, offset <= UInt64(Int.max) else { return nil }
            return Int(offset)
        }

        /// A SHORT, LONG or LONG8 value (IFD and IFD8 pointers included).
        func integer(_ entry: Entry) -> Int? {
            guard entry.count >= 1 else { return nil }
            switch entry.type {
            case 3: return bytes.u16(entry.valueField, bigEndian: bigEndian).map(Int.init)
            case 4, 13: return bytes.u32(entry.valueField, bigEndian: bigEndian).map(Int.init)
            case 16, 18:
                guard isBig else { return nil }
                return bytes.u64(entry.valueField, bigEndian: bigEndian).flatMap { $0 <= UInt64(Int.max) ? Int($0) : nil }
            default: return nil
            }
        }

        /// An ASCII value (UTF-8, as many writers put there), up to its first NUL.
        func text(_ entry: Entry) -> String? {
            text(entry, limit: 256)
        }

        /// An ASCII value as ``text(_:)`` reads it, of up to `limit` bytes.
        func text(_ entry: Entry, limit: UInt64) -> String? {
            guard entry.type == 2, entry.count >= 1, entry.count <= limit, let start = valueStart(entry, byteCount: entry.count) else { return nil }
            return bytes.ascii(start, count: Int(entry.count)).map { String($0.prefix { $0 != "\0" }) }
        }

        /// A BYTE or UNDEFINED value's bytes, or a LONG's taken as bytes (as
        /// some writers store IPTC).
        func rawBytes(_ entry: Entry) -> ByteView? {
            let unit: UInt64
            switch entry.type {
            case 1, 7: unit = 1
            case 4: unit = 4
            default: return nil
            }
            guard entry.count <= UInt64(bytes.count) / unit, let start = valueStart(entry, byteCount: entry.count * unit) else { return nil }
            return bytes.slice(start, count: Int(entry.count * unit))
        }
    }
}
