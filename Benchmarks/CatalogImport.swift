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
    // The same files as a Lightroom catalog organized by folders alone, as most
    // people keep one: its Folders panel is the tree, under "Lightroom/Folders/…".
    let lightroom = folder.appending(path: "catalog-lightroom.lrcat").path
    try? FileManager.default.removeItem(atPath: lightroom)
    try DatabaseQueue(path: lightroom).write { db in
        try db.execute(sql: """
            CREATE TABLE AgLibraryRootFolder (id_local INTEGER PRIMARY KEY, absolutePath TEXT, name TEXT, relativePathFromCatalog TEXT);
            CREATE TABLE AgLibraryFolder (id_local INTEGER PRIMARY KEY, pathFromRoot TEXT, rootFolder INTEGER);
            CREATE TABLE AgLibraryFile (id_local INTEGER PRIMARY KEY, baseName TEXT, extension TEXT, folder INTEGER, sidecarExtensions TEXT);
            CREATE TABLE Adobe_images (id_local INTEGER PRIMARY KEY, rootFile INTEGER, captureTime TEXT, fileFormat TEXT, masterImage INTEGER,
                pick INTEGER NOT NULL DEFAULT 0, rating INTEGER);
            CREATE TABLE AgLibraryCollection (id_local INTEGER PRIMARY KEY, creationId TEXT, name TEXT, parent INTEGER, systemOnly INTEGER);
            CREATE TABLE AgLibraryCollectionImage (id_local INTEGER PRIMARY KEY, collection INTEGER, image INTEGER, positionInCollection);
            """)
        try db.execute(sql: "INSERT INTO AgLibraryRootFolder VALUES (1, ?, 'catalog-tree', NULL)", arguments: [root.path + "/"])
        for album in 0..<albums {
            try db.execute(sql: "INSERT INTO AgLibraryFolder VALUES (?, ?, 1)", arguments: [album + 1, String(format: "Album %04d/", album)])
        }
        for (index, row) in rows.enumerated() {
            let name = ((row.path as NSString).lastPathComponent as NSString).deletingPathExtension
            try db.execute(sql: "INSERT INTO AgLibraryFile VALUES (?, ?, 'jpg', ?, NULL)", arguments: [index + 1, name, row.event])
            let time = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: TimeInterval(row.time)))
            try db.execute(sql: "INSERT INTO Adobe_images VALUES (?, ?, ?, 'JPG', NULL, 0, NULL)", arguments: [index + 1, index + 1, time])
        }
    }
    let binary = albumsBinary
    var tree: [(Double, Double)] = []
    var shotwell: [(Double, Double)] = []
    var lightroomRuns: [(Double, Double)] = []
    for round in 0..<3 {
        let treeLibrary = ["ALBUMS_LIBRARY": folder.appending(path: "catalog-tree-\(round).albums").path]
        let catalogLibrary = ["ALBUMS_LIBRARY": folder.appending(path: "catalog-shotwell-\(round).albums").path]
        let lightroomLibrary = ["ALBUMS_LIBRARY": folder.appending(path: "catalog-lightroom-\(round).albums").path]
        let a = try runProcessMeasured(binary, ["import", root.path, "--tree"], environment: treeLibrary)
        let b = try runProcessMeasured(binary, ["import", "--from", "shotwell", catalog], environment: catalogLibrary)
        let c = try runProcessMeasured(binary, ["import", "--from", "lightroom", lightroom], environment: lightroomLibrary)
        tree.append((a.milliseconds / 1000, a.peakMB))
        shotwell.append((b.milliseconds / 1000, b.peakMB))
        lightroomRuns.append((c.milliseconds / 1000, c.peakMB))
        for library in [treeLibrary, catalogLibrary, lightroomLibrary] { try? FileManager.default.removeItem(atPath: library["ALBUMS_LIBRARY"]!) }
    }
    let (treeTime, shotwellTime, lightroomTime) = (tree.map(\.0).sorted()[1], shotwell.map(\.0).sorted()[1], lightroomRuns.map(\.0).sorted()[1])
    print("")
    print("catalog import vs --tree — \(photos) photos in \(albums) albums, median of 3, whole processes")
    print(String(format: "  albums import ROOT --tree            %7.2f s   peak %6.0f MB", treeTime, tree.map(\.1).max()!))
    print(String(format: "  albums import --from shotwell DB     %7.2f s   peak %6.0f MB", shotwellTime, shotwell.map(\.1).max()!))
    print(String(format: "  albums import --from lightroom LRCAT %7.2f s   peak %6.0f MB", lightroomTime, lightroomRuns.map(\.1).max()!))
    for (name, time) in [("shotwell", shotwellTime), ("lightroom", lightroomTime)] {
        print(String(format: "%@ / tree: %.2f× (target ≤ 1.2×: %@)", name, time / treeTime, time / treeTime <= 1.2 ? "pass" : "over"))
    }
    try? FileManager.default.removeItem(at: root)
}
