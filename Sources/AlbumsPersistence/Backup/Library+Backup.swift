import Foundation
import GRDB

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What ``Library/backUp(to:replacing:)`` made.
public struct LibraryBackup: Hashable, Sendable {
    /// The backup file.
    public let path: String
    /// The copy's size in bytes.
    public let byteCount: Int64
    /// The albums the copy holds.
    public let albumCount: Int
    /// The photos the copy holds.
    public let photoCount: Int
    /// The album items the copy holds, placeholders included.
    public let itemCount: Int
    /// The newest change the snapshot holds: the change journal's sequence
    /// (``CommittedChange/sequence``), 0 if none.
    public let lastChange: Int64
}

extension Library {
    /// Copies the library, as one consistent snapshot, to a new file at
    /// `destination`, while other connections and processes go on writing;
    /// checks the copy (SQLite's `integrity_check` and every invariant)
    /// before it takes the name `destination`.
    ///
    /// The copy is SQLite's online backup, made in one step from one read
    /// transaction: it holds every change committed before it began and
    /// none after, and writers never wait for it. It is written beside the
    /// destination under a temporary name, synced, checked, then renamed,
    /// so `destination` is either the checked backup or untouched.
    ///
    /// - Parameters:
    ///   - destination: The backup file; its folder must exist.
    ///   - replacing: Whether an existing file at `destination` is replaced.
    /// - Throws: ``LibraryError/fileExists(path:)`` unless `replacing`;
    ///   ``LibraryError/backupFailedCheck(path:problem:)`` if the copy does
    ///   not check clean (nothing is left at `destination`); an I/O
    ///   ``LibraryError`` if the folder cannot be written.
    @discardableResult
    public func backUp(to destination: String, replacing: Bool = false) throws -> LibraryBackup {
        let manager = FileManager.default
        if !replacing && manager.fileExists(atPath: destination) { throw LibraryError.fileExists(path: destination) }
        let folder = LibraryPath.folder(of: destination)
        var isFolder: ObjCBool = false
        guard manager.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw LibraryError.ioFailure(path: destination, detail: "its folder does not exist")
        }
        let partial = Self.unusedPath(startingWith: destination + ".partial")
        defer {
            for suffix in ["", "-wal", "-shm", "-journal"] { try? manager.removeItem(atPath: partial + suffix) }
        }
        do {
            let copy = try DatabaseQueue(path: partial)
            try database.backup(to: copy)
            try copy.close()
        } catch {
            throw LibraryError(error, path: destination, busyTimeout: options.busyTimeout)
        }
        let backup = try Self.check(partial, reportingAs: destination)
        try Self.syncFile(partial)
        guard rename(partial, destination) == 0 else {
            throw LibraryError.ioFailure(path: destination, detail: String(cString: strerror(errno)))
        }
        try? Self.syncFile(folder)
        return backup
    }

    /// Opens the copy read-only (no side files), checks it whole, and counts what it holds.
    private static func check(_ path: String, reportingAs destination: String) throws -> LibraryBackup {
        var configuration = Configuration()
        configuration.readonly = true
        do {
            let queue = try DatabaseQueue(path: ImmutableDatabaseFile.uri(path), configuration: configuration)
            defer { try? queue.close() }
            return try queue.read { db in
                let reader = LibraryReader(db: db, path: destination)
                let report = try reader.integrityReport(thorough: true)
                var problems = report.violations.map(\.message)
                problems += try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").map { "a row of \($0[0] as String) refers to a missing row" }
                if let problem = problems.first {
                    throw LibraryError.backupFailedCheck(path: destination, problem: problems.count == 1 ? problem : "\(problem) (and \(problems.count - 1) more)")
                }
                let count = { (table: String) in try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0 }
                return LibraryBackup(
                    path: destination, byteCount: FileSize.of(path) ?? 0, albumCount: try count("album"), photoCount: try count("photo"),
                    itemCount: try count("album_item"),
                    lastChange: try Int64.fetchOne(db, sql: "SELECT coalesce(max(id), 0) FROM change_journal") ?? 0)
            }
        } catch let error as LibraryError {
            throw error
        } catch {
            throw LibraryError(error, path: destination, busyTimeout: 0)
        }
    }

    /// Flushes a file (or a folder's entries) to the disk.
    private static func syncFile(_ path: String) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw LibraryError.ioFailure(path: path, detail: "it cannot be opened to be synced")
        }
        defer { try? handle.close() }
        do {
            try handle.synchronize()
        } catch {
            throw LibraryError.ioFailure(path: path, detail: LibraryError.describeFileError(error))
        }
    }
}
