import Foundation
import GRDB

/// What a file says about itself, read without writing anything: its
/// application id, its tables, its schema version and recorded migrations.
struct LibraryFileProbe {
    var applicationID: Int32
    var tables: [String]
    var schema: MigrationRunner.SchemaState

    private static let tablesSQL =
        "SELECT name FROM sqlite_schema WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%' ORDER BY name"

    /// Reads the file at `path` in the way that leaves it and its folder as they are.
    ///
    /// With WAL content pending, the newest state is in the `-wal` file: a
    /// read-only connection reads it (the side files already exist) and,
    /// unlike a writable one, never checkpoints on close. Otherwise the file
    /// is opened immutable, which creates no side file at all.
    /// - Parameter busyTimeout: how long to wait for a process that holds the
    ///   file's lock (a checkpoint in progress, a WAL being recovered).
    static func read(path: String, busyTimeout: Double) throws -> LibraryFileProbe {
        if hasPendingWAL(path: path) {
            var configuration = Configuration()
            configuration.readonly = true
            configuration.busyMode = .timeout(busyTimeout)
            configuration.label = "albums.probe"
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? queue.close() }
            return try queue.read { db in
                LibraryFileProbe(
                    applicationID: try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0,
                    tables: try String.fetchAll(db, sql: tablesSQL),
                    schema: try MigrationRunner.readState(db))
            }
        }
        let file = try ImmutableDatabaseFile(path: path)
        let tables = try file.rows(tablesSQL).compactMap { $0[0] as? String }
        var recorded: [Int: (name: String, checksum: String)] = [:]
        if tables.contains("schema_migration") {
            for row in try file.rows("SELECT version, name, checksum FROM schema_migration") {
                if let version = row[0] as? Int64, let name = row[1] as? String, let checksum = row[2] as? String {
                    recorded[Int(version)] = (name, checksum)
                }
            }
        }
        return LibraryFileProbe(
            applicationID: Int32(truncatingIfNeeded: try file.rows("PRAGMA application_id").first?[0] as? Int64 ?? 0),
            tables: tables,
            schema: MigrationRunner.SchemaState(
                userVersion: Int(try file.rows("PRAGMA user_version").first?[0] as? Int64 ?? 0), recorded: recorded))
    }

    /// Whether a `-wal` file holds frames past its 32-byte header.
    static func hasPendingWAL(path: String) -> Bool {
        (FileSize.of(path + "-wal") ?? 0) > 32
    }
}
