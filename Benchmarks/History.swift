import AlbumsPersistence
import AlbumsTransfer
import Foundation
import GRDB

/// What recording the history costs a move: the same moves on two libraries
/// of the same album, one with the history (migrations 0005, 0008, 0010 and 0012) and one
/// without (the schema before it, as the previous albums wrote it),
/// interleaved so that noise falls on both alike. And what an undo costs.
struct HistoryBenchmark {
    struct Row {
        var size: Int
        var move: (with: Double, without: Double)
        var move1000: (with: Double, without: Double)
        var undo: Double
        var redo: Double
        var undo1000: Double
        var redo1000: Double
        var stepsPerMove: Int
        var bytesPerMove: Double
    }

    let folder: URL
    let sizes: [Int]

    func run() throws -> [Row] {
        var without = Library.Options(allowsConcurrentReads: false)
        // The folders' history (0008) rebuilds what 0005 makes: both stay out.
        without.migrations = EmbeddedMigrations.all.filter { !["history", "folder_history", "history_actors", "item_name_history", "cover_history", "smart_album_history", "history_by_person"].contains($0.name) }
        return try sizes.map { size in
            let (recording, albumA, _) = try makeLibrary(count: size, in: folder, name: "history-on")
            let (plain, albumB, _) = try makeLibrary(count: size, in: folder, options: without, name: "history-off")
            let pairs = [(TransferSession(library: recording), albumA), (TransferSession(library: plain), albumB)]
            let clock = ContinuousClock()
            var moves: [[Double]] = [[], []]
            for sample in 0..<400 {
                for (index, (session, album)) in pairs.enumerated() {
                    let from = sample % 2 == 0 ? 0 : size / 2
                    let to = sample % 2 == 0 ? size - 1 : size / 2 + 1 + sample % 3
                    moves[index].append(microseconds(try clock.measure {
                        try session.perform(.move([.position(from, in: .id(album))], to: .at(to, in: .id(album))))
                    }))
                }
            }
            var batches: [[Double]] = [[], []]
            for sample in 0..<20 {
                for (index, (session, album)) in pairs.enumerated() {
                    let batch = min(1000, size / 2)
                    let start = (sample * 37) % (size - batch)
                    batches[index].append(microseconds(try clock.measure {
                        try session.perform(.move((start..<start + batch).map { .position($0, in: .id(album)) }, to: .at((start + size / 3) % (size - batch), in: .id(album))))
                    }))
                }
            }
            // Undo and redo of one move, then of a move of 1,000 items, alternating.
            func undoRedo(_ rounds: Int) throws -> (undo: Double, redo: Double) {
                var undos: [Double] = []
                var redos: [Double] = []
                for _ in 0..<rounds {
                    undos.append(microseconds(try clock.measure { _ = try recording.write { try $0.undo() } }))
                    redos.append(microseconds(try clock.measure { _ = try recording.write { try $0.redo() } }))
                }
                return (median(undos), median(redos))
            }
            try pairs[0].0.perform(.move([.position(size / 2, in: .id(albumA))], to: .at(2, in: .id(albumA))))
            let single = try undoRedo(100)
            let batch = min(1000, size / 2)
            try pairs[0].0.perform(.move((0..<batch).map { .position($0, in: .id(albumA)) }, to: .at(size / 3, in: .id(albumA))))
            let thousand = try undoRedo(10)
            let (steps, bytes) = try recording.write { writer -> (Int, Double) in
                let db = writer.database
                let pagesBefore = try Int.fetchOne(db, sql: "SELECT count(*) FROM dbstat WHERE name = 'history_step'") ?? 0
                let steps = try writer.historyStepsCount { try writer.perform(.move([.position(size / 2, in: .id(albumA))], to: .at(1, in: .id(albumA)))) }
                let rows = try Int.fetchOne(db, sql: "SELECT count(*) FROM history_step") ?? 1
                let pages = max(pagesBefore, try Int.fetchOne(db, sql: "SELECT count(*) FROM dbstat WHERE name = 'history_step'") ?? 0)
                let pageSize = try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 4096
                return (steps, Double(pages * pageSize) / Double(max(rows, 1)))
            }
            for library in [recording, plain] {
                let violations = try library.read { try $0.invariantViolations() }
                guard violations.isEmpty else { fatalError("benchmark left a broken library: \(violations)") }  // trap: a bug in albums
                try library.close()
            }
            return Row(
                size: size, move: (median(moves[0]), median(moves[1])), move1000: (median(batches[0]), median(batches[1])),
                undo: single.undo, redo: single.redo, undo1000: thousand.undo, redo1000: thousand.redo, stepsPerMove: steps, bytesPerMove: bytes * Double(steps))
        }
    }
}

extension LibraryWriter {
    /// History steps `body` writes.
    fileprivate func historyStepsCount(_ body: () throws -> Void) throws -> Int {
        let newest = "SELECT coalesce(max(id), 0) FROM history_step"
        let before = try Int.fetchOne(database, sql: newest) ?? 0
        try body()
        return (try Int.fetchOne(database, sql: newest) ?? 0) - before
    }
}

func printHistory(_ rows: [HistoryBenchmark.Row]) {
    print("history — what recording costs a move: median µs, the same moves with the history and without it (the schema before it), interleaved")
    let header = ["items", "move with", "without", "ratio", "move 1000 with", "without", "ratio", "undo", "redo", "undo 1000", "redo 1000", "steps/move", "bytes/move"]
    print(header.map { pad($0, 15) }.joined())
    for row in rows {
        let cells = [String(row.size), format(row.move.with), format(row.move.without), String(format: "%.2f×", row.move.with / row.move.without),
            format(row.move1000.with), format(row.move1000.without), String(format: "%.2f×", row.move1000.with / row.move1000.without),
            format(row.undo), format(row.redo), format(row.undo1000), format(row.redo1000), String(row.stepsPerMove), String(format: "%.0f", row.bytesPerMove)]
        print(cells.map { pad($0, 15) }.joined())
    }
    let worst = rows.map { $0.move.with / $0.move.without }.max() ?? 0
    print(String(format: "  a move with history / without: %.2f× at worst (target ≤ 1.3×: %@)", worst, verdict(worst <= 1.3)))
}
