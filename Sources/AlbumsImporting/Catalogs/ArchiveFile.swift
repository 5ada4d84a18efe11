import Foundation
import SystemZlib
import ZIPFoundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An archive read file by file, in the order it holds them: a ZIP file
/// (``ZIPArchiveFile``) or a gzipped tar (``TarGzipArchiveFile``), which can
/// only be read from start to end.
protocol ArchiveFile {
    /// Calls `visit` with each regular file, in the archive's order.
    func forEachFile(_ visit: (ArchiveEntry) throws -> Void) throws
}

/// A regular file in an archive, valid while ``ArchiveFile/forEachFile(_:)`` visits it.
struct ArchiveEntry {
    /// Its path inside the archive, "/"-separated.
    let path: String
    /// Its size, uncompressed.
    let size: UInt64
    let readPrefix: (Int) throws -> Data
    let extractTo: (String) throws -> Void

    /// Its first `limit` bytes (all of them, if it is shorter). Once per visit.
    func read(limit: Int) throws -> Data { try readPrefix(limit) }

    /// Writes its bytes to a new file at `path`. Once per visit, and not after ``read(limit:)``.
    func extract(to path: String) throws { try extractTo(path) }
}

/// Why an archive could not be read.
struct ArchiveDamage: Error, CustomStringConvertible {
    let description: String
}

/// A ZIP archive, ZIP64 included, read through ZIPFoundation.
struct ZIPArchiveFile: ArchiveFile {
    let archive: Archive

    init(path: String) throws {
        do {
            archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .read)
        } catch {
            throw ArchiveDamage(description: "it is not a ZIP archive, or one cut short (a download not finished?)")
        }
    }

    private struct ReadEnough: Error {}

    func forEachFile(_ visit: (ArchiveEntry) throws -> Void) throws {
        let archive = archive
        for entry in archive where entry.type == .file {
            try visit(
                ArchiveEntry(
                    path: entry.path, size: entry.uncompressedSize,
                    readPrefix: { limit in
                        var data = Data()
                        guard limit > 0, entry.uncompressedSize > 0 else { return data }
                        do {
                            // Decompressed a chunk at a time: stop at the first one that fills the prefix.
                            _ = try archive.extract(entry, bufferSize: 16 * 1024, skipCRC32: true) { chunk in
                                data.append(chunk.prefix(limit - data.count))
                                if data.count >= limit { throw ReadEnough() }
                            }
                        } catch is ReadEnough {}
                        return data
                    },
                    extractTo: { path in _ = try archive.extract(entry, to: URL(fileURLWithPath: path)) }))
        }
    }
}

/// A gzipped tar archive (`.tgz`, `.tar.gz`): POSIX ustar, with GNU long
/// names and pax extended headers for paths longer than a header holds.
struct TarGzipArchiveFile: ArchiveFile {
    let path: String

    private static let block = 512

    func forEachFile(_ visit: (ArchiveEntry) throws -> Void) throws {
        let stream = try GzipStream(path: path)
        var longName: String?
        while true {
            let header = try stream.read(Self.block)
            guard header.count == Self.block else {
                if header.isEmpty { return }  // some writers end without the two zero blocks
                throw ArchiveDamage(description: "it ends inside a header: cut short (a download not finished?)")
            }
            if header.allSatisfy({ $0 == 0 }) { return }
            try Self.checkSum(of: header)
            let size = try Self.number(header[124..<136])
            guard size <= Self.largestEntry else {
                throw ArchiveDamage(description: "a header gives a file of \(size) bytes, more than a tar archive can hold: damaged, or crafted")
            }
            let padding = (UInt64(Self.block) - size % UInt64(Self.block)) % UInt64(Self.block)
            var name = Self.text(header[0..<100])
            if header[257..<262].elementsEqual("ustar".utf8) {
                let prefix = Self.text(header[345..<500])
                if !prefix.isEmpty { name = prefix + "/" + name }
            }
            switch header[156] {
            case UInt8(ascii: "L"):  // GNU: the next entry's whole name
                longName = Self.text(try Self.readRecord(of: size, from: stream)[...])
                try stream.skip(padding)
                continue
            case UInt8(ascii: "x"):  // pax: the next entry's attributes, "length key=value\n" each
                let records = String(decoding: try Self.readRecord(of: size, from: stream), as: UTF8.self)
                for record in records.split(separator: "\n") {
                    if let match = record.wholeMatch(of: /[0-9]+ path=(.*)/) { longName = String(match.1) }
                }
                try stream.skip(padding)
                continue
            case 0, UInt8(ascii: "0"), UInt8(ascii: "7"):
                let path = longName ?? name
                longName = nil
                var consumed: UInt64 = 0
                try visit(
                    ArchiveEntry(
                        path: path, size: size,
                        readPrefix: { limit in
                            let data = try stream.read(Int(min(UInt64(max(0, limit)), size - consumed)))
                            consumed += UInt64(data.count)
                            return data
                        },
                        extractTo: { target in
                            try stream.copy(size - consumed, toNewFileAt: target)
                            consumed = size
                        }))
                try stream.skip(size - consumed + padding)
            default:  // folders, links, devices, global pax headers: passed over
                longName = nil
                try stream.skip(size + padding)
            }
        }
    }

    /// The largest file a header may announce: 2^62 bytes, far past any
    /// disk, and small enough that its padding and every offset after it
    /// stay within `UInt64` and `Int`.
    static let largestEntry: UInt64 = 1 << 62

    /// The most a GNU long name or a pax record may hold: paths are at most
    /// a few KiB, and reading what a crafted header announces would take
    /// the memory it asks for.
    static let largestRecord: UInt64 = 1 << 20

    /// A long-name or pax record of `size` bytes, refused past ``largestRecord``.
    private static func readRecord(of size: UInt64, from stream: GzipStream) throws -> Data {
        guard size <= largestRecord else {
            throw ArchiveDamage(description: "a header announces a name record of \(size) bytes, more than \(largestRecord >> 20) MiB: damaged, or crafted")
        }
        return try stream.read(Int(size))
    }

    /// A header's checksum: the sum of its bytes, the checksum's own field counted as spaces.
    private static func checkSum(of header: Data) throws {
        let recorded = try number(header[148..<156])
        var sum: UInt64 = 0
        for (offset, byte) in header.enumerated() { sum += (148..<156).contains(offset) ? 32 : UInt64(byte) }
        guard sum == recorded else { throw ArchiveDamage(description: "a header's checksum does not match: damaged, or not a tar archive") }
    }

    /// An octal number field, or a base-256 one (its first byte's high bit set) for sizes of 8 GiB and more.
    ///
    /// Base-256 is two's complement: a first byte of 0xFF starts a negative
    /// number, which no size or checksum is. One past `UInt64` is refused
    /// rather than cut to its low bytes.
    static func number(_ field: Data) throws -> UInt64 {
        if let first = field.first, first & 0x80 != 0 {
            guard first & 0x40 == 0 else { throw ArchiveDamage(description: "a header's number is negative: damaged, or crafted") }
            var value = UInt64(first & 0x3F)
            for byte in field.dropFirst() {
                guard value <= UInt64.max >> 8 else { throw ArchiveDamage(description: "a header's number is larger than 64 bits: damaged, or crafted") }
                value = value << 8 | UInt64(byte)
            }
            return value
        }
        let digits = String(decoding: field.prefix { $0 != 0 && $0 != 32 }.drop { $0 == 32 }, as: UTF8.self)
        if digits.isEmpty { return 0 }
        guard let value = UInt64(digits, radix: 8) else { throw ArchiveDamage(description: "a header's number is not octal: damaged, or not a tar archive") }
        return value
    }

    /// A NUL-terminated text field.
    private static func text(_ field: Data.SubSequence) -> String {
        String(decoding: field.prefix { $0 != 0 }, as: UTF8.self)
    }
}

/// A gzip file read as one stream of bytes, however many members it has.
final class GzipStream {
    private let file: FileHandle
    private var zstream = z_stream()
    private let input: UnsafeMutablePointer<UInt8>
    private let output: UnsafeMutablePointer<UInt8>
    private static let chunk = 256 * 1024
    /// Decompressed bytes not yet read: `output[start..<end]`.
    private var start = 0
    private var end = 0
    private var atEnd = false

    init(path: String) throws {
        guard let file = FileHandle(forReadingAtPath: path) else { throw ArchiveDamage(description: "it cannot be opened") }
        self.file = file
        input = .allocate(capacity: Self.chunk)
        output = .allocate(capacity: Self.chunk)
        // 15 + 32: a window of 2^15 bytes, and a gzip (or zlib) header expected.
        guard inflateInit2_(&zstream, 15 + 32, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            input.deallocate()
            output.deallocate()
            throw ArchiveDamage(description: "zlib could not start")
        }
    }

    deinit {
        inflateEnd(&zstream)
        input.deallocate()
        output.deallocate()
        try? file.close()
    }

    /// Decompresses the next chunk into the output buffer, which must be empty.
    private func fill() throws {
        start = 0
        end = 0
        while end == 0 && !atEnd {
            if zstream.avail_in == 0 {
                let data = try file.read(upToCount: Self.chunk) ?? Data()
                if data.isEmpty {
                    atEnd = true
                    return
                }
                data.copyBytes(to: input, count: data.count)
                zstream.next_in = input
                zstream.avail_in = UInt32(data.count)
            }
            zstream.next_out = output
            zstream.avail_out = UInt32(Self.chunk)
            let status = inflate(&zstream, Z_NO_FLUSH)
            end = Self.chunk - Int(zstream.avail_out)
            switch status {
            case Z_OK, Z_BUF_ERROR: break
            case Z_STREAM_END: inflateReset(&zstream)  // another member may follow
            default: throw ArchiveDamage(description: "its gzip stream is damaged")
            }
        }
    }

    /// Up to `count` bytes: fewer only at the end.
    func read(_ count: Int) throws -> Data {
        var data = Data(capacity: min(count, Self.chunk))
        while data.count < count {
            if start == end { try fill() }
            if start == end { break }
            let taken = min(count - data.count, end - start)
            data.append(output + start, count: taken)
            start += taken
        }
        return data
    }

    /// Passes over `count` bytes.
    func skip(_ count: UInt64) throws {
        var left = count
        while left > 0 {
            if start == end { try fill() }
            if start == end { throw ArchiveDamage(description: "it ends inside a file: cut short (a download not finished?)") }
            let taken = Int(min(left, UInt64(end - start)))
            start += taken
            left -= UInt64(taken)
        }
    }

    /// Writes the next `count` bytes to a new file at `path`.
    func copy(_ count: UInt64, toNewFileAt path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil), let target = FileHandle(forWritingAtPath: path) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
        defer { try? target.close() }
        var left = count
        while left > 0 {
            if start == end { try fill() }
            if start == end { throw ArchiveDamage(description: "it ends inside a file: cut short (a download not finished?)") }
            let taken = Int(min(left, UInt64(end - start)))
            try target.write(contentsOf: Data(bytesNoCopy: output + start, count: taken, deallocator: .none))
            start += taken
            left -= UInt64(taken)
        }
        try target.synchronize()
    }
}
