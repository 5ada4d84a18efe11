import Foundation

/// IPTC's Information Interchange Model: the caption, title and keywords
/// news and stock photography wrote before XMP, and many programs still
/// write beside it. JPEG carries it in APP13 as a Photoshop image resource
/// (`8BIM` 0x0404); TIFF in its tag 33723.
///
/// A record is a run of datasets: 0x1C, the record number, the dataset
/// number, a two-byte length, the value. Only the application record (2)
/// is read, and from the envelope (1) the character set: UTF-8 where it
/// says so (ESC % G), else UTF-8 where the bytes are valid UTF-8, else
/// Latin-1, which is what writers before UTF-8 meant.
enum IPTCRecords {
    private enum Dataset {
        static let codedCharacterSet: (record: UInt8, number: UInt8) = (1, 90)
        static let objectName: (record: UInt8, number: UInt8) = (2, 5)
        static let keywords: (record: UInt8, number: UInt8) = (2, 25)
        static let caption: (record: UInt8, number: UInt8) = (2, 120)
    }

    /// The IPTC block inside a Photoshop APP13 segment's body (after its
    /// `Photoshop 3.0\0` signature): the data of image resource 0x0404.
    static func iimBlock(inPhotoshopResources bytes: ByteView) -> ByteView? {
        var offset = 0
        // Each resource: "8BIM", its id, a Pascal name padded to even, a size, data padded to even.
        while bytes.matches(Array("8BIM".utf8), at: offset) {
            guard let id = bytes.u16(offset + 4, bigEndian: true), let nameLength = bytes.u8(offset + 6) else { return nil }
            let nameField = (Int(nameLength) + 1 + 1) & ~1
            guard let size = bytes.u32(offset + 6 + nameField, bigEndian: true), Int(size) <= bytes.count else { return nil }
            let dataStart = offset + 6 + nameField + 4
            if id == 0x0404 { return bytes.slice(dataStart, count: Int(size)) }
            offset = dataStart + ((Int(size) + 1) & ~1)
        }
        return nil
    }

    /// The words an IIM block carries; nil when it carries none.
    static func words(_ bytes: ByteView) -> ImageWords? {
        var values: [(record: UInt8, number: UInt8, value: ByteView)] = []
        var offset = 0
        while bytes.u8(offset) == 0x1C, let record = bytes.u8(offset + 1), let number = bytes.u8(offset + 2),
            let length = bytes.u16(offset + 3, bigEndian: true)
        {
            // An extended dataset (its length's top bit set) holds binary data, never words: the walk ends.
            guard length & 0x8000 == 0, let value = bytes.slice(offset + 5, count: Int(length)), value.count == Int(length) else { break }
            values.append((record, number, value))
            offset += 5 + Int(length)
        }
        let declaresUTF8 = values.contains {
            $0.record == Dataset.codedCharacterSet.record && $0.number == Dataset.codedCharacterSet.number
                && $0.value.matches([0x1B, 0x25, 0x47], at: 0)
        }
        func text(_ value: ByteView) -> String? {
            let raw = Array(value.bytes)
            let decoded =
                declaresUTF8 ? String(decoding: raw, as: UTF8.self) : String(validating: raw, as: UTF8.self) ?? String(raw.map { Character(Unicode.Scalar($0)) })
            let trimmed = decoded.trimmingCharacters(in: .whitespacesAndNewlines.union(CharacterSet(charactersIn: "\0")))
            return trimmed.isEmpty ? nil : trimmed
        }
        func all(_ dataset: (record: UInt8, number: UInt8)) -> [String] {
            values.filter { $0.record == dataset.record && $0.number == dataset.number }.compactMap { text($0.value) }
        }
        let words = ImageWords(title: all(Dataset.objectName).first, caption: all(Dataset.caption).first, keywords: all(Dataset.keywords))
        return words.isEmpty ? nil : words
    }
}
