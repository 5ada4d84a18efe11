import GRDB

// GRDB prepares the SQL of `fetch…(db, sql:)` and `execute(sql:)` anew on
// every call; preparing costs more than running most of our statements.
// These variants reuse one prepared statement per SQL text and connection.
// Cursors keep fresh statements: a cached statement reused while a cursor
// iterates it would reset that cursor.

extension Database {
    /// Runs one SQL statement, prepared once per connection.
    func execute(cachedSQL sql: String, arguments: StatementArguments = StatementArguments()) throws {
        try cachedStatement(sql: sql).execute(arguments: arguments)
    }
}

extension DatabaseValueConvertible where Self: StatementColumnConvertible {
    static func fetchOne(_ db: Database, cachedSQL sql: String, arguments: StatementArguments = StatementArguments()) throws -> Self? {
        try fetchOne(db.cachedStatement(sql: sql), arguments: arguments)
    }

    static func fetchAll(_ db: Database, cachedSQL sql: String, arguments: StatementArguments = StatementArguments()) throws -> [Self] {
        try fetchAll(db.cachedStatement(sql: sql), arguments: arguments)
    }
}

extension DatabaseValueConvertible {
    static func fetchOne(_ db: Database, cachedSQL sql: String, arguments: StatementArguments = StatementArguments()) throws -> Self? {
        try fetchOne(db.cachedStatement(sql: sql), arguments: arguments)
    }

    static func fetchAll(_ db: Database, cachedSQL sql: String, arguments: StatementArguments = StatementArguments()) throws -> [Self] {
        try fetchAll(db.cachedStatement(sql: sql), arguments: arguments)
    }
}

extension Row {
    static func fetchOne(_ db: Database, cachedSQL sql: String, arguments: StatementArguments = StatementArguments()) throws -> Row? {
        try fetchOne(db.cachedStatement(sql: sql), arguments: arguments)
    }

    static func fetchAll(_ db: Database, cachedSQL sql: String, arguments: StatementArguments = StatementArguments()) throws -> [Row] {
        try fetchAll(db.cachedStatement(sql: sql), arguments: arguments)
    }
}
