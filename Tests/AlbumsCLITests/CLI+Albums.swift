import AlbumsTestSupport
import Foundation
import Testing

/// What the import tests read back through the CLI itself.
extension CLI {
    /// The JSON object a command printed.
    func json(_ result: Result) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout) \(result.stderr)")
    }

    /// Every album by its path in the tree ("Folder/Album"), with its items'
    /// file names in order (nil: a placeholder), as `album list` and `list` print them.
    func albumsByPath() throws -> [String: [String?]] {
        let list = try json(try run("--json", "album", "list"))
        var paths: [Int: String] = [:]
        for folder in list["folders"] as? [[String: Any]] ?? [] { paths[folder["id"] as? Int ?? 0] = folder["path"] as? String }
        var albums: [String: [String?]] = [:]
        for album in try #require(list["albums"] as? [[String: Any]]) {
            let name = try #require(album["name"] as? String)
            let items = try json(try run("--json", "list", name))["items"] as? [[String: Any]] ?? []
            let place = (album["parent_id"] as? Int).flatMap { paths[$0] }.map { $0 + "/" } ?? ""
            albums[place + name] = items.map { ($0["file"] as? String).map { ($0 as NSString).lastPathComponent } }
        }
        return albums
    }

    /// Copies an example photo to `path`, making the folders on the way.
    func copyExample(_ example: String, to path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: CLI.examplePhotos + "/" + example, toPath: path)
    }

    /// Writes the smallest MP4 albums reads as a video at `path` (an `ftyp`
    /// box of a video's brands and a movie box; no picture), making the
    /// folders on the way; with `milliseconds`, a movie header saying it runs that long.
    func writeMovie(to path: String, milliseconds: UInt32? = nil) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let ftyp = Data([0, 0, 0, 0x20]) + Data("ftypisom\0\0\u{2}\0isomiso2avc1mp41".utf8)
        func bigEndian(_ value: UInt32) -> Data { Data([UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]) }
        // Version and flags, two times, a time scale of 1000, the length, then the header's other 80 bytes.
        let header = milliseconds.map { Data(count: 12) + bigEndian(1000) + bigEndian($0) + Data(count: 80) }
        let inner = (header.map { bigEndian(UInt32(8 + $0.count)) + Data("mvhd".utf8) + $0 } ?? Data()) + Data([0, 0, 0, 8]) + Data("trak".utf8)
        try (ftyp + bigEndian(UInt32(8 + inner.count)) + Data("moov".utf8) + inner).write(to: URL(fileURLWithPath: path))
    }

    /// Damages the catalog file at `file` (its header kept, every page after
    /// it overwritten), imports `catalog` as `kind`, and checks the refusal:
    /// one line, exit status 1, the catalog unchanged, nothing written
    /// beside it, the library as it was.
    func expectDamagedCatalogRefused(_ kind: String, catalog: String, file: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        var bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        for index in 100..<bytes.count { bytes[index] = 0xA5 }
        try bytes.write(to: URL(fileURLWithPath: file))
        let folder = (file as NSString).deletingLastPathComponent
        // The library's own files (its -wal and -shm come and go) are not the catalog's neighbours.
        let library = (libraryPath as NSString).lastPathComponent
        func beside() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix(library) }.sorted() }
        let before = (try beside(), try run("--json", "album", "list").stdout)
        let damaged = try run("import", "--from", kind, catalog)
        #expect(damaged.status == 65 && damaged.stderr.split(separator: "\n").count == 1, "\(damaged.stderr)", sourceLocation: sourceLocation)
        #expect(damaged.stderr.contains("cannot read \(file)"), "\(damaged.stderr)", sourceLocation: sourceLocation)
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == bytes, "the catalog is never written", sourceLocation: sourceLocation)
        let after = try beside()
        #expect(after == before.0, "no file beside it: \(Set(after).symmetricDifference(before.0))", sourceLocation: sourceLocation)
        #expect(try run("--json", "album", "list").stdout == before.1, sourceLocation: sourceLocation)
    }
}
