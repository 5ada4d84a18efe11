import ArgumentParser
import GRDB

// The floor of an `albums` process: the same dependencies (ArgumentParser,
// GRDB and the Foundation it imports, linked the same way) doing the same
// SQL as `sqlite3` in the process benchmark, with none of albums' own
// work. Its commands run on the main thread, as albums runs every command
// that does not serve or load. `albums` cannot start faster than this; the
// process table prints it beside albums and sqlite3 (BENCHMARKS.md, "Why
// the process targets are short").

struct Options: ParsableArguments {
    @Option var library: String?
    @Flag var json = false
}

@main
struct Floor: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "albums-floor", version: "0.2.0", subcommands: [AlbumCommand.self, MoveCommand.self])
    @OptionGroup var options: Options
}

struct AlbumCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "album", subcommands: [List.self])

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list")
        @OptionGroup var options: Options

        func run() throws {
            let database = try DatabaseQueue(path: options.library ?? "library.albums")
            let rows = try database.read { database in
                try Row.fetchAll(database, sql: "SELECT name, item_count, placeholder_count, revision, is_locked FROM album ORDER BY order_key")
            }
            for row in rows {
                print(row["name"] as String, row["item_count"] as Int, row["placeholder_count"] as Int, row["revision"] as Int, separator: "  ")
            }
        }
    }
}

struct MoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "move")
    @OptionGroup var options: Options
    @Argument var references: [String]
    @Option var to: String

    func run() throws {
        let database = try DatabaseQueue(path: options.library ?? "library.albums")
        try database.write { database in
            try database.execute(sql: "UPDATE album_item SET order_key = order_key WHERE id = 1")
        }
    }
}
