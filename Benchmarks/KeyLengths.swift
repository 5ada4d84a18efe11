import AlbumsPersistence
import AlbumsTransfer
import Foundation
import GRDB

/// How long order keys get: bytes SQLite stores for each item's key, after
/// many random moves and after inserts that always hit the same gap.
struct KeyLengthBenchmark {
    struct Row {
        let name: String
        let mean: Double
        let p99: Int
        let max: Int
        let rowsPerOperation: Double
    }

    let folder: URL

    /// Bytes of an integer in SQLite's record format.
    static func storedBytes(_ value: Int64) -> Int {
        switch abs(value) {
        case 0...1: return 0
        case ...0x7F: return 1
        case ...0x7FFF: return 2
        case ...0x7F_FFFF: return 3
        case ...0x7FFF_FFFF: return 4
        case ...0x7FFF_FFFF_FFFF: return 6
        default: return 8
        }
    }

    func run() throws -> [Row] {
        let size = 10_000
        let (library, album, _) = try makeLibrary(count: size, in: folder.appending(path: "keys"))
        var random = SystemRandomNumberGenerator()
        var rows = 0
        for _ in 0..<(10 * size) {
            let from = Int.random(in: 0..<size, using: &random)
            let to = Int.random(in: 0..<size, using: &random)
            rows += try library.write { writer in
                let before = writer.database.totalChangesCount
                try writer.perform(.move([.position(from, in: .id(album))], to: .at(to, in: .id(album))))
                return writer.database.totalChangesCount - before
            }
        }
        let afterMoves = try stats("after \(10 * size) random moves (\(size) items)", library, album, rowsPerOperation: Double(rows) / Double(10 * size))

        let gap = try library.write { try $0.createAlbum(named: "Gap").id }
        let photos = try library.read { try PhotoID.fetchAll($0.database, sql: "SELECT id FROM photo ORDER BY id LIMIT 10002") }
        try library.write { try $0.insertPhotos([photos[0], photos[1]], into: gap) }
        rows = 0
        for photo in photos.dropFirst(2) {
            rows += try library.write { writer in
                let before = writer.database.totalChangesCount
                try writer.insertPhotos([photo], into: gap, at: 1)
                return writer.database.totalChangesCount - before
            }
        }
        let afterInserts = try stats("after 10,000 inserts into one gap", library, gap, rowsPerOperation: Double(rows) / 10_000)
        try library.close()
        return [afterMoves, afterInserts]
    }

    private func stats(_ name: String, _ library: Library, _ album: AlbumID, rowsPerOperation: Double) throws -> Row {
        let keys = try library.read { try Int64.fetchAll($0.database, sql: "SELECT order_key FROM album_item WHERE album_id = ?", arguments: [album]) }
        let bytes = keys.map(Self.storedBytes).sorted()
        return Row(
            name: name, mean: Double(bytes.reduce(0, +)) / Double(bytes.count), p99: bytes[bytes.count * 99 / 100], max: bytes.last!,
            rowsPerOperation: rowsPerOperation)
    }
}

func printKeyLengths(_ rows: [KeyLengthBenchmark.Row]) {
    print("")
    print("order keys — bytes SQLite stores per item key (the segment's key is shared by up to 2048 items)")
    for row in rows {
        print(row.name.padding(toLength: 42, withPad: " ", startingAt: 0)
            + String(format: "mean %.2f  p99 %d  max %d  rows written per operation %.2f", row.mean, row.p99, row.max, row.rowsPerOperation)
            + "   target mean ≤ 8, max ≤ 64: \(verdict(row.mean <= 8 && row.max <= 64))")
    }
}
