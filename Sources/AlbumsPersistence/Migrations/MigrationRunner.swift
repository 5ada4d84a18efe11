import Foundation
import GRDB

/// Brings a library file's schema up to the migrations this build carries.
///
/// Each migration runs in its own IMMEDIATE transaction, with foreign keys
/// checked before it commits, and is recorded in `schema_migration` with the
/// SHA-256 of its text. A recorded migration whose text differs from ours,
/// or a file of a newer schema, is refused before anything is written.
///
/// GRDB's `DatabaseMigrator` records identifiers only; the checksums, the
/// version stamp in `user_version` and the backup before an upgrade are
/// this file format's own rules, hence this runner.
struct MigrationRunner {
    let migrations: [Migration]
    let path: String

    var latestVersion: Int { migrations.last?.version ?? 0 }

    /// What a file records of its schema.
    struct SchemaState {
        var userVersion: Int
        /// Recorded checksums by version.
        var recorded: [Int: (name: String, checksum: String)]
    }

    static func readState(_ db: Database) throws -> SchemaState {
        let userVersion = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        var recorded: [Int: (name: String, checksum: String)] = [:]
        if try db.hasTable("schema_migration") {
            for row in try Row.fetchAll(db, sql: "SELECT version, name, checksum FROM schema_migration") {
                recorded[row["version"]] = (row["name"], row["checksum"])
            }
        }
        return SchemaState(userVersion: userVersion, recorded: recorded)
    }

    /// Refuses a file of a newer schema, or one whose recorded migrations differ from ours.
    func validate(_ state: SchemaState) throws(LibraryError) {
        let newestRecorded = state.recorded.keys.max() ?? 0
        if state.userVersion > latestVersion || newestRecorded > latestVersion {
            throw .newerSchema(path: path, fileVersion: max(state.userVersion, newestRecorded), supportedVersion: latestVersion)
        }
        for migration in migrations where migration.version <= state.userVersion {
            guard let record = state.recorded[migration.version] else {
                throw .corrupt(path: path, detail: "schema version \(state.userVersion) but migration \(migration.version) is not recorded")
            }
            if record.checksum != migration.checksum {
                throw .modifiedMigration(path: path, version: migration.version, name: record.name)
            }
        }
    }

    /// The migrations not yet applied to a file in `state`.
    func pendingMigrations(_ state: SchemaState) -> [Migration] {
        migrations.filter { $0.version > state.userVersion }
    }

    /// Applies every pending migration, calling `backUp` with the file's
    /// current version first when the file already holds a library.
    ///
    /// - Parameter state: The file's state as just read and validated on
    ///   the writer's connection (checked again inside the migrating
    ///   transaction, in case another process migrated meanwhile).
    func migrate(_ writer: some DatabaseWriter, from state: SchemaState, backUp: (Int) throws -> Void) throws {
        let pending = pendingMigrations(state)
        guard !pending.isEmpty else { return }
        if state.userVersion > 0 {
            try backUp(state.userVersion)
        }
        try apply(pending, to: writer)
    }

    /// Applies every pending migration in one transaction, so that a new
    /// library appears whole or not at all (a killed `init` leaves an empty
    /// file), and an upgrade is never left between two versions.
    private func apply(_ migrations: [Migration], to writer: some DatabaseWriter) throws {
        try writer.writeWithoutTransaction { db in
            // Table rebuilds (SQLite's 12-step ALTER) need foreign keys off;
            // the check before commit keeps the guarantee they give.
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            defer { try? db.execute(sql: "PRAGMA foreign_keys = ON") }
            try db.inTransaction(.immediate) {
                // Another process may have migrated since we looked.
                let state = try Self.readState(db)
                try validate(state)
                for migration in migrations where state.userVersion < migration.version {
                    try apply(migration, in: db)
                }
                return .commit
            }
        }
    }

    private func apply(_ migration: Migration, in db: Database) throws {
        try db.execute(sql: migration.sql)
        // What SQL cannot do (Unicode normalization), in the same transaction.
        if migration.version == AlbumNameUpgrade.migrationVersion && migration.name == "album_names" {
            try AlbumNameUpgrade.run(db)
        }
        if let violation = try Row.fetchOne(db, sql: "PRAGMA foreign_key_check") {
            throw LibraryError.corrupt(path: path, detail: "migration \(migration.version) left a dangling reference in \(violation[0] as String? ?? "a table")")
        }
        try db.execute(
            sql: "INSERT INTO schema_migration (version, name, checksum) VALUES (?, ?, ?)",
            arguments: [migration.version, migration.name, migration.checksum])
        // PRAGMA takes no bound parameters; the version is an Int we made.
        try db.execute(sql: "PRAGMA user_version = \(migration.version)")
    }
}
