import AlbumsPersistence
import AlbumsTransfer
import Foundation
import GRDB

/// The tree of folders at a family's scale and beyond: 10,000 albums in
/// 1,000 folders (100 at the top level, 9 in each of them, 10 albums in
/// each folder). Moving an album among them against the floor of a move
/// (one UPDATE of one row in an IMMEDIATE transaction, same connection),
/// and `album list --tree --json` as a process against `sqlite3 -json`
/// reading the same columns of the same file.
struct TreeBenchmark {
    struct Result {
        var move: Double
        var floor: Double
        var rowsPerMove: Int
        var list: Double
        var sqlite: Double
        /// `albums-floor album list`: albums' dependencies reading and printing the same albums.
        var floorList: Double
        var albums: Int
        var folders: Int
    }

    let folder: URL

    func run() throws -> Result {
        let path = folder.appending(path: "tree.albums").path
        let library = try Library.open(at: path, options: Library.Options(allowsConcurrentReads: false))
        var leaves: [FolderID] = []
        var albums: [AlbumID] = []
        try library.write { writer in
            for top in 0..<100 {
                let parent = try writer.createFolder(named: "Folder \(top)", placement: .into(nil))
                leaves.append(parent.id)
                for inner in 0..<9 {
                    leaves.append(try writer.createFolder(named: "Folder \(top).\(inner)", placement: .into(.id(parent.id))).id)
                }
            }
            for (index, leaf) in leaves.enumerated() {
                for number in 0..<10 {
                    albums.append(try writer.createAlbum(named: "Album \(index).\(number)", placement: .into(.id(leaf))).id)
                }
            }
        }
        let session = TransferSession(library: library)
        let clock = ContinuousClock()
        var moves: [Double] = []
        var floors: [Double] = []
        // Interleaved: an album into another folder at a place, then the floor.
        for sample in 0..<400 {
            let album = albums[(sample * 7_919) % albums.count]
            let destination = leaves[(sample * 104_729) % leaves.count]
            moves.append(microseconds(try clock.measure {
                try session.perform(.album(.move(.id(album), to: .at(sample % 10, in: .id(destination)))))
            }))
            floors.append(microseconds(try clock.measure {
                try library.write { writer in
                    try writer.database.execute(sql: "UPDATE album SET order_key = order_key WHERE id = ?", arguments: [album])
                }
            }))
        }
        // Rows of the tree written by one move, the history's and the journal's counted apart.
        let rowsPerMove = try library.write { writer in
            let before = writer.database.totalChangesCount
            let steps = "SELECT coalesce(max(id), 0) FROM history_step"
            let stepsBefore = try Int.fetchOne(writer.database, sql: steps) ?? 0
            try writer.moveAlbum(albums[0], to: .at(3, in: .id(leaves[500])))
            return writer.database.totalChangesCount - before - ((try Int.fetchOne(writer.database, sql: steps) ?? 0) - stepsBefore)
        }
        let violations = try library.read { try $0.invariantViolations() }
        guard violations.isEmpty else { fatalError("benchmark left a broken library: \(violations)") }  // trap: a bug in albums
        try library.close()

        var lists: [Double] = []
        var sqlites: [Double] = []
        var floorLists: [Double] = []
        for _ in 0..<20 {
            floorLists.append(try runProcess(floorBinary, ["album", "list", "--library", path]))
            lists.append(try runProcess(albumsBinary, ["--library", path, "--json", "album", "list", "--tree"]))
            sqlites.append(try runProcess("/usr/bin/sqlite3", [
                "-json", path,
                "SELECT id, name, parent_id, order_key, is_locked, revision, item_count, placeholder_count FROM album;"
                    + " SELECT id, name, parent_id, order_key, is_locked, revision FROM folder",
            ]))
        }
        return Result(
            move: median(moves), floor: median(floors), rowsPerMove: rowsPerMove, list: median(lists), sqlite: median(sqlites), floorList: median(floorLists),
            albums: albums.count, folders: leaves.count)
    }
}

func printTree(_ result: TreeBenchmark.Result) {
    print("")
    print("the tree: \(result.albums.formatted()) albums in \(result.folders.formatted()) folders — medians, runs interleaved")
    let moveRatio = result.move / result.floor
    print("  move an album into a folder at a place: \(format(result.move)) µs; floor (one-row UPDATE transaction) \(format(result.floor)) µs; "
        + String(format: "%.2f×", moveRatio) + "   target ≤ 3×: \(verdict(moveRatio <= 3)); rows written \(result.rowsPerMove)")
    let listRatio = result.list / result.sqlite
    print("  album list --tree --json (a process): \(format(result.list)) ms; sqlite3 -json, same columns \(format(result.sqlite)) ms; "
        + String(format: "%.2f×", listRatio) + "   target ≤ 1.5×: \(verdict(listRatio <= 1.5))")
    print("    floor: albums-floor album list (GRDB reading and printing the same albums, no folders) \(format(result.floorList)) ms; albums "
        + String(format: "%.2f×", result.list / result.floorList) + " of it")
}
