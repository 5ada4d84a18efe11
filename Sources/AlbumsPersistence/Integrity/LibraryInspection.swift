import Foundation
import GRDB

/// What `albums inspect` tells about any SQLite file, read without writing
/// anything: no `-wal` or `-shm` created, nothing migrated, fine on a
/// read-only file or medium.
public struct LibraryInspection: Sendable {
    /// A migration the file records as applied.
    public struct Migration: Sendable, Hashable {
        /// Its number: 1, 2, 3, …
        public let version: Int
        /// Its name, from its file name (`create_library`).
        public let name: String
        /// Applied in the file; else known to this build and pending.
        public let isApplied: Bool
        /// For applied ones: whether the recorded checksum matches this build's.
        public let checksumMatches: Bool?
    }

    /// The file inspected.
    public let path: String
    /// Its size in bytes.
    public let fileBytes: Int64
    /// Its first 100 bytes, read as SQLite's header.
    public let header: DatabaseFileHeader
    /// `wal`, `delete`, …: how SQLite journals its writes.
    public let journalMode: String
    /// Who checkpoints the write-ahead log (nil for a file that is not a library).
    public let checkpoints: CheckpointPolicy?
    /// Whether the file carries albums' application id.
    public let isLibrary: Bool
    /// The newest migration applied.
    public let schemaVersion: Int
    /// Every migration applied, in order.
    public let migrations: [Migration]
    /// Versions recorded in the file that this build does not know (a newer albums wrote them).
    public let unknownVersions: [Int]
    /// Row counts of every table, by name.
    public let tableRows: [String: Int]
    /// Albums, when the schema has them.
    public let albums: Int?
    /// Locked albums.
    public let lockedAlbums: Int?
    /// Folders of the tree; nil in a library older than folders.
    public let folders: Int?
    /// Photos, in albums or not.
    public let photos: Int?
    /// Album items, placeholders included.
    public let items: Int?
    /// Placeholders whose loads are still running.
    public let pendingPlaceholders: Int?
    /// Placeholders whose loading process is gone (`albums pending resume`).
    public let stalePlaceholders: Int?
    /// When the oldest placeholder was made.
    public let oldestPlaceholder: String?
    /// `quick_check` (or `integrity_check`) lines: ["ok"] when sound.
    public let integrity: [String]
    /// Which check was run: `quick_check`, or `integrity_check` with `--full`.
    public let integrityCheckName: String
    /// Rows whose foreign keys point nowhere.
    public let foreignKeyViolations: Int

    /// Whether every check came back clean.
    public var isSound: Bool { integrity == ["ok"] && foreignKeyViolations == 0 }

    /// Inspects the file at `path`.
    ///
    /// - Parameter full: Run `integrity_check` rather than the faster `quick_check`.
    /// - Throws: ``LibraryError/notADatabase(path:reason:)`` (or `truncated`)
    ///   for a file that is not SQLite at all; ``LibraryError/ioFailure(path:detail:)``
    ///   when it cannot be read.
    public static func inspect(path: String, full: Bool = false, busyTimeout: Double = Library.Options().busyTimeout) throws -> LibraryInspection {
        guard FileManager.default.fileExists(atPath: path) else { throw LibraryError.ioFailure(path: path, detail: "no such file") }
        // An immutable read is sound only while no other process writes the
        // file, and one may open it just after `reader` chose that read. So
        // the file is looked at again afterwards: if anything touched it,
        // the read is made again, through a read-only connection while the
        // other process still has the file open. A read-only connection sees
        // one snapshot whatever others do, so its answer stands.
        var attempt = 1
        while true {
            let before = FileActivity.of(path)
            guard let header = try DatabaseFileHeader.read(pathIfExists: path) else {
                throw LibraryError.notADatabase(path: path, reason: "it is empty")
            }
            let source = try reader(path: path, hasSharedMemory: before.hasSharedMemory, busyTimeout: busyTimeout)
            let mayReadAgain = source.isImmutable && attempt < disturbedReadAttempts
            do {
                let inspection = try inspect(path: path, header: header, full: full, query: source.query)
                if !mayReadAgain || FileActivity.of(path) == before { return inspection }
            } catch where mayReadAgain && FileActivity.of(path) != before {
                // Pages read while a checkpoint wrote them: read again.
            }
            attempt += 1
        }
    }

    /// How many times an immutable read that another process disturbed is made.
    private static let disturbedReadAttempts = 8

    private static func inspect(
        path: String, header: DatabaseFileHeader, full: Bool, query: (String) throws -> [[Any?]]
    ) throws -> LibraryInspection {
        let size = FileSize.of(path) ?? 0
        func integers(_ sql: String) throws -> [Int] { try query(sql).compactMap { ($0.first ?? nil) as? Int64 }.map(Int.init) }
        func count(_ sql: String) throws -> Int? { try? integers(sql).first }

        let tables = try query("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").compactMap { $0.first as? String }
        var tableRows: [String: Int] = [:]
        for table in tables {
            tableRows[table] = try integers("SELECT count(*) FROM \"\(table.replacingOccurrences(of: "\"", with: "\"\""))\"").first
        }
        let applicationID = Int32(truncatingIfNeeded: try integers("PRAGMA application_id").first ?? 0)
        let isLibrary = applicationID == Library.applicationID
        let userVersion = try integers("PRAGMA user_version").first ?? 0
        var recorded: [Int: (name: String, checksum: String)] = [:]
        if tables.contains("schema_migration") {
            for row in try query("SELECT version, name, checksum FROM schema_migration") {
                if let version = row[0] as? Int64, let name = row[1] as? String, let checksum = row[2] as? String {
                    recorded[Int(version)] = (name, checksum)
                }
            }
        }
        let known = EmbeddedMigrations.all
        let migrations = known.map { migration in
            Migration(
                version: migration.version, name: migration.name, isApplied: recorded[migration.version] != nil,
                checksumMatches: recorded[migration.version].map { $0.checksum == migration.checksum })
        }
        let unknown = recorded.keys.filter { version in !known.contains { $0.version == version } }.sorted()

        var stale: Int?
        var oldest: String?
        if isLibrary && tables.contains("album_item") {
            let owners = try query(
                "SELECT load_owner_host, load_owner_process_id, load_owner_started_at, added_at FROM album_item WHERE photo_id IS NULL ORDER BY added_at")
            stale = owners.filter { row in
                guard let host = row[0] as? String, let pid = row[1] as? Int64 else { return false }
                return LoadOwner(host: host, processID: Int32(truncatingIfNeeded: pid), processStartedAt: row[2] as? String).isGone
            }.count
            oldest = owners.first?[3] as? String
        }
        let checkpoints = CheckpointPolicy(
            stored: tables.contains(CheckpointPolicy.table) ? try query(CheckpointPolicy.storedSQL).first?.first as? String : nil)
        let integrityCheck = full ? "integrity_check" : "quick_check"
        let integrity = (try? query("PRAGMA \(integrityCheck)").compactMap { $0.first as? String }) ?? ["could not run \(integrityCheck)"]
        let foreignKeys = (try? query("PRAGMA foreign_key_check").count) ?? 0
        let library = isLibrary && tables.contains("album")
        return LibraryInspection(
            path: path, fileBytes: size, header: header,
            // An immutable open always answers "delete"; the header knows.
            journalMode: header.isWAL ? "wal" : (try? query("PRAGMA journal_mode").first?.first as? String) ?? "delete",
            checkpoints: library ? checkpoints : nil,
            isLibrary: isLibrary, schemaVersion: userVersion, migrations: migrations, unknownVersions: unknown,
            tableRows: tableRows,
            albums: library ? tableRows["album"] : nil,
            lockedAlbums: library ? try count("SELECT count(*) FROM album WHERE is_locked = 1") : nil,
            folders: library ? tableRows["folder"] : nil,
            photos: library ? tableRows["photo"] : nil,
            items: library ? tableRows["album_item"] : nil,
            pendingPlaceholders: library ? try count("SELECT count(*) FROM album_item WHERE photo_id IS NULL") : nil,
            stalePlaceholders: stale, oldestPlaceholder: oldest,
            integrity: integrity, integrityCheckName: integrityCheck, foreignKeyViolations: foreignKeys)
    }

    /// A way to query the file that writes nothing.
    private struct Source {
        let query: (String) throws -> [[Any?]]
        /// Opened with `immutable=1`: no lock, no side file, and blind to other processes.
        let isImmutable: Bool
    }

    /// A query function over the file that writes nothing.
    ///
    /// An immutable open takes no lock and creates no side file, but it is
    /// only sound while no process has the file open. In WAL mode every
    /// connection shares a `-shm` file beside it, so when there is one (or
    /// WAL content waits), a read-only connection reads instead: it takes
    /// SQLite's locks, sees one snapshot, waits out a busy file, and never
    /// checkpoints. A `-shm` left behind on read-only media cannot be used
    /// that way; without WAL content the immutable open is then sound.
    private static func reader(path: String, hasSharedMemory: Bool, busyTimeout: Double) throws -> Source {
        let walPending = LibraryFileProbe.hasPendingWAL(path: path)
        if walPending || hasSharedMemory {
            do {
                let query = try readOnlyReader(path: path, busyTimeout: busyTimeout)
                _ = try query("SELECT count(*) FROM sqlite_schema")
                return Source(query: query, isImmutable: false)
            } catch where !walPending {
                // Fall through to the immutable open.
            }
        }
        let file = try ImmutableDatabaseFile(path: path)
        return Source(query: { sql in try file.rows(sql) }, isImmutable: true)
    }

    private static func readOnlyReader(path: String, busyTimeout: Double) throws -> (String) throws -> [[Any?]] {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(busyTimeout)
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        return { sql in
            try queue.read { db in
                try Row.fetchAll(db, sql: sql).map { row in
                    row.databaseValues.map { value -> Any? in
                        switch value.storage {
                        case .int64(let number): number
                        case .string(let text): text
                        case .double(let number): number
                        case .blob(let data): data
                        case .null: nil
                        }
                    }
                }
            }
        }
    }
}

/// What another process leaves on a library it opens: its side files, and
/// a new size or modification time when it checkpoints into the file.
private struct FileActivity: Equatable {
    let stamp: FileStamp?
    let identity: FileIdentity?
    let hasLog: Bool
    let hasSharedMemory: Bool

    static func of(_ path: String) -> FileActivity {
        FileActivity(
            stamp: FileStamp.of(path), identity: FileIdentity.of(path),
            hasLog: FileStamp.of(path + "-wal") != nil, hasSharedMemory: FileStamp.of(path + "-shm") != nil)
    }
}
