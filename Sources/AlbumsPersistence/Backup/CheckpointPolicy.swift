import GRDB

/// Who moves committed changes from the write-ahead log into the library
/// file (a *checkpoint*), stored in the file so that every process that
/// opens it (the CLI, `albums serve`, an app) agrees.
///
/// A replicator such as Litestream copies the log before it is
/// checkpointed and wants to be the only one checkpointing; a library it
/// replicates should say ``external``.
public enum CheckpointPolicy: String, Sendable, CaseIterable {
    /// albums checkpoints as SQLite does by default: passively once the log
    /// passes 1,000 pages, and truncating it when the last process closes
    /// the library.
    case automatic = "auto"
    /// albums never checkpoints; the log grows until another program (the
    /// replicator) checkpoints it. Takes effect in each process as it opens
    /// the library (or, in the process that sets it, at once).
    case external

    /// The migration that stores the setting.
    static let migrationVersion = 6
    /// The table that holds the setting (migration 0006), and how it is read.
    static let table = "library_setting"
    static let storedSQL = "SELECT checkpoints FROM library_setting WHERE id = 1"

    /// The policy a stored value names; ``automatic`` when none is stored.
    init(stored raw: String?) {
        self = raw.flatMap(CheckpointPolicy.init(rawValue:)) ?? .automatic
    }

    /// The policy stored in the file; ``automatic`` when none is, or when
    /// the file predates the setting.
    static func stored(in db: Database) throws -> CheckpointPolicy {
        guard try db.hasTable(table) else { return .automatic }
        return CheckpointPolicy(stored: try String.fetchOne(db, cachedSQL: storedSQL))
    }

    /// Sets the connection's automatic checkpoints to follow the policy.
    func apply(to db: Database) throws {
        // SQLite's default threshold; 0 turns automatic checkpoints off.
        try db.execute(sql: "PRAGMA wal_autocheckpoint = \(self == .automatic ? 1000 : 0)")
    }
}

extension LibraryReader {
    /// Who checkpoints the library's write-ahead log (see ``CheckpointPolicy``).
    public func checkpointPolicy() throws -> CheckpointPolicy {
        try CheckpointPolicy.stored(in: db)
    }
}

extension LibraryWriter {
    /// Stores who checkpoints the write-ahead log, for every process that
    /// opens the library from now on, and this one.
    ///
    /// ```swift
    /// // Litestream replicates this library: leave checkpoints to it.
    /// try library.write { try $0.setCheckpointPolicy(.external) }
    /// ```
    public func setCheckpointPolicy(_ policy: CheckpointPolicy) throws {
        try db.execute(
            sql: "INSERT INTO library_setting (id, checkpoints) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET checkpoints = excluded.checkpoints",
            arguments: [policy.rawValue])
        try policy.apply(to: db)
    }
}
