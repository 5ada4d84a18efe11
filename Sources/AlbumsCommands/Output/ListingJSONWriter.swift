import AlbumsPersistence
import Foundation

/// Writes `list --json` straight from the library's raw listing rows into
/// a byte buffer: exactly the text JSONEncoder makes of ``ItemJSON`` (keys
/// sorted, nulls kept, slashes unescaped; the tests compare the two on
/// awkward names), at the speed of `sqlite3 -json` (BENCHMARKS.md).
///
/// ``ItemJSON`` stays the one definition of an item's JSON: `show` encodes
/// it, and this writer is its fast path for listings of any size.
struct ListingJSONWriter {
    private(set) var buffer: [UInt8] = []
    private static let hexDigits = Array("0123456789abcdef".utf8)

    init() {
        buffer.reserveCapacity(1 << 17)
    }

    /// Appends one item's object.
    mutating func appendItem(_ row: borrowing ListingRow) {
        let isPlaceholder = row.isNull(.photoID)
        append("{\"byte_count\":")
        appendInteger(row, .byteCount)
        append(",\"caption\":")
        appendString(row.bytes(.caption))
        append(",\"captured_at\":")
        appendString(row.bytes(.capturedAt))
        // Orientations 5-8 see the raster turned a quarter.
        let turned = !isPlaceholder && row.int64(.orientation) >= 5
        append(",\"display_height\":")
        appendInteger(row, turned ? .pixelWidth : .pixelHeight)
        append(",\"display_width\":")
        appendInteger(row, turned ? .pixelHeight : .pixelWidth)
        append(",\"duration\":")
        appendSeconds(row, .duration)
        append(",\"favorite\":")
        append(row.int64(.isFavorite) == 1 ? "true" : "false")
        append(",\"file\":")
        appendString(row.bytes(.originalName))
        append(",\"item_id\":")
        appendInteger(row.int64(.itemID))
        append(",\"keywords\":[")
        // Rare, and kept as JSON: read back so that each is written as JSONEncoder writes it.
        for (offset, keyword) in (row.string(.keywords).flatMap(ItemMarks.keywords(fromJSON:)) ?? []).enumerated() {
            if offset > 0 { append(",") }
            appendString(keyword)
        }
        append("]")
        append(",\"live_photo\":")
        append(row.int64(.isLive) == 1 ? "true" : "false")
        append(",\"media_type\":")
        appendString(row.bytes(.mediaType))
        append(",\"motion_duration\":")
        appendSeconds(row, .motionDuration)
        append(",\"orientation\":")
        appendInteger(row, .orientation)
        append(",\"photo_id\":")
        appendInteger(row, .photoID)
        append(",\"pixel_height\":")
        appendInteger(row, .pixelHeight)
        append(",\"pixel_width\":")
        appendInteger(row, .pixelWidth)
        append(",\"placeholder_id\":")
        if isPlaceholder { appendInteger(row.int64(.itemID)) } else { append("null") }
        append(",\"position\":")
        appendInteger(Int64(row.index + 1))
        append(",\"rating\":")
        switch row.isNull(.rating) ? nil : row.int64(.rating) {
        case nil: append("null")
        case let stars? where stars > 0: appendInteger(stars)
        default: append("\"rejected\"")
        }
        append(",\"sha256\":")
        if let digest = row.bytes(.sha256) {
            buffer.append(UInt8(ascii: "\""))
            for byte in digest {
                buffer.append(Self.hexDigits[Int(byte >> 4)])
                buffer.append(Self.hexDigits[Int(byte & 0x0F)])
            }
            buffer.append(UInt8(ascii: "\""))
        } else {
            append("null")
        }
        append(",\"source\":")
        appendString(row.bytes(isPlaceholder ? .loadSource : .sourcePath))
        append(",\"stale\":")
        if isPlaceholder, let owner = row.loadOwner { append(owner.isGone ? "true" : "false") } else { append("null") }
        append(",\"title\":")
        appendString(row.bytes(.title))
        append("}")
    }

    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { buffer.append(contentsOf: $0) }
    }

    mutating func append(_ text: String) {
        buffer.append(contentsOf: text.utf8)
    }

    /// Writes what has gathered to standard output once it is large.
    mutating func flush(force: Bool = false) {
        guard force || buffer.count >= 1 << 16 else { return }
        buffer.withUnsafeBytes { StandardStream.output.write($0) }
        buffer.removeAll(keepingCapacity: true)
    }

    // MARK: - Values

    /// A length in seconds, or null. Rare (videos and Live Photos alone):
    /// written by JSONEncoder itself, so that a real number reads as `show` prints it.
    private mutating func appendSeconds(_ row: borrowing ListingRow, _ column: ListingRow.Column) {
        guard !row.isNull(column) else {
            append("null")
            return
        }
        let text = (try? JSONEncoder().encode(row.double(column))).map { String(decoding: $0, as: UTF8.self) }
        append(text ?? "null")
    }

    private mutating func appendInteger(_ row: borrowing ListingRow, _ column: ListingRow.Column) {
        if row.isNull(column) { append("null") } else { appendInteger(row.int64(column)) }
    }

    mutating func appendInteger(_ value: Int64) {
        if value < 0 { buffer.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { space in
            repeat {
                space[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            for index in stride(from: count - 1, through: 0, by: -1) { buffer.append(space[index]) }
        }
    }

    /// A string as JSONEncoder writes it (see below).
    mutating func appendString(_ text: String) {
        var text = text
        text.withUTF8 { appendString($0) }
    }

    /// A JSON string as JSONEncoder writes it: `"` and `\` escaped, the
    /// control characters as \n \r \t or \u00XX, everything else as is.
    private mutating func appendString(_ bytes: UnsafeBufferPointer<UInt8>?) {
        guard let bytes else {
            append("null")
            return
        }
        buffer.append(UInt8(ascii: "\""))
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\""): append("\\\"")
            case UInt8(ascii: "\\"): append("\\\\")
            case UInt8(ascii: "\n"): append("\\n")
            case UInt8(ascii: "\r"): append("\\r")
            case UInt8(ascii: "\t"): append("\\t")
            case 0x08: append("\\b")
            case 0x0C: append("\\f")
            case ..<0x20:
                append("\\u00")
                buffer.append(Self.hexDigits[Int(byte >> 4)])
                buffer.append(Self.hexDigits[Int(byte & 0x0F)])
            default:
                buffer.append(byte)
            }
        }
        buffer.append(UInt8(ascii: "\""))
    }
}
