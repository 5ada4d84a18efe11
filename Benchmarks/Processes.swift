import Foundation

/// `albums` as a process against `sqlite3` doing the same work, on the same files.
struct ProcessBenchmark {
    struct Row {
        let name: String
        let albums: Double
        /// `albums-floor` doing the same, when it has the command.
        let floor: Double?
        let sqlite: Double
        let target: Double
    }

    let folder: URL

    /// The installed (stripped) size of each binary, in bytes.
    struct InstalledSize {
        let name: String
        let bytes: Int
    }

    func run() throws -> (rows: [Row], sizes: [InstalledSize]) {
        let small = try makeLibrary(count: 3_000, in: folder.appending(path: "process-3k"))
        try small.0.close()
        let listed = try makeLibrary(count: 100_000, in: folder.appending(path: "process-100k"))
        try listed.0.close()
        let large = try makeLibrary(count: 1_000_000, in: folder.appending(path: "process-1m"))
        try large.0.close()
        let sqlite = "/usr/bin/sqlite3"
        // Measured as the README installs them: copied. A binary's start-up
        // cost depends on how its pages sit in the page cache (just written
        // by a copy or the linker, or read back from disk), and a floor
        // linked hours before albums would be measured in another state.
        // Copies put both in the same one, however long ago each was built.
        let installed = folder.appending(path: "installed")
        try FileManager.default.createDirectory(at: installed, withIntermediateDirectories: true)
        let albumsInstalled = try install(albumsBinary, into: installed)
        let floorInstalled = try install(floorBinary, into: installed)
        let serveInstalled = try install((albumsBinary as NSString).deletingLastPathComponent + "/albums-serve", into: installed)
        let sizes = try [albumsInstalled, serveInstalled, floorInstalled].map { path in
            InstalledSize(name: (path as NSString).lastPathComponent, bytes: try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0)
        }

        // Interleaved: each round runs every command once.
        func compare(
            _ name: String, rounds: Int, target: Double, albums: [String], floor: [String]? = nil, sqlite sqliteArguments: [String]
        ) throws -> Row {
            var ours: [Double] = []
            var floors: [Double] = []
            var theirs: [Double] = []
            for _ in 0..<rounds {
                ours.append(try runProcess(albumsInstalled, albums))
                if let floor { floors.append(try runProcess(floorInstalled, floor)) }
                theirs.append(try runProcess(sqlite, sqliteArguments))
            }
            return Row(name: name, albums: median(ours), floor: floors.isEmpty ? nil : median(floors), sqlite: median(theirs), target: target)
        }
        let listSQL = """
            SELECT i.id, i.photo_id, p.original_name, p.media_type, p.pixel_width, p.pixel_height, p.captured_at,
                p.byte_count, hex(p.sha256), p.source_path
            FROM album_segment s CROSS JOIN album_item i ON i.segment_id = s.id LEFT JOIN photo p ON p.id = i.photo_id
            WHERE s.album_id = 1 ORDER BY s.order_key, i.order_key
            """
        let rows = [
            try compare("start-up: --version", rounds: 80, target: 2,
                albums: ["--version"], floor: ["--version"], sqlite: ["--version"]),
            try compare("move 1 item (3,000 items)", rounds: 80, target: 2,
                albums: ["--library", small.path, "move", "Album:1", "--to", "Album"],
                floor: ["move", "--library", small.path, "Album:1", "--to", "Album"],
                sqlite: [small.path, "UPDATE album_item SET order_key = order_key WHERE id = 1"]),
            try compare("album list (3,000 items)", rounds: 80, target: 2,
                albums: ["--library", small.path, "album", "list"],
                floor: ["album", "list", "--library", small.path],
                sqlite: [small.path, "SELECT name, item_count, placeholder_count, revision, is_locked FROM album ORDER BY order_key"]),
            try compare("list --json (100,000 items)", rounds: 10, target: 1.5,
                albums: ["--library", listed.path, "--json", "list", "Album"],
                sqlite: ["-json", listed.path, listSQL]),
            try compare("inspect (1,000,000 items)", rounds: 5, target: 1.5,
                albums: ["--library", large.path, "inspect"],
                sqlite: [large.path, "PRAGMA quick_check"]),
        ]
        return (rows, sizes)
    }
}

/// Copies `binary` into `folder` and strips it, as `scripts/install`
/// installs it; returns the copy's path.
private func install(_ binary: String, into folder: URL) throws -> String {
    let copy = folder.appending(path: URL(fileURLWithPath: binary).lastPathComponent)
    try? FileManager.default.removeItem(at: copy)
    try FileManager.default.copyItem(at: URL(fileURLWithPath: binary), to: copy)
    _ = try runProcess("/usr/bin/objcopy", ["--strip-all", copy.path])
    return copy.path
}

func printProcesses(_ result: (rows: [ProcessBenchmark.Row], sizes: [ProcessBenchmark.InstalledSize])) {
    let rows = result.rows
    print("")
    print("installed as scripts/install installs them (stripped): "
        + result.sizes.map { "\($0.name) " + String(format: "%.1f MB", Double($0.bytes) / 1_000_000) }.joined(separator: ", "))
    print("albums as a process vs sqlite3 — median ms of wall time, runs interleaved (binaries copied from: \((albumsBinary as NSString).deletingLastPathComponent))")
    print("  floor: albums-floor, albums' dependencies (ArgumentParser, GRDB, Foundation) doing sqlite3's SQL and nothing else")
    print(pad("", 30) + pad("albums", 10) + pad("floor", 10) + pad("sqlite3", 10) + pad("ratio", 8) + pad("floor/sqlite3", 15) + pad("albums/floor", 14))
    for row in rows {
        let ratio = row.albums / row.sqlite
        let floor = row.floor.map { String(format: "%.1f", $0) } ?? "-"
        let floorRatio = row.floor.map { String(format: "%.2f×", $0 / row.sqlite) } ?? "-"
        let overFloor = row.floor.map { String(format: "%.2f×", row.albums / $0) } ?? "-"
        print(row.name.padding(toLength: 30, withPad: " ", startingAt: 0) + pad(String(format: "%.1f", row.albums), 10)
            + pad(floor, 10) + pad(String(format: "%.1f", row.sqlite), 10) + pad(String(format: "%.2f×", ratio), 8)
            + pad(floorRatio, 15) + pad(overFloor, 14)
            + String(format: "   target ≤ %.1f×: %@", row.target, verdict(ratio <= row.target))
            + (row.floor.map { String(format: "; albums/floor ≤ %.2f×: %@", ProcessBenchmark.Row.floorTarget, verdict(row.albums / $0 <= ProcessBenchmark.Row.floorTarget)) } ?? ""))
    }
}

extension ProcessBenchmark.Row {
    /// albums' own work on top of its dependencies' (issue 27).
    static let floorTarget = 1.35
}
