import AlbumsPersistence
import ArgumentParser

/// The commands directly under `albums`, and the one a command line names.
///
/// ArgumentParser builds the whole tree of commands before it parses: it
/// reads every command's configuration and instantiates its conformances,
/// faulting in the pages of sixty commands to run one. That was an eighth
/// of `albums move`'s time (BENCHMARKS.md, "Why the process targets are
/// short"). So the root lists only the command the arguments name, when
/// they name one, and every command otherwise: help, a typo, or no command.
/// Better still, a line that names its command is parsed as that
/// command's own (``parseNamedCommand(_:)``), and the root only parses
/// what that command alone refuses.
enum TopLevelCommands {
    /// Every top-level command's name, in the order `albums --help` lists them.
    static let names = [
        "init", "album", "folder", "list", "show", "photos", "import", "move", "copy", "swap", "remove", "mark", "apply",
        "pending", "history", "undo", "redo", "export", "storage", "backup", "checkpoints", "inspect", "check", "relink", "serve",
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
        case "photos": PhotosCommand.self
        case "import": ImportCommand.self
        case "move": MoveCommand.self
        case "copy": CopyCommand.self
        case "swap": SwapCommand.self
        case "remove": RemoveCommand.self
        case "mark": MarkCommand.self
        case "apply": ApplyCommand.self
        case "pending": PendingCommand.self
        case "history": HistoryCommand.self
        case "undo": UndoCommand.self
        case "redo": RedoCommand.self
        case "export": ExportCommand.self
        case "storage": StorageCommand.self
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

    /// The command `arguments` name, parsed as a root of its own, when
    /// nothing but the root's options stands before its name; nil when the
    /// line is for the root to parse.
    ///
    /// Parsing from the root, ArgumentParser builds the named command's
    /// arguments (reflecting each of its option groups) four times where
    /// once does: it asks twice whether the command takes all remaining
    /// input, and once more whether it takes unrecognized input: 8% of
    /// `albums move`'s instructions, 10% of `album list`'s. The command
    /// parses the same options: each declares the root's (``GlobalOptions``).
    ///
    /// Nil for no command named, a group without its subcommand, anything
    /// but the root's options before the name, and for a line the command
    /// alone refuses (help, a typo, a missing value): the root parses
    /// those again, so help and errors read exactly as the root gives them.
    static func parseNamedCommand(_ arguments: [String]) -> (any ParsableCommand)? {
        guard let nameIndex = commandIndex(in: arguments), var command = named(arguments[nameIndex]) else { return nil }
        let rootOptions = arguments[..<nameIndex]
        var index = nameIndex + 1
        while case let subcommands = command.configuration.subcommands, !subcommands.isEmpty {
            guard index < arguments.endIndex,
                let subcommand = subcommands.first(where: { $0._commandName == arguments[index] || $0.configuration.aliases.contains(arguments[index]) })
            else { return nil }
            command = subcommand
            index += 1
        }
        // Help asked of the command comes back as ArgumentParser's help command: the root's to give.
        guard let parsed = try? command.parseAsRoot(Array(rootOptions) + arguments[index...]), type(of: parsed) == command else { return nil }
        return parsed
    }

    /// What a line that parses as no command was probably meant to be: a
    /// first word that is no command, or a word after a group (`album`,
    /// `folder`, …) that is none of its commands, with the nearest name
    /// where one is a typo or two away. Nil for any other mistake.
    static func mistypedCommand(in arguments: [String]) -> CommandFailure? {
        guard let index = commandIndex(in: arguments) else { return nil }
        let word = arguments[index]
        guard var command = named(word) else {
            return mistyped("'\(word)' is not an albums command; " + suggestion(for: word, among: names, help: "albums --help"))
        }
        var path = word
        var next = index + 1
        while next < arguments.endIndex {
            let subcommands = command.configuration.subcommands
            if subcommands.isEmpty { return nil }
            let typed = arguments[next]
            guard !typed.hasPrefix("-") else { return nil }
            guard let subcommand = subcommands.first(where: { $0._commandName == typed || $0.configuration.aliases.contains(typed) }) else {
                let names = subcommands.map { $0._commandName }
                // A group that runs a command when given none takes its arguments: only a near miss is a typo there.
                if command.configuration.defaultSubcommand != nil, EditDistance.nearest(to: typed, among: names) == nil { return nil }
                let article = path.first.map { "aeio".contains($0) } == true ? "an" : "a"
                return mistyped("'\(typed)' is not \(article) \(path) command; " + suggestion(for: typed, among: names, help: "albums \(path) --help"))
            }
            command = subcommand
            path += " " + typed
            next += 1
        }
        return nil
    }

    private static func mistyped(_ message: String) -> CommandFailure {
        CommandFailure(status: ExitStatus.usage, code: "usage", message: message)
    }

    private static func suggestion(for word: String, among names: [String], help: String) -> String {
        EditDistance.nearest(to: word, among: names).map { "did you mean '\($0)'?" } ?? "\(help) lists them"
    }

    /// The commands that wait on other work (serving, loading, relinking
    /// placeholders), which run on the concurrency runtime's threads; every
    /// other command runs on the main thread. A test holds this list equal to the commands that
    /// are `AsyncParsableCommand`s.
    static let waitingCommands: [any AsyncParsableCommand.Type] = [
        ServeCommand.self, ImportCommand.self, PendingCommand.Resume.self, RelinkCommand.self, StorageCommand.Move.self,
        StorageCommand.Bucket.self, CheckCommand.self, ExportCommand.self,
    ]

    /// The type of `command` when it is one of ``waitingCommands``.
    ///
    /// Compared by type, not asked with `as? AsyncParsableCommand`: asking
    /// the runtime whether a type conforms to a protocol scans every
    /// conformance record in the binary, twice here, for every command.
    static func waiting(_ command: any ParsableCommand) -> (any AsyncParsableCommand.Type)? {
        let identity = ObjectIdentifier(type(of: command))
        return waitingCommands.first { ObjectIdentifier($0) == identity }
    }

    /// The command's name in `arguments`: the first argument after the
    /// root's own options (`--json`, `--library PATH`), if nothing else
    /// comes before it. Any other option first (`--help`, `-h`, `--version`,
    /// a typo, `--`) makes the line the root's, with every command declared.
    static func commandWord(in arguments: [String]) -> String? {
        commandIndex(in: arguments).map { arguments[$0] }
    }

    /// Where ``commandWord(in:)`` stands in `arguments`.
    private static func commandIndex(in arguments: [String]) -> Int? {
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            if argument == "--json" || argument.hasPrefix("--library=") {
                index += 1
            } else if argument == "--library" {
                index += 2
            } else if argument.hasPrefix("-") {
                return nil
            } else {
                return index
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

extension CommandConfiguration {
    /// This configuration for a command `TopLevelCommands.parseNamedCommand`
    /// parses on its own, as ArgumentParser's root: named as a command of
    /// `albums`, which tells ArgumentParser not to parse the line twice more
    /// looking for `--generate-completion-script` (most of a command's parse,
    /// on every run). That request goes to the real root, which has it.
    var parsedOnItsOwn: CommandConfiguration {
        var configuration = self
        configuration._superCommandName = "albums"
        return configuration
    }
}
