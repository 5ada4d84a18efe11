import ArgumentParser

/// The commands directly under `albums`, and the one a command line names.
///
/// ArgumentParser builds the whole tree of commands before it parses: it
/// reads every command's configuration and instantiates its conformances,
/// faulting in the pages of sixty commands to run one. That was an eighth
/// of `albums move`'s time (BENCHMARKS.md, "Why the process targets are
/// short"). So the root lists only the command the arguments name, when
/// they name one, and every command otherwise: help, a typo, or no command.
enum TopLevelCommands {
    /// Every top-level command's name, in the order `albums --help` lists them.
    static let names = [
        "init", "album", "folder", "list", "show", "import", "move", "copy", "swap", "remove", "apply",
        "pending", "history", "undo", "redo", "export", "backup", "checkpoints", "inspect", "check", "relink", "serve",
        "user", "share", "link",
    ]

    /// Every top-level command, in the order `albums --help` lists them.
    static var all: [any ParsableCommand.Type] { names.compactMap(named) }

    /// The root's subcommands for `arguments` (the command line without the program name).
    static func declared(for arguments: [String]) -> [any ParsableCommand.Type] {
        named(commandWord(in: arguments)).map { [$0] } ?? all
    }

    /// The top-level command called `name`. Each case names a command
    /// without reading its configuration, which is the cost avoided; a
    /// test holds the names equal to the commands' own.
    static func named(_ name: String?) -> (any ParsableCommand.Type)? {
        switch name {
        case "init": InitCommand.self
        case "album": AlbumCommand.self
        case "folder": FolderCommand.self
        case "list": ListCommand.self
        case "show": ShowCommand.self
        case "import": ImportCommand.self
        case "move": MoveCommand.self
        case "copy": CopyCommand.self
        case "swap": SwapCommand.self
        case "remove": RemoveCommand.self
        case "apply": ApplyCommand.self
        case "pending": PendingCommand.self
        case "history": HistoryCommand.self
        case "undo": UndoCommand.self
        case "redo": RedoCommand.self
        case "export": ExportCommand.self
        case "backup": BackupCommand.self
        case "checkpoints": CheckpointsCommand.self
        case "inspect": InspectCommand.self
        case "check": CheckCommand.self
        case "relink": RelinkCommand.self
        case "serve": ServeCommand.self
        case "user": UserCommand.self
        case "share": ShareCommand.self
        case "link": LinkCommand.self
        default: nil
        }
    }

    /// The commands that wait on other work (serving, loading), which run
    /// on the concurrency runtime's threads; every other command runs on
    /// the main thread. A test holds this list equal to the commands that
    /// are `AsyncParsableCommand`s.
    static let waitingCommands: [any AsyncParsableCommand.Type] = [ServeCommand.self, ImportCommand.self, PendingCommand.Resume.self]

    /// The type of `command` when it is one of ``waitingCommands``.
    ///
    /// Compared by type, not asked with `as? AsyncParsableCommand`: asking
    /// the runtime whether a type conforms to a protocol scans every
    /// conformance record in the binary, twice here, for every command.
    static func waiting(_ command: any ParsableCommand) -> (any AsyncParsableCommand.Type)? {
        let identity = ObjectIdentifier(type(of: command))
        return waitingCommands.first { ObjectIdentifier($0) == identity }
    }

    /// The first argument that is neither one of the root's options nor
    /// the value of `--library`: the command's name, if there is one.
    static func commandWord(in arguments: [String]) -> String? {
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            if argument == "--" { return nil }
            if argument == "--library" {
                index += 2
            } else if argument.hasPrefix("-") {
                index += 1
            } else {
                return argument
            }
        }
        return nil
    }
}

extension AsyncParsableCommand {
    /// Runs `command`, parsed as this type (see ``TopLevelCommands/waiting(_:)``).
    static func run(parsed command: any ParsableCommand) async throws {
        var command = command as! Self
        try await command.run()
    }
}
