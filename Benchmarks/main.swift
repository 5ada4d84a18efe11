// albums benchmarks: prints a table of costs measured side by side in one run.
//
// Run with scripts/benchmark (release build). Sizes are album item counts.
import AlbumsPersistence
import AlbumsTransfer
import Foundation
import GRDB

// Usage: albums-benchmarks [moves|import|all] [ALBUM SIZES…]
let arguments = Array(CommandLine.arguments.dropFirst())
let section = arguments.first.flatMap { ["moves", "import", "all"].contains($0) ? $0 : nil } ?? "all"
let sizes = arguments.compactMap { Int($0) }.nilIfEmpty ?? [100, 10_000, 1_000_000]
let folder = FileManager.default.temporaryDirectory.appending(path: "albums-benchmarks-\(ProcessInfo.processInfo.processIdentifier)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }

/// A library with one album of `count` items, made fast: photos in one statement, items through the API.
func makeLibrary(count: Int) throws -> (Library, AlbumID) {
    let library = try Library.open(at: folder.appending(path: "album-\(count).albums").path, options: Library.Options(allowsConcurrentReads: false))
    let album = try library.write { writer in
        try writer.database.execute(
            sql: """
                WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < ?)
                INSERT INTO photo (sha256, byte_count, media_type, original_name, source_path)
                SELECT randomblob(32), x, 'image/jpeg', 'photo' || x || '.jpg', '/photos/photo' || x || '.jpg' FROM n
                """,
            arguments: [count])
        let album = try writer.createAlbum(named: "Album").id
        try writer.insertPhotos(try PhotoID.fetchAll(writer.database, sql: "SELECT id FROM photo ORDER BY id"), into: album)
        return album
    }
    return (library, album)
}

struct Row {
    var size: Int
    var setup: Double
    var proposal: Double
    var moveStartToEnd: Double
    var moveEndToStart: Double
    var moveMiddle: Double
    var move1000: Double
    var rowsPerMove: Int
}

/// Measures `operation` on every album round-robin, `samples` times, so that
/// noise on this shared machine falls on all sizes alike; returns each
/// size's median in microseconds.
func interleavedMedians(_ albums: [(Library, AlbumID, Int)], samples: Int, _ operation: (TransferSession, AlbumID, Int, Int) throws -> Void) throws -> [Double] {
    let sessions = albums.map { TransferSession(library: $0.0) }
    var timings = Array(repeating: [Double](), count: albums.count)
    let clock = ContinuousClock()
    for sample in 0..<samples {
        for (index, (_, album, size)) in albums.enumerated() {
            let elapsed = try clock.measure { try operation(sessions[index], album, size, sample) }
            timings[index].append(Double(elapsed.components.attoseconds) / 1e12 + Double(elapsed.components.seconds) * 1e6)
        }
    }
    return timings.map { $0.sorted()[$0.count / 2] }
}

var rows: [Row] = []
if section != "import" {
    let clock = ContinuousClock()
    var albums: [(Library, AlbumID, Int)] = []
    var setups: [Double] = []
    for size in sizes {
        var made: (Library, AlbumID)!
        let setup = try clock.measure { made = try makeLibrary(count: size) }
        albums.append((made.0, made.1, size))
        setups.append(Double(setup.components.seconds) + Double(setup.components.attoseconds) / 1e18)
    }
    let samples = 300
    let proposal = try interleavedMedians(albums, samples: samples) { session, album, size, sample in
        _ = try session.propose(.move([.position((size / 2 + sample) % size, in: .id(album))], to: .at(sample % size, in: .id(album))))
    }
    let startToEnd = try interleavedMedians(albums, samples: samples) { session, album, _, _ in
        try session.perform(.move([.position(0, in: .id(album))], to: .into(.id(album))))
    }
    let endToStart = try interleavedMedians(albums, samples: samples) { session, album, size, _ in
        try session.perform(.move([.position(size - 1, in: .id(album))], to: .at(0, in: .id(album))))
    }
    let middle = try interleavedMedians(albums, samples: samples) { session, album, size, sample in
        try session.perform(.move([.position(size / 2, in: .id(album))], to: .at(size / 2 + 1 + sample % 3, in: .id(album))))
    }
    let move1000 = try interleavedMedians(albums, samples: 20) { session, album, size, sample in
        let batch = min(1000, size / 2)
        let start = (sample * 37) % (size - batch)
        try session.perform(.move((start..<start + batch).map { .position($0, in: .id(album)) }, to: .at((start + size / 3) % (size - batch), in: .id(album))))
    }
    for (index, (library, album, size)) in albums.enumerated() {
        let rowsPerMove = try library.write { writer in
            let before = writer.database.totalChangesCount
            try writer.perform(.move([.position(size / 2, in: .id(album))], to: .at(1, in: .id(album))))
            return writer.database.totalChangesCount - before
        }
        let violations = try library.read { try $0.invariantViolations() }
        guard violations.isEmpty else { fatalError("benchmark left a broken library: \(violations)") }  // trap: a bug in albums
        try library.close()
        rows.append(Row(
            size: size, setup: setups[index], proposal: proposal[index], moveStartToEnd: startToEnd[index],
            moveEndToStart: endToStart[index], moveMiddle: middle[index], move1000: move1000[index], rowsPerMove: rowsPerMove))
    }
}

if section != "import" {
    printMoveTable(rows)
}
if section != "moves" {
    try runImportBenchmark(in: folder)
}

func format(_ value: Double) -> String { String(format: value < 100 ? "%.1f" : "%.0f", value) }
func pad(_ text: String, _ width: Int) -> String { String(repeating: " ", count: max(0, width - text.count)) + text }

func printMoveTable(_ rows: [Row]) {
print("albums benchmarks — median µs per operation (one transaction each), sizes interleaved; rows = SQLite rows written")
let header = ["items", "setup s", "proposal", "move 1st→end", "move end→1st", "move middle", "move 1000", "rows/move"]
print(header.map { pad($0, 13) }.joined())
for row in rows {
    print([String(row.size), String(format: "%.1f", row.setup), format(row.proposal), format(row.moveStartToEnd),
        format(row.moveEndToStart), format(row.moveMiddle), format(row.move1000), String(row.rowsPerMove)].map { pad($0, 13) }.joined())
}
if let small = rows.first, let large = rows.last, rows.count > 1 {
    let worst = [large.moveStartToEnd / small.moveStartToEnd, large.moveEndToStart / small.moveEndToStart, large.moveMiddle / small.moveMiddle].max()!
    print(String(format: "move cost, %d vs %d items: %.2f× at worst (target ≤ 2×: %@)", large.size, small.size, worst, worst <= 2 ? "pass" : "short"))
    print(String(format: "proposal cost, %d vs %d items: %.2f×", large.size, small.size, large.proposal / small.proposal))
}
}

extension Array {
    var nilIfEmpty: Self? { isEmpty ? nil : self }
}
