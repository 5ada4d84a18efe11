import Foundation
import GRDB

/// An albums library: one SQLite file holding albums, photos and their order.
///
/// `Library` owns its database connection. Every change goes through
/// ``write(_:)``, one IMMEDIATE transaction whose ``LibraryWriter`` offers
/// only changes that keep the library's invariants; reads go through
/// ``read(_:)`` and see one consistent snapshot.
///
/// ```swift
/// let library = try Library.open(at: "/tmp/trip.albums")
/// let album = try library.write { try $0.createAlbum(named: "Trip") }
/// let items = try library.read { try $0.items(in: album.id) }
/// ```
public final class Library: Sendable {
    /// The SQLite `application_id` stamped on every library file: 'ALBM'.
    public static let applicationID: Int32 = 0x414C_424D

    /// How a library is opened.
    public struct Options: Sendable {
        /// How long a write waits for another connection's lock, in seconds.
        public var busyTimeout: Double = 5
        /// A pool of connections lets reads run beside a write (for apps);
        /// a single connection opens faster (for one-shot commands).
        public var allowsConcurrentReads = true
        /// Keep a copy of the file beside it before upgrading its schema.
        public var backsUpBeforeUpgrading = true
        /// Whether opening may create a library.
        public var access: Access = .createIfMissing
        /// The migrations to apply; tests replace them, and the benchmarks
        /// leave the history out to measure what it costs.
        package var migrations: [Migration] = EmbeddedMigrations.all

        /// How to open a library; every default is what the CLI uses.
        public init(busyTimeout: Double = 5, allowsConcurrentReads: Bool = true, access: Access = .createIfMissing) {
            self.busyTimeout = busyTimeout
            self.allowsConcurrentReads = allowsConcurrentReads
            self.access = access
        }
    }

    /// What opening a path may do.
    public enum Access: Sendable {
        /// Creates a library where the file is missing or empty: for callers about to write.
        case createIfMissing
        /// Opens a library that exists, and only that: a missing or empty
        /// file is ``LibraryError/noLibrary(path:)``, and nothing is created.
        /// A library on a read-only file, folder or medium is opened
        /// read-only (``Library/isReadOnly``): reads work, writes fail with
        /// ``LibraryError/readOnly(path:)``.
        case existing
    }

    /// The file's path as given to ``open(at:options:)``.
    public let path: String
    let database: any DatabaseWriter
    let options: Options
    let broadcaster = ChangeBroadcaster()
    let segmentMaps = SegmentMapCache()
    let storagePlaces = StoragePlaceCache()
    /// Kept only where the change journal says when they change.
    var smartAlbumSummaries: SmartAlbumSummaries? { hasChangeJournal ? keptSmartAlbumSummaries : nil }
    private let keptSmartAlbumSummaries = SmartAlbumSummaries()
    /// Whether the file has the change journal (migration 0002) and the
    /// history (0005); tests open libraries at older schemas.
    let hasChangeJournal: Bool
    let hasHistory: Bool
    /// Whether the library was opened read-only, because its file, folder
    /// or medium cannot be written (see ``Access/existing``).
    public let isReadOnly: Bool
    /// The file opened, to tell when the path names another (or none).
    private let openedFile: FileIdentity?
    /// What the file said as it was opened: work waiting for a writer.
    package let openingState: OpeningState

    /// Whether ``path`` still names the file this library opened. A
    /// long-running host (`albums serve`) asks before each request: once
    /// the file is deleted or replaced, what it writes would reach a file
    /// no one can open again.
    public var isFileInPlace: Bool {
        openedFile.map { FileIdentity.of(path) == $0 } ?? true
    }

    private init(path: String, database: any DatabaseWriter, options: Options, openingState: OpeningState = OpeningState(), isReadOnly: Bool = false) {
        self.path = path
        self.openingState = openingState
        self.openedFile = FileIdentity.of(path)
        self.database = database
        self.options = options
        // Every migration given is applied by the time a library is made.
        self.hasChangeJournal = options.migrations.contains { $0.version == ChangeJournal.migrationVersion }
        self.hasHistory = options.migrations.contains { $0.version == HistoryLog.migrationVersion }
        self.isReadOnly = isReadOnly
    }

    /// Opens the library at `path`, creating it if the file is missing or
    /// empty (unless `options.access` is ``Access/existing``) and upgrading
    /// its schema if it is older than this build's.
    ///
    /// Files that are not libraries are refused before SQLite touches them,
    /// and left byte for byte as they were.
    ///
    /// - Parameters:
    ///   - path: The library file. Its folder must exist.
    ///   - options: Connection settings.
    /// - Throws: ``LibraryError``: ``LibraryError/Kind/unusableFile`` for a
    ///   file that is not SQLite, is truncated, belongs to another
    ///   application or a newer albums; ``LibraryError/Kind/inputOutput`` or
    ///   ``LibraryError/Kind/busy`` when it cannot be opened or upgraded.
    ///
    /// ```swift
    /// do {
    ///     let library = try Library.open(at: path, options: .init(access: .existing))
    ///     print(try library.read { try $0.albums().map(\.name) })
    /// } catch where error.kind == .unusableFile {
    ///     print("not a library: \(error)")   // the file was not touched
    /// }
    /// ```
    public static func open(at path: String, options: Options = Options()) throws(LibraryError) -> Library {
        let runner = MigrationRunner(migrations: options.migrations, path: path)
        switch LibraryPath.inspect(path) {
        case .missingOrEmpty where options.access == .existing:
            throw .noLibrary(path: path)
        case .notAFile(let what):
            // A device or a folder: SQLite would write beside it (a -journal next to /dev/null).
            throw .notADatabase(path: path, reason: "it is \(what), not a file")
        case .readOnly where options.access == .existing:
            return try openReadOnly(at: path, runner: runner, options: options)
        case .readOnly:
            throw .readOnly(path: path)
        default:
            break
        }
        do {
            let header = try DatabaseFileHeader.read(pathIfExists: path)
            if header?.applicationID != Self.applicationID || LibraryFileProbe.hasPendingWAL(path: path) {
                // Not plainly ours, or its newest state waits in the WAL: look
                // without any connection that could write or checkpoint.
                if FileManager.default.fileExists(atPath: path) {
                    try refuseUnlessLibrary(try LibraryFileProbe.read(path: path, busyTimeout: options.busyTimeout), runner: runner)
                }
            }
            // A plain connection first: GRDB's own WAL setup writes to the
            // file, which must not happen before the file is known to be ours.
            let queue = try DatabaseQueue(path: path, configuration: configuration(options))
            // Read on the writer's connection: opening a pool reader here would
            // leave -wal and -shm behind if the file is then refused.
            let state = try queue.writeWithoutTransaction(MigrationRunner.readState)
            try runner.validate(state)
            // WAL is the file's own setting once made: a header that says so
            // needs no statement on every open.
            if header?.isWAL != true {
                try queue.writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = WAL") }
            }
            try runner.migrate(queue, from: state) { version in
                if options.backsUpBeforeUpgrading {
                    try backUp(queue, path: path, schemaVersion: version)
                }
            }
            guard options.allowsConcurrentReads else {
                let opening = try queue.writeWithoutTransaction { try readOpeningState($0, options: options) }
                return Library(path: path, database: queue, options: options, openingState: opening)
            }
            try queue.close()
            let pool = try DatabasePool(path: path, configuration: configuration(options))
            let opening = try pool.writeWithoutTransaction { try readOpeningState($0, options: options) }
            return Library(path: path, database: pool, options: options, openingState: opening)
        } catch {
            throw LibraryError(error, path: path, busyTimeout: options.busyTimeout)
        }
    }

    /// Opens a library whose file, folder or medium cannot be written.
    ///
    /// SQLite cannot read a WAL file's database read-only unless its `-shm`
    /// file exists or can be made; a library albums closed has no `-wal`
    /// content, so it is opened immutable (no lock, no side files), which is
    /// sound because nobody can write where we cannot. With WAL content left
    /// by a writer, a plain read-only connection is tried.
    private static func openReadOnly(at path: String, runner: MigrationRunner, options: Options) throws(LibraryError) -> Library {
        do {
            let probe = try LibraryFileProbe.read(path: path, busyTimeout: options.busyTimeout)
            try refuseUnlessLibrary(probe, runner: runner)
            if probe.applicationID == 0 { throw LibraryError.noLibrary(path: path) }  // an empty SQLite file
            if !runner.pendingMigrations(probe.schema).isEmpty {
                throw LibraryError.upgradeNeedsWriting(path: path, fileVersion: probe.schema.userVersion, currentVersion: runner.latestVersion)
            }
            var configuration = configuration(options)
            configuration.readonly = true
            let hasWAL = LibraryFileProbe.hasPendingWAL(path: path)
            let queue = try DatabaseQueue(path: hasWAL ? path : ImmutableDatabaseFile.uri(path), configuration: configuration)
            return Library(path: path, database: queue, options: options, isReadOnly: true)
        } catch {
            throw LibraryError(error, path: path, busyTimeout: options.busyTimeout)
        }
    }

    /// What the last upgrade did that a person should hear about (albums
    /// renamed by migration 0004, say), each once: the notes are deleted as
    /// they are taken. Empty on a read-only library.
    public func takeUpgradeNotes() throws -> [String] {
        guard !isReadOnly else { return [] }
        return try write { writer in
            let db = writer.db
            guard try db.hasTable("upgrade_note") else { return [] }
            let notes = try String.fetchAll(db, sql: "SELECT note FROM upgrade_note ORDER BY id")
            if !notes.isEmpty { try db.execute(sql: "DELETE FROM upgrade_note") }
            return notes
        }
    }

    /// Refuses a file that is another application's, or a library this build must not touch.
    private static func refuseUnlessLibrary(_ probe: LibraryFileProbe, runner: MigrationRunner) throws(LibraryError) {
        switch probe.applicationID {
        case Self.applicationID:
            try runner.validate(probe.schema)
        case 0 where probe.tables.isEmpty:
            break  // An empty SQLite database: nobody's data yet.
        case 0:
            throw .foreignDatabase(path: runner.path, tables: probe.tables)
        default:
            throw .foreignApplication(path: runner.path, applicationID: probe.applicationID)
        }
    }

    /// Reads what the file says as it is opened, and turns the writing
    /// connection's automatic checkpoints off when a replicator owns them
    /// (SQLite's default stands otherwise).
    private static func readOpeningState(_ db: Database, options: Options) throws -> OpeningState {
        let state = try OpeningState.read(in: db, migrations: options.migrations)
        if state.checkpointPolicy != .automatic { try state.checkpointPolicy.apply(to: db) }
        return state
    }

    private static func configuration(_ options: Options) -> Configuration {
        var configuration = Configuration()
        configuration.label = "albums"
        configuration.busyMode = .timeout(options.busyTimeout)
        configuration.foreignKeysEnabled = true
        configuration.prepareDatabase { db in
            // In WAL mode NORMAL never corrupts; it may lose the last
            // transactions on power loss (not on a crash), like Apple's apps.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            if ProcessEnvironment.value("ALBUMS_TRACE_SQL") != nil {
                db.trace(options: .statement) { event in FileHandle.standardError.write(Data("SQL \(event)\n".utf8)) }
            }
        }
        return configuration
    }

    /// Copies the file, as it is before an upgrade, to a new file beside it.
    private static func backUp(_ database: some DatabaseWriter, path: String, schemaVersion: Int) throws {
        let backupPath = unusedPath(startingWith: "\(path).schema-\(schemaVersion).backup")
        let destination = try DatabaseQueue(path: backupPath)
        try database.backup(to: destination)
        try destination.close()
    }

    static func unusedPath(startingWith candidate: String) -> String {
        var path = candidate
        var number = 2
        while FileManager.default.fileExists(atPath: path) {
            path = "\(candidate)-\(number)"
            number += 1
        }
        return path
    }

    // MARK: - Access

    /// Runs `body` on one consistent snapshot of the library.
    ///
    /// ```swift
    /// let (album, firstPage) = try library.read { reader in
    ///     let album = try reader.album(named: "Trip")
    ///     return (album, try reader.items(in: album.id).prefix(50))
    /// }
    /// ```
    ///
    /// - Throws: ``LibraryError`` for SQLite failures, or whatever `body` throws, unchanged.
    public func read<T>(_ body: (LibraryReader) throws -> T) throws -> T {
        do {
            guard database is DatabaseQueue else {
                return try database.read { db in try body(LibraryReader(db: db, path: path, segmentMaps: segmentMaps, smartAlbumSummaries: smartAlbumSummaries)) }
            }
            // One connection: a deferred transaction is the snapshot. GRDB's
            // read would also switch query_only on and off around it, two
            // more statements on every proposal; LibraryReader cannot write.
            return try database.writeWithoutTransaction { db in
                var result: T?
                try db.inTransaction(.deferred) {
                    result = try body(LibraryReader(db: db, path: path, segmentMaps: segmentMaps, smartAlbumSummaries: smartAlbumSummaries))
                    return .commit
                }
                return result!
            }
        } catch let error as DatabaseError {
            throw LibraryError(error, path: path, busyTimeout: options.busyTimeout)
        }
    }

    /// Runs `body` on one consistent snapshot of the library, without
    /// blocking the calling task's thread while it waits for a connection.
    ///
    /// - Throws: ``LibraryError`` for SQLite failures, or whatever `body` throws, unchanged.
    public func read<T: Sendable>(_ body: @escaping @Sendable (LibraryReader) throws -> T) async throws -> T {
        let (path, segmentMaps) = (path, segmentMaps)
        do {
            return try await database.read { db in try body(LibraryReader(db: db, path: path, segmentMaps: segmentMaps, smartAlbumSummaries: smartAlbumSummaries)) }
        } catch let error as DatabaseError {
            throw LibraryError(error, path: path, busyTimeout: options.busyTimeout)
        }
    }

    /// Runs `body` in one IMMEDIATE write transaction: everything it does is
    /// committed together, or, if it throws, nothing is.
    ///
    /// Each album the transaction changes gets its revision raised once, and
    /// the change sets it recorded reach every watcher of ``changes(pollingInterval:)``.
    ///
    /// ```swift
    /// try library.write { writer in
    ///     let book = try writer.createAlbum(named: "Photo book")
    ///     try writer.insertPhotos(chosen, into: book.id)
    /// }   // both, or neither
    /// ```
    ///
    /// - Throws: ``LibraryError`` for SQLite failures, or whatever `body` throws, unchanged.
    @discardableResult
    public func write<T>(_ body: (LibraryWriter) throws -> T) throws -> T {
        try write(dryRun: false, body)
    }

    /// Runs `body` in one IMMEDIATE write transaction that is committed, or
    /// with `dryRun` rolled back: the same checks, results and change sets,
    /// and nothing written.
    ///
    /// - Throws: ``LibraryError`` for SQLite failures, or whatever `body` throws, unchanged.
    @discardableResult
    public func write<T>(dryRun: Bool, _ body: (LibraryWriter) throws -> T) throws -> T {
        do {
            let (result, committed) = try database.writeWithoutTransaction { db in
                try Self.transaction(
                    db, path: path, segmentMaps: segmentMaps, dryRun: dryRun, features: features,
                    watchedFrom: broadcaster.watchedSequence, body)
            }
            broadcaster.deliver(committed)
            return result
        } catch let error as DatabaseError {
            throw LibraryError(error, path: path, busyTimeout: options.busyTimeout)
        }
    }

    /// Like ``write(_:)``, without blocking the calling task's thread while
    /// it waits for the write lock.
    ///
    /// - Throws: ``LibraryError`` for SQLite failures, or whatever `body` throws, unchanged.
    @discardableResult
    public func write<T: Sendable>(_ body: @escaping @Sendable (LibraryWriter) throws -> T) async throws -> T {
        try await write(dryRun: false, body)
    }

    /// Like ``write(dryRun:_:)``, without blocking the calling task's thread
    /// while it waits for the write lock.
    ///
    /// - Throws: ``LibraryError`` for SQLite failures, or whatever `body` throws, unchanged.
    @discardableResult
    public func write<T: Sendable>(dryRun: Bool, _ body: @escaping @Sendable (LibraryWriter) throws -> T) async throws -> T {
        let (path, segmentMaps, features, watchedFrom) = (path, segmentMaps, features, broadcaster.watchedSequence)
        do {
            let (result, committed) = try await database.writeWithoutTransaction { db in
                try Self.transaction(
                    db, path: path, segmentMaps: segmentMaps, dryRun: dryRun, features: features, watchedFrom: watchedFrom, body)
            }
            broadcaster.deliver(committed)
            return result
        } catch let error as DatabaseError {
            throw LibraryError(error, path: path, busyTimeout: options.busyTimeout)
        }
    }

    /// What the file's schema has beyond the first migration.
    private var features: (journals: Bool, history: Bool) { (hasChangeJournal, hasHistory) }

    /// One write transaction: the body, the revisions, the history entry, the
    /// journal entry; and, for watchers, the journal entries since `watchedFrom`.
    private static func transaction<T>(
        _ db: Database, path: String, segmentMaps: SegmentMapCache, dryRun: Bool, features: (journals: Bool, history: Bool),
        watchedFrom: Int64?, _ body: (LibraryWriter) throws -> T
    ) throws -> (T, [CommittedChange]) {
        var result: T?
        var committed: [CommittedChange] = []
        var mapsAfterCommit: [AlbumID: SegmentMap] = [:]
        try db.inTransaction(.immediate) {
            let writer = LibraryWriter(db: db, path: path, segmentMaps: segmentMaps)
            if features.history { writer.history = try HistoryRecording(in: db) }
            result = try body(writer)
            try writer.finish()
            if dryRun { return .rollback }
            mapsAfterCommit = writer.mapsAfterCommit
            try writer.history?.fileEntry(operations: writer.operations, madeBy: writer.principal, in: db)
            if (writer.hasChanges || writer.changedRights || writer.addedPhotos) && features.journals {
                _ = try ChangeJournal.append(
                    writer.operations, folders: writer.folderChanges, rightsChanged: writer.changedRights, addedPhotos: writer.addedPhotos, in: db)
                // Read inside the transaction: what others committed before it, and it.
                if let watchedFrom { committed = try ChangeJournal.entries(after: watchedFrom, in: db) }
            }
            return .commit
        }
        guard let result else { fatalError("write transaction ended without a result") }  // trap: GRDB returned without running the body
        for (album, map) in mapsAfterCommit { segmentMaps.store(map, for: album) }
        return (result, committed)
    }

    /// The change sets of every transaction committed to the file from now
    /// on, by this library, another connection or another process, in
    /// commit order. Watching starts before this returns.
    ///
    /// This library's own commits arrive as they commit. Others' are read
    /// from the file's change journal (migration 0002) as soon as the
    /// write-ahead log is written (heard from the kernel on Linux, inotify;
    /// elsewhere its size and time, looked at every 20 ms with `stat(2)`,
    /// no query), and at least every `pollingInterval` seconds: one indexed
    /// query of the rows past the last one seen.
    ///
    /// ```swift
    /// for await change in try await library.changes() {
    ///     for changes in change.changeSets { collectionView.apply(changes) }
    /// }
    /// ```
    ///
    /// - Throws: ``LibraryError`` if the journal cannot be read.
    public func changes(pollingInterval: Double = 0.25) async throws -> AsyncStream<CommittedChange> {
        let path = path
        let start: Int64
        do {
            start = try await database.read { try ChangeJournal.latestSequence(in: $0) }
        } catch {
            throw LibraryError(error, path: path, busyTimeout: options.busyTimeout)
        }
        return broadcaster.subscribe(startingAfter: start, watching: path + "-wal", pollingInterval: pollingInterval) { [weak self] after in
            guard let self else { return [] }
            return try await self.database.read { try ChangeJournal.entries(after: after, in: $0) }
        }
    }

    /// A number that changes when another connection (another process)
    /// commits to the file, and not for this library's own writes.
    ///
    /// Compare two values to learn whether the file changed under you.
    public func externalChangeToken() throws -> Int {
        do {
            return try database.writeWithoutTransaction { try Int.fetchOne($0, sql: "PRAGMA data_version") ?? 0 }
        } catch {
            throw LibraryError(error, path: path, busyTimeout: options.busyTimeout)
        }
    }

    /// Moves everything committed into the main file and closes the
    /// connections. Later calls fail.
    public func close() throws {
        do {
            // GRDB closes a pool's writer before its read-only readers, so the
            // last connection to close cannot checkpoint: do it here. Only
            // when no other process is using the file: a TRUNCATE checkpoint
            // would wait for every reader, though this library's work is
            // committed already and the WAL keeps it safe until a later
            // checkpoint. So no busy wait, and busy is no failure.
            let checkpoints = try database.writeWithoutTransaction { db in
                // A replicator that owns the checkpoints must see every frame of the log.
                guard try CheckpointPolicy.stored(in: db) == .automatic else { return false }
                do {
                    try db.execute(sql: "PRAGMA busy_timeout = 0")
                    _ = try db.checkpoint(.truncate)
                } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED {
                    // Another process is reading or writing: it checkpoints later.
                }
                return true
            }
            if let pool = database as? DatabasePool {
                try pool.close()
                // The pool's last connection to close was a read-only reader,
                // which leaves the empty -wal and -shm files behind. A
                // connection that can write, closing last, removes them (and
                // keeps them while another process has the file open).
                if checkpoints && !isReadOnly {
                    let last = try DatabaseQueue(path: path, configuration: Self.configuration(options))
                    try last.read { _ in }
                    try last.close()
                }
            } else if let queue = database as? DatabaseQueue {
                try queue.close()
            }
        } catch {
            throw LibraryError(error, path: path, busyTimeout: options.busyTimeout)
        }
    }
}
