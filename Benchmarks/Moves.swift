import AlbumsPersistence
import AlbumsTransfer
import Foundation
import GRDB

/// Moves through the library API against the floor (one UPDATE of one row
/// in an IMMEDIATE transaction, same file, same connection) and against
/// renumbering contiguous positions (what most apps do).
struct MoveBenchmark {
    struct Row {
        var size: Int
        var setup: Double
        var proposal: Double
        var moves: [Double]  // first→end, end→first, middle
        var floor: Double
        var naive: [Double]
        var move1000: Double
        var rowsPerMove: Int
    }

    let folder: URL
    let sizes: [Int]

    func run() throws -> [Row] {
        var albums: [(Library, AlbumID, Int)] = []
        var setups: [Double] = []
        for size in sizes {
            let start = ContinuousClock.now
            let (library, album, _) = try makeLibrary(count: size, in: folder)
            setups.append(microseconds(ContinuousClock.now - start) / 1e6)
            albums.append((library, album, size))
        }
        let samples = 300
        let proposal = try interleaved(albums, samples) { session, album, size, sample in
            _ = try session.propose(.move([.position((size / 2 + sample) % size, in: .id(album))], to: .at(sample % size, in: .id(album))))
        }
        let firstToEnd = try interleaved(albums, samples) { session, album, _, _ in
            try session.perform(.move([.position(0, in: .id(album))], to: .into(.id(album))))
        }
        let endToFirst = try interleaved(albums, samples) { session, album, size, _ in
            try session.perform(.move([.position(size - 1, in: .id(album))], to: .at(0, in: .id(album))))
        }
        let middle = try interleaved(albums, samples) { session, album, size, sample in
            try session.perform(.move([.position(size / 2, in: .id(album))], to: .at(size / 2 + 1 + sample % 3, in: .id(album))))
        }
        let floor = try interleaved(albums, samples) { session, album, size, sample in
            try session.library.write { writer in
                try writer.database.execute(sql: "UPDATE album_item SET order_key = order_key WHERE id = ?", arguments: [1 + sample % size])
            }
        }
        let move1000 = try interleaved(albums, 20) { session, album, size, sample in
            let batch = min(1000, size / 2)
            let start = (sample * 37) % (size - batch)
            try session.perform(.move((start..<start + batch).map { .position($0, in: .id(album)) }, to: .at((start + size / 3) % (size - batch), in: .id(album))))
        }
        var rows: [Row] = []
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
                size: size, setup: setups[index], proposal: proposal[index],
                moves: [firstToEnd[index], endToFirst[index], middle[index]], floor: floor[index],
                naive: try naiveMoves(size: size), move1000: move1000[index], rowsPerMove: rowsPerMove))
        }
        return rows
    }

    /// Round-robin over the albums, so that noise falls on every size alike.
    private func interleaved(
        _ albums: [(Library, AlbumID, Int)], _ samples: Int, _ operation: (TransferSession, AlbumID, Int, Int) throws -> Void
    ) throws -> [Double] {
        let sessions = albums.map { TransferSession(library: $0.0) }
        var timings = Array(repeating: [Double](), count: albums.count)
        let clock = ContinuousClock()
        for sample in 0..<samples {
            for (index, (_, album, size)) in albums.enumerated() {
                timings[index].append(microseconds(try clock.measure { try operation(sessions[index], album, size, sample) }))
            }
        }
        return timings.map(median)
    }

    /// The same three moves with contiguous positions 0…n-1, renumbering
    /// every item between the two places: first→end, end→first, middle.
    private func naiveMoves(size: Int) throws -> [Double] {
        var configuration = Configuration()
        configuration.journalMode = .wal
        let queue = try DatabaseQueue(path: folder.appending(path: "naive-\(size).sqlite").path, configuration: configuration)
        try queue.write { db in
            try db.execute(sql: """
                CREATE TABLE item (id INTEGER PRIMARY KEY, album_id INTEGER NOT NULL, position INTEGER NOT NULL, photo_id INTEGER NOT NULL);
                CREATE INDEX item_position ON item (album_id, position);
                WITH RECURSIVE n(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM n WHERE x < \(size - 1))
                INSERT INTO item (album_id, position, photo_id) SELECT 1, x, x + 1 FROM n;
                """)
        }
        func move(from: Int, to: Int) throws {
            try queue.write { db in
                guard let id = try Int64.fetchOne(db, sql: "SELECT id FROM item WHERE album_id = 1 AND position = ?", arguments: [from]) else { return }
                if from < to {
                    try db.execute(sql: "UPDATE item SET position = position - 1 WHERE album_id = 1 AND position > ? AND position <= ?", arguments: [from, to])
                } else {
                    try db.execute(sql: "UPDATE item SET position = position + 1 WHERE album_id = 1 AND position >= ? AND position < ?", arguments: [to, from])
                }
                try db.execute(sql: "UPDATE item SET position = ? WHERE id = ?", arguments: [to, id])
            }
        }
        // Renumbering a million rows takes a second: fewer samples for large albums.
        let samples = size >= 100_000 ? 5 : 100
        let clock = ContinuousClock()
        let moves = [(0, size - 1), (size - 1, 0), (size / 2, size / 2 + 2)]
        return try moves.map { from, to in
            median(try (0..<samples).map { _ in microseconds(try clock.measure { try move(from: from, to: to) }) })
        }
    }
}

func printMoves(_ rows: [MoveBenchmark.Row]) {
    print("moves — median µs per operation, one transaction each, sizes interleaved")
    print("  floor: one UPDATE of one row in an IMMEDIATE transaction on the same file; naive: renumbering contiguous positions")
    let header = ["items", "setup s", "proposal", "1st→end", "end→1st", "middle", "floor", "naive 1st→end", "naive end→1st", "naive mid", "move 1000", "rows/move"]
    print(header.map { pad($0, 14) }.joined())
    for row in rows {
        let cells = [String(row.size), String(format: "%.1f", row.setup), format(row.proposal)] + row.moves.map(format)
            + [format(row.floor)] + row.naive.map(format) + [format(row.move1000), String(row.rowsPerMove)]
        print(cells.map { pad($0, 14) }.joined())
    }
    guard let small = rows.first, let large = rows.last, rows.count > 1 else { return }
    let sizeRatio = zip(large.moves, small.moves).map { $0 / $1 }.max()!
    print(String(format: "  move, %d vs %d items: %.2f× at worst (target ≤ 2×: %@)", large.size, small.size, sizeRatio, verdict(sizeRatio <= 2)))
    for row in rows {
        let floorRatio = row.moves.max()! / row.floor
        print(String(format: "  %8d items: library move / floor %.2f× at worst (target ≤ 3×: %@); naive first→end / library %.1f×",
            row.size, floorRatio, verdict(floorRatio <= 3), row.naive[0] / row.moves[0]))
    }
    print(String(format: "  proposal, %d vs %d items: %.2f×", large.size, small.size, large.proposal / small.proposal))
}
