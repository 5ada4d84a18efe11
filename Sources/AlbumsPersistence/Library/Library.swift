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
        /// The migrations to apply; tests replace them.
        var migrations: [Migration] = EmbeddedMigrations.all

        public init(busyTimeout: Double = 5, allowsConcurrentReads: Bool = true) {
            self.busyTimeout = busyTimeout
            self.allowsConcurrentReads = allowsConcurrentReads
        }
    }

    /// The file's path as given to ``open(at:options:)``.
    public let path: String
    let database: any DatabaseWriter
    let options: Options

    private init(path: String, database: any DatabaseWriter, options: Options) {
        self.path = path
        self.database = database
        self.options = options
    }

    /// Opens the library at `path`, creating it if the file is missing or
    /// empty and upgrading its schema if it is older than this build's.
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
    public static func open(at path: String, options: Options = Options()) throws(LibraryError) -> Library {
        let runner = MigrationRunner(migrations: options.migrations, path: path)
        do {
            let header = try DatabaseFileHeader.read(pathIfExists: path)
            if let header, header.applicationID != 0 {
                try refuseForeignOrNewer(applicationID: header.applicationID, userVersion: Int(header.userVersion), runner: runner)
            } else {
                // A new or empty file, a foreign file without an id, or a
                // library whose first migration still sits in its WAL: ask
                // SQLite, without changing the journal mode yet.
                try probe(path: path, runner: runner)
            }
            let database = try connect(path: path, options: options)
            let library = Library(path: path, database: database, options: options)
            try runner.migrate(database) { version in
                if options.backsUpBeforeUpgrading {
                    try library.backUp(schemaVersion: version)
                }
            }
            return library
        } catch {
            throw LibraryError(error, path: path, busyTimeout: options.busyTimeout)
        }
    }

    private static func refuseForeignOrNewer(applicationID: Int32, userVersion: Int, runner: MigrationRunner) throws(LibraryError) {
        guard applicationID == Self.applicationID else {
            throw .foreignApplication(path: runner.path, applicationID: applicationID)
        }
        if userVersion > runner.latestVersion {
            throw .newerSchema(path: runner.path, fileVersion: userVersion, supportedVersion: runner.latestVersion)
        }
    }

    private static func probe(path: String, runner: MigrationRunner) throws {
        var configuration = Configuration()
        configuration.label = "albums.probe"
        let probe = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? probe.close() }
        try probe.read { db in
            let applicationID = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
            if applicationID != 0 {
                let userVersion = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
                try refuseForeignOrNewer(applicationID: applicationID, userVersion: userVersion, runner: runner)
                return
            }
            let tables = try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_schema WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%' ORDER BY name")
            if !tables.isEmpty {
                throw LibraryError.foreignDatabase(path: path, tables: tables)
            }
        }
    }

    private static func connect(path: String, options: Options) throws -> any DatabaseWriter {
        var configuration = Configuration()
        configuration.label = "albums"
        configuration.busyMode = .timeout(options.busyTimeout)
        configuration.foreignKeysEnabled = true
        if options.allowsConcurrentReads {
            return try DatabasePool(path: path, configuration: configuration)
        }
        configuration.journalMode = .wal
        return try DatabaseQueue(path: path, configuration: configuration)
    }

    /// Copies the file, as it is before an upgrade, to a new file beside it.
    private func backUp(schemaVersion: Int) throws {
        let backupPath = Self.unusedPath(startingWith: "\(path).schema-\(schemaVersion).backup")
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
    /// - Throws: ``LibraryError``, or whatever `body` throws.
    public func read<T>(_ body: (LibraryReader) throws -> T) throws -> T {
        do {
            return try database.read { db in try body(LibraryReader(db: db, path: path)) }
        } catch {
            throw LibraryError(error, path: path, busyTimeout: options.busyTimeout)
        }
    }

    /// Runs `body` in one IMMEDIATE write transaction: everything it does is
    /// committed together, or, if it throws, nothing is.
    ///
    /// Each album the transaction changes gets its revision raised once.
    ///
    /// - Throws: ``LibraryError``, or whatever `body` throws.
    public func write<T>(_ body: (LibraryWriter) throws -> T) throws -> T {
        do {
            return try database.writeWithoutTransaction { db in
                var result: T?
                try db.inTransaction(.immediate) {
                    let writer = LibraryWriter(db: db, path: path)
                    result = try body(writer)
                    try writer.finish()
                    return .commit
                }
                // trap: inTransaction returned without running or throwing.
                guard let result else { fatalError("write transaction ended without a result") }
                return result
            }
        } catch {
            throw LibraryError(error, path: path, busyTimeout: options.busyTimeout)
        }
    }

    /// Closes the connection. Later calls fail.
    public func close() throws {
        do {
            if let pool = database as? DatabasePool {
                try pool.close()
            } else if let queue = database as? DatabaseQueue {
                try queue.close()
            }
        } catch {
            throw LibraryError(error, path: path, busyTimeout: options.busyTimeout)
        }
    }
}
