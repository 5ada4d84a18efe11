import Foundation
import GRDB

/// Another application's SQLite file, such as a photo organizer's catalog,
/// opened only to be read: never written and never locked for writing, so
/// that it can be read while its application has it open; on read-only
/// media, where SQLite cannot take even a read lock, it is read immutable.
public final class ForeignDatabaseFile: Sendable {
    /// The file's path.
    public let path: String
    private let queue: DatabaseQueue

    /// One row of a query, by column name.
    public struct Row: Sendable {
        fileprivate let values: [String: DatabaseValue]

        /// The column's integer; nil for NULL or another type.
        public func integer(_ column: String) -> Int64? { values[column].flatMap { Int64.fromDatabaseValue($0) } }
        /// The column's text; nil for NULL or another type.
        public func text(_ column: String) -> String? { values[column].flatMap { String.fromDatabaseValue($0) } }
        /// The column's number as a Double (integers too); nil for NULL or text.
        public func real(_ column: String) -> Double? { values[column].flatMap { Double.fromDatabaseValue($0) } }
    }

    /// Why a file cannot be read.
    public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// No file there, or a folder.
        case missing(path: String)
        /// The file is not an SQLite database.
        case notSQLite(path: String)
        /// SQLite could not read it: damaged, or unreadable.
        case unreadable(path: String, detail: String)

        public var description: String {
            switch self {
            case .missing(let path): "no file at \(path)"
            case .notSQLite(let path): "\(path) is not an SQLite database"
            case .unreadable(let path, let detail): "cannot read \(path): \(detail)"
            }
        }
    }

    /// Opens `path` to read.
    ///
    /// - Throws: ``Failure``.
    public init(path: String) throws(Failure) {
        self.path = path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else { throw .missing(path: path) }
        guard let handle = FileHandle(forReadingAtPath: path) else { throw .unreadable(path: path, detail: "permission denied") }
        let header = (try? handle.read(upToCount: 16)) ?? Data()
        try? handle.close()
        guard header == Data("SQLite format 3\0".utf8) else { throw .notSQLite(path: path) }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "foreign"
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            // A read lock cannot be taken on read-only media: read it immutable there.
            do {
                _ = try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sqlite_schema") }
                self.queue = queue
            } catch {
                let immutable = try DatabaseQueue(path: ImmutableDatabaseFile.uri(path), configuration: configuration)
                _ = try immutable.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sqlite_schema") }
                self.queue = immutable
            }
        } catch let error as DatabaseError {
            throw .unreadable(path: path, detail: error.message ?? "SQLite error \(error.resultCode.rawValue)")
        } catch {
            throw .unreadable(path: path, detail: "\(error)")
        }
    }

    /// The tables and views, each with its columns (names as declared).
    ///
    /// - Throws: ``Failure/unreadable(path:detail:)``.
    public func columns() throws(Failure) -> [String: Set<String>] {
        try reading { db in
            var tables: [String: Set<String>] = [:]
            for name in try String.fetchAll(db, sql: "SELECT name FROM sqlite_schema WHERE type IN ('table', 'view')") {
                tables[name] = Set(try db.columns(in: name).map(\.name))
            }
            return tables
        }
    }

    /// The rows of a query, all read at once.
    ///
    /// - Throws: ``Failure/unreadable(path:detail:)`` (a damaged file fails here).
    public func rows(_ sql: String, arguments: [String] = []) throws(Failure) -> [Row] {
        try reading { db in
            try GRDB.Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments)).map { row in
                Row(values: Dictionary(row.columnNames.enumerated().map { ($1, row[$0] as DatabaseValue) }) { a, _ in a })
            }
        }
    }

    /// Runs `body` on each row `sql` reads, one at a time: a catalog's table
    /// of a hundred thousand photos is never held whole.
    public func forEachRow(_ sql: String, arguments: [String] = [], _ body: (Row) throws -> Void) throws {
        var failure: (any Error)?
        try reading { db in
            let rows = try GRDB.Row.fetchCursor(db, sql: sql, arguments: StatementArguments(arguments))
            while let row = try rows.next() {
                do {
                    try body(Row(values: Dictionary(row.columnNames.enumerated().map { ($1, row[$0] as DatabaseValue) }) { a, _ in a }))
                } catch {
                    // The body's own error, passed on as it is, not as the file's.
                    failure = error
                    return
                }
            }
        }
        if let failure { throw failure }
    }

    private func reading<T>(_ body: (Database) throws -> T) throws(Failure) -> T {
        do {
            return try queue.read(body)
        } catch let error as DatabaseError {
            throw .unreadable(path: path, detail: error.message ?? "SQLite error \(error.resultCode.rawValue)")
        } catch {
            throw .unreadable(path: path, detail: "\(error)")
        }
    }
}
