import AlbumsImporting
import Foundation

/// Any bytes, as a Google Takeout's archive: albums or a refusal, never a
/// crash or a hang, and extraction writes nothing outside its folder.
///
/// The first byte says how the rest is read: 0, as a `.zip`; 1, as a
/// `.tgz`; 2, as a tar wrapped here in a gzip of stored blocks, so that the
/// tar reader behind the inflater meets the mutations themselves; 3, as a
/// tar header made here whose type and 12-byte size field are the next
/// bytes (base-256 when the first has its high bit set: negative, past
/// Int64, past any offset), its checksum made right so that the reader
/// reaches the size, then the rest as the entry's data.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzArchives(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    guard count > 1 else { return 0 }
    let bytes = Data(bytes: start, count: count)
    let body = bytes.dropFirst()
    let (name, contents): (String, Data) =
        switch bytes[bytes.startIndex] % 4 {
        case 0: ("takeout-1-001.zip", Data(body))
        case 1: ("takeout-1-001.tgz", Data(body))
        case 2: ("takeout-1-001.tgz", storedGzip(Data(body)))
        default: ("takeout-1-001.tgz", storedGzip(craftedTar(Data(body))))
        }
    let folder = FileManager.default.temporaryDirectory.appending(path: "fuzz-archives-\(ProcessInfo.processInfo.processIdentifier)")
    let archives = folder.appending(path: "archives")
    let extracted = folder.appending(path: "extracted")
    try? FileManager.default.removeItem(at: folder)
    try! FileManager.default.createDirectory(at: archives, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try! contents.write(to: archives.appending(path: name))
    guard let read = try? TakeoutArchives([archives.appending(path: name).path]).read(extractingInto: extracted.path) else { return 0 }
    for node in read.catalog.root.folders {
        for photo in node.photos where !photo.hasPrefix(extracted.path + "/") { fatalError("a photo planned outside the folder: \(photo)") }
    }
    _ = try? read.extract()
    // Nothing beside the archive and the extraction folder.
    let written = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    if !Set(written).isSubset(of: ["archives", "extracted"]) { fatalError("written beside the folder: \(written)") }
    if (try? FileManager.default.contentsOfDirectory(atPath: archives.path)) != [name] { fatalError("written beside the archive") }
    return 0
}

/// A tar of one header whose type is `fuzz`'s first byte and whose size
/// field is its next 12, with a right checksum, then the rest of `fuzz`.
func craftedTar(_ fuzz: Data) -> Data {
    var header = [UInt8](repeating: 0, count: 512)
    let name = Array("Takeout/Google Photos/Rom/a.jpg".utf8)
    header.replaceSubrange(0..<name.count, with: name)
    for (offset, field) in [(100, "0000644"), (108, "0000000"), (116, "0000000"), (136, "00000000000")] {
        header.replaceSubrange(offset..<offset + field.utf8.count, with: Array(field.utf8))
    }
    let types = Array("0L x7g5".utf8)
    header[156] = fuzz.first.map { types[Int($0) % types.count] } ?? UInt8(ascii: "0")
    let size = Array(fuzz.dropFirst().prefix(12))
    header.replaceSubrange(124..<124 + size.count, with: size)
    header.replaceSubrange(257..<265, with: Array("ustar\u{0}00".utf8))
    header.replaceSubrange(148..<156, with: Array(repeating: UInt8(ascii: " "), count: 8))
    let sum = header.reduce(0) { $0 + Int($1) }
    header.replaceSubrange(148..<156, with: Array(String(format: "%06o", sum).utf8) + [0, UInt8(ascii: " ")])
    return Data(header) + fuzz.dropFirst(13) + Data(count: 1024)
}

/// `data` as a gzip file of stored (uncompressed) deflate blocks.
func storedGzip(_ data: Data) -> Data {
    var out = Data([0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF])
    var offset = data.startIndex
    repeat {
        let length = min(65_535, data.endIndex - offset)
        let last: UInt8 = offset + length == data.endIndex ? 1 : 0
        out.append(last)
        out.append(contentsOf: [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF)])
        out.append(data[offset..<offset + length])
        offset += length
    } while offset < data.endIndex
    for value in [crc32(data), UInt32(truncatingIfNeeded: data.count)] {
        withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
    }
    return out
}

/// The CRC-32 gzip ends with (polynomial 0xEDB88320).
func crc32(_ data: Data) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in data {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
}
