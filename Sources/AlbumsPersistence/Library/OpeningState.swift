import GRDB

/// What a library file says as it is opened, read in one statement after
/// its schema is current: who checkpoints it, and whether work waits for
/// whoever opens it to write (``Library/openForUse(at:options:)`` does
/// that work).
///
/// One statement, because every command pays for each one at start-up.
package struct OpeningState: Sendable {
    /// Who checkpoints the write-ahead log (migration 0006).
    package var checkpointPolicy = CheckpointPolicy.automatic
    /// Whether photos an older albums imported wait to have their facts
    /// read again (migration 0003).
    package var hasOutdatedPhotoFacts = false
    /// Whether an upgrade left notes for a person (migration 0004).
    package var hasUpgradeNotes = false

    /// The migration that marks photos whose facts an older albums read.
    static let outdatedFactsMigrationVersion = 3

    /// Reads the state of a file whose schema holds `migrations`: a table
    /// that none of them creates is not asked about (tests open libraries
    /// at older schemas).
    static func read(in db: Database, migrations: [Migration]) throws -> OpeningState {
        let versions = Set(migrations.map(\.version))
        func ask(_ sql: String, ifMigration version: Int, else absent: String) -> String {
            versions.contains(version) ? sql : absent
        }
        let sql = """
            SELECT \(ask("(\(CheckpointPolicy.storedSQL))", ifMigration: CheckpointPolicy.migrationVersion, else: "NULL")),
            \(ask("EXISTS (SELECT 1 FROM photo_facts_outdated)", ifMigration: Self.outdatedFactsMigrationVersion, else: "0")),
            \(ask("EXISTS (SELECT 1 FROM upgrade_note)", ifMigration: AlbumNameUpgrade.migrationVersion, else: "0"))
            """
        guard let row = try Row.fetchOne(db, sql: sql) else { return OpeningState() }
        return OpeningState(checkpointPolicy: CheckpointPolicy(stored: row[0]), hasOutdatedPhotoFacts: row[1], hasUpgradeNotes: row[2])
    }
}
