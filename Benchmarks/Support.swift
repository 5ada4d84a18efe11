import AlbumsPersistence
import Foundation
import GRDB

/// Microseconds in a Duration.
func microseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

func format(_ value: Double) -> String { String(format: value < 100 ? "%.1f" : "%.0f", value) }

func pad(_ text: String, _ width: Int) -> String { String(repeating: " ", count: max(0, width - text.count)) + text }

func verdict(_ passes: Bool) -> String { passes ? "pass" : "short" }

/// A library with one album ("Album") of `count` items, made fast: photos
/// in one statement, items through the API.
func makeLibrary(count: Int, in folder: URL) throws -> (Library, AlbumID, path: String) {
    let path = folder.appending(path: "album-\(count).albums").path
    let library = try Library.open(at: path, options: Library.Options(allowsConcurrentReads: false))
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
    return (library, album, path)
}

/// Wall time of a process run, in milliseconds; its output discarded.
func runProcess(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Double {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    let start = ContinuousClock.now
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        fatalError("\(executable) \(arguments.joined(separator: " ")) exited with \(process.terminationStatus)")  // trap: the benchmark's own setup failed
    }
    return microseconds(ContinuousClock.now - start) / 1000
}

/// The `albums` binary built beside this one (release; static when scripts/benchmark built it so).
let albumsBinary: String = {
    let environment = ProcessInfo.processInfo.environment["ALBUMS_BINARY"]
    return environment ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appending(path: "albums").path
}()
