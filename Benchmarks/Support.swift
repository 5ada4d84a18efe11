import AlbumsPersistence
import Foundation
#if canImport(Glibc)
    import Glibc
#endif
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
func makeLibrary(
    count: Int, in folder: URL, options: Library.Options = Library.Options(allowsConcurrentReads: false), name: String = "album"
) throws -> (Library, AlbumID, path: String) {
    let path = folder.appending(path: "\(name)-\(count).albums").path
    let (library, album) = try makeLibrary(count: count, at: path, options: options)
    return (library, album, path)
}

/// The same at `path`, the album named `album`.
@discardableResult
func makeLibrary(
    count: Int, at path: String, options: Library.Options = Library.Options(allowsConcurrentReads: false), album name: String = "Album"
) throws -> (Library, AlbumID) {
    let library = try Library.open(at: path, options: options)
    let album = try library.write { writer in
        try writer.database.execute(
            sql: """
                WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < ?)
                INSERT INTO photo (sha256, byte_count, media_type, original_name, source_path)
                SELECT randomblob(32), x, 'image/jpeg', 'photo' || x || '.jpg', '/photos/photo' || x || '.jpg' FROM n
                """,
            arguments: [count])
        let album = try writer.createAlbum(named: name).id
        try writer.insertPhotos(try PhotoID.fetchAll(writer.database, sql: "SELECT id FROM photo ORDER BY id"), into: album)
        return album
    }
    return (library, album)
}

/// Wall time of a process run, in milliseconds; its output discarded.
///
/// posix_spawn and waitpid, not Foundation's Process: on Linux its
/// waitUntilExit polls a run loop and adds about 50 ms to every run, which
/// hid every process's own cost (an earlier version of this table showed
/// `albums --version` and `sqlite3 --version` both at 51 ms).
func runProcess(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Double {
    try runProcessMeasured(executable, arguments, environment: environment).milliseconds
}

/// Runs a process to its end: its wall time, and its peak resident memory (from wait4's rusage).
func runProcessMeasured(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws -> (milliseconds: Double, peakMB: Double) {
    var actions: posix_spawn_file_actions_t = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let merged = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
        for pointer in argv { free(pointer) }
        for pointer in envp { free(pointer) }
    }
    var pid: pid_t = 0
    let start = ContinuousClock.now
    guard posix_spawn(&pid, executable, &actions, nil, argv, envp) == 0 else {
        fatalError("cannot start \(executable)")  // trap: the benchmark's own setup failed
    }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) == -1 && errno == EINTR {}
    let elapsed = microseconds(ContinuousClock.now - start) / 1000
    guard status == 0 else {
        fatalError("\(executable) \(arguments.joined(separator: " ")) exited with status \(status)")  // trap: the benchmark's own setup failed
    }
    return (elapsed, Double(usage.ru_maxrss) / 1024)
}

/// The `albums` binary built beside this one (release; static when scripts/benchmark built it so).
let albumsBinary: String = {
    let environment = ProcessInfo.processInfo.environment["ALBUMS_BINARY"]
    return environment ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appending(path: "albums").path
}()

/// `albums-floor` (Benchmarks/Floor): albums' dependencies doing sqlite3's SQL, beside albums.
let floorBinary: String = URL(fileURLWithPath: albumsBinary).deletingLastPathComponent().appending(path: "albums-floor").path
