import ArgumentParser
import Testing

@testable import AlbumsCommands

/// The root declares only the command its arguments name (an eighth of a
/// short command's time was ArgumentParser reading all sixty); these hold
/// that narrowing to the commands' own names and to what users see.
@Suite("Top-level commands: the root declares the one the arguments name")
struct TopLevelCommandsTests {
    @Test("each top-level command is found by its own name, and only by it")
    func namesMatchTheCommands() {
        let commands = TopLevelCommands.all
        #expect(commands.count == TopLevelCommands.names.count)
        #expect(commands.count == 25)
        for command in commands {
            let name = command._commandName
            #expect(isCommand(TopLevelCommands.named(name), command), "'\(name)' names another command, or none")
            for alias in command.configuration.aliases {
                #expect(isCommand(TopLevelCommands.named(alias), command), "the alias '\(alias)' of '\(name)' is not found")
            }
        }
        #expect(Set(commands.map { $0._commandName }).count == commands.count)
        for word in ["help", "mvoe", "Move", "", "bash"] {
            #expect(TopLevelCommands.named(word) == nil)
        }
    }

    @Test("the command's name is the first argument that is no root option or --library's value")
    func commandWord() {
        #expect(TopLevelCommands.commandWord(in: ["move", "Trip:1", "--to", "Book"]) == "move")
        #expect(TopLevelCommands.commandWord(in: ["--library", "move", "--json", "list", "Trip"]) == "list")
        #expect(TopLevelCommands.commandWord(in: ["--library=move.albums", "album", "list"]) == "album")
        #expect(TopLevelCommands.commandWord(in: ["--json", "--library"]) == nil)
        #expect(TopLevelCommands.commandWord(in: ["--", "move"]) == nil)
        #expect(TopLevelCommands.commandWord(in: []) == nil)
        let declared = TopLevelCommands.declared(for: ["--json", "move", "Trip:1"])
        #expect(declared.count == 1 && isCommand(declared.first, MoveCommand.self))
        #expect(TopLevelCommands.declared(for: ["--help"]).count == 25)
        #expect(TopLevelCommands.declared(for: ["mvoe"]).count == 25)
    }

    @Test("help, typos and a command's own help read as with every command declared")
    func whatUsersSee() throws {
        let cli = try CLI()
        let help = try cli.run("--help")
        #expect(help.status == 0)
        for command in TopLevelCommands.all {
            #expect(help.stdout.contains("  \(command._commandName) "), "albums --help does not list \(command._commandName)")
        }
        let typo = try cli.run("mvoe")
        #expect(typo.status == 64)
        #expect(typo.stderr.contains("Unexpected argument 'mvoe'"))
        let moveHelp = try cli.run("--library", "move", "move", "--help")
        #expect(moveHelp.status == 0)
        #expect(moveHelp.stdout.contains("USAGE: albums move "))
    }

    @Test("the commands run on the concurrency runtime are exactly the AsyncParsableCommands")
    func waitingCommands() {
        var commands: [any ParsableCommand.Type] = []
        var pending = TopLevelCommands.all
        while let command = pending.popLast() {
            commands.append(command)
            pending += command.configuration.subcommands
        }
        #expect(commands.count > 50)
        let asynchronous = Set(commands.filter { $0 is any AsyncParsableCommand.Type }.map { $0._commandName })
        #expect(Set(TopLevelCommands.waitingCommands.map { $0._commandName }) == asynchronous)
        #expect(asynchronous == ["serve", "import", "resume"])
        for command in commands {
            let waiting = TopLevelCommands.waiting(command.init())
            #expect((waiting != nil) == (command is any AsyncParsableCommand.Type), "\(command._commandName)")
        }
    }

    private func isCommand(_ found: (any ParsableCommand.Type)?, _ command: any ParsableCommand.Type) -> Bool {
        guard let found else { return false }
        return found == command
    }
}
