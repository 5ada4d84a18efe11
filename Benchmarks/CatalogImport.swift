import Foundation
import GRDB

/// Importing another organizer's catalog against importing the same files
/// as a folder tree (`--tree`), as processes, in one run: the same photos
/// in the same albums in the same order, once as folders on disk and once
/// as a Shotwell catalog's events. Peak memory of each, at two sizes, says
/// whether it stays flat.
func runCatalogBenchmark(in folder: URL, photos: Int, albums: Int) throws {
    let header = try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "Examples/Photos/01-harbour.jpg"))
    let root = folder.appending(path: "catalog-tree")
    let catalog = folder.appending(path: "catalog-photo.db").path
    var generator = SystemRandomNumberGenerator()
    var rows: [(path: String, event: Int, time: Int)] = []
    for index in 0..<photos {
        let album = index % albums
        let directory = root.appending(path: String(format: "Album %04d", album))
        if index < albums { try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true) }
        // Distinct bytes: the example's JPEG, then a few random ones.
        var data = header
        data.append(Data((0..<8).flatMap { _ in withUnsafeBytes(of: generator.next()) { Array($0) } }))
        let path = directory.appending(path: String(format: "photo-%07d.jpg", index)).path
        try data.write(to: URL(fileURLWithPath: path))
        rows.append((path, album + 1, 1_700_000_000 + index))
    }
    try? FileManager.default.removeItem(atPath: catalog)
    try DatabaseQueue(path: catalog).write { db in
        try db.execute(sql: """
            CREATE TABLE PhotoTable (id INTEGER PRIMARY KEY, filename TEXT UNIQUE NOT NULL, width INTEGER, height INTEGER, filesize INTEGER,
                timestamp INTEGER, exposure_time INTEGER, orientation INTEGER, import_id INTEGER, event_id INTEGER);
            CREATE TABLE EventTable (id INTEGER PRIMARY KEY, name TEXT, primary_photo_id INTEGER, time_created INTEGER);
            """)
        for album in 0..<albums {
            try db.execute(sql: "INSERT INTO EventTable (id, name) VALUES (?, ?)", arguments: [album + 1, String(format: "Album %04d", album)])
        }
        for row in rows {
            try db.execute(sql: "INSERT INTO PhotoTable (filename, exposure_time, event_id) VALUES (?, ?, ?)", arguments: [row.path, row.time, row.event])
        }
    }
    let binary = albumsBinary
    var tree: [(Double, Double)] = []
    var shotwell: [(Double, Double)] = []
    for round in 0..<3 {
        let treeLibrary = ["ALBUMS_LIBRARY": folder.appending(path: "catalog-tree-\(round).albums").path]
        let catalogLibrary = ["ALBUMS_LIBRARY": folder.appending(path: "catalog-shotwell-\(round).albums").path]
        let a = try runProcessMeasured(binary, ["import", root.path, "--tree"], environment: treeLibrary)
        let b = try runProcessMeasured(binary, ["import", "--from", "shotwell", catalog], environment: catalogLibrary)
        tree.append((a.milliseconds / 1000, a.peakMB))
        shotwell.append((b.milliseconds / 1000, b.peakMB))
        for library in [treeLibrary, catalogLibrary] { try? FileManager.default.removeItem(atPath: library["ALBUMS_LIBRARY"]!) }
    }
    let (treeTime, shotwellTime) = (tree.map(\.0).sorted()[1], shotwell.map(\.0).sorted()[1])
    print("")
    print("catalog import vs --tree — \(photos) photos in \(albums) albums, median of 3, whole processes")
    print(String(format: "  albums import ROOT --tree            %7.2f s   peak %6.0f MB", treeTime, tree.map(\.1).max()!))
    print(String(format: "  albums import --from shotwell DB     %7.2f s   peak %6.0f MB", shotwellTime, shotwell.map(\.1).max()!))
    print(String(format: "catalog / tree: %.2f× (target ≤ 1.2×: %@)", shotwellTime / treeTime, shotwellTime / treeTime <= 1.2 ? "pass" : "over"))
    try? FileManager.default.removeItem(at: root)
}
