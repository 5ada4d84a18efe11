import ArgumentParser
import Testing

@testable import AlbumsCommands

/// The root declares only the command its arguments name (an eighth of a
/// short command's time was ArgumentParser reading all sixty), and a
/// named command is parsed on its own; these hold both to the commands'
/// own names, to what the root would parse and to what users see.
@Suite("Top-level commands: the root declares the one the arguments name")
struct TopLevelCommandsTests {
    @Test("each top-level command is found by its own name, and only by it")
    func namesMatchTheCommands() {
        let commands = TopLevelCommands.all
        #expect(commands.count == TopLevelCommands.names.count)
        #expect(commands.count == 28)
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
        #expect(TopLevelCommands.commandWord(in: ["--help", "move"]) == nil)
        #expect(TopLevelCommands.commandWord(in: ["--json", "-h", "album", "list"]) == nil)
        let declared = TopLevelCommands.declared(for: ["--json", "move", "Trip:1"])
        #expect(declared.count == 1 && isCommand(declared.first, MoveCommand.self))
        #expect(TopLevelCommands.declared(for: ["--help"]).count == 28)
        #expect(TopLevelCommands.declared(for: ["mvoe"]).count == 28)
    }

    @Test("help, typos and a command's own help read as with every command declared")
    func whatUsersSee() throws {
        let cli = try CLI()
        let help = try cli.run("--help")
        #expect(help.status == 0)
        for command in TopLevelCommands.all {
            #expect(help.stdout.contains("  \(command._commandName) "), "albums --help does not list \(command._commandName)")
        }
        // An option before the command's name makes the line the root's: every command declared.
        for line in [["--help", "move"], ["-h", "move"], ["--json", "--help", "move"]] {
            let rootHelp = try cli.run(line)
            #expect(rootHelp.status == 0)
            for command in TopLevelCommands.all {
                #expect(rootHelp.stdout.contains("  \(command._commandName) "), "albums \(line) does not list \(command._commandName)")
            }
        }
        let typo = try cli.run("mvoe")
        #expect(typo.status == 64)
        #expect(typo.stderr == "albums: 'mvoe' is not an albums command; did you mean 'move'?\n")
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
        // move and bucket are storage move and storage bucket; check and export may read a bucket.
        #expect(asynchronous == ["serve", "import", "resume", "relink", "move", "bucket", "check", "export"])
        for command in commands {
            let waiting = TopLevelCommands.waiting(command.init())
            #expect((waiting != nil) == (command is any AsyncParsableCommand.Type), "\(command._commandName)")
        }
    }

    @Test("a command parsed on its own reads every value the root would give it")
    func namedCommandParsesAsTheRoot() throws {
        let lines: [[String]] = [
            ["move", "Trip:1", "--to", "Book"],
            ["--library", "x.albums", "move", "Trip:2-4", "Trip:9", "--to", "Book", "--at", "5"],
            ["--json", "--library=x.albums", "move", "id:42", "--from", "Trip", "--before", "Book:1", "--dry-run"],
            ["move", "Trip:1", "--after", "Book:2", "--expect-revision", "7", "--expect-revision", "Book=3", "--library", "y.albums"],
            ["move", "--json", "Trip:1", "--to", "Book", "--", "Trip:2"],
            ["--library", "a.albums", "copy", "Trip:1-3", "--to", "Portfolio", "--library", "b.albums"],
            ["swap", "Trip:1", "Trip:9"],
            ["remove", "Trip:2-5", "--expect-revision", "12", "--json"],
            ["list", "Trip"],
            ["--json", "list", "Trip"],
            ["show", "Trip:1"],
            ["init"],
            ["album", "list"],
            ["--json", "album", "create", "Trip", "--into", "Travel"],
            ["album", "rename", "Trip", "Lisbon", "--dry-run"],
            ["album", "move", "Trip", "--into", "Travel", "--at", "1"],
            ["album", "lock", "Trip"],
            ["folder", "create", "Travel"],
            ["folder", "list"],
            ["pending", "list"],
            ["pending", "cancel", "3", "4", "--dry-run"],
            ["history"],
            ["history", "--json"],
            ["undo"],
            ["redo", "--dry-run"],
            ["import", "photos", "--to", "Trip", "--recursive", "--jobs", "2"],
            ["export", "Trip", "out", "--force"],
            ["checkpoints"],
            ["inspect", "file.sqlite"],
            ["check"],
            ["user", "list"],
            ["share", "list"],
            ["link", "list"],
        ]
        for line in lines {
            let root = try AlbumsCommand.parseAsRoot(line)
            let named = try #require(TopLevelCommands.parseNamedCommand(line), "\(line) was not parsed on its own")
            #expect(type(of: named) == type(of: root), "\(line)")
            #expect(String(reflecting: named) == String(reflecting: root), "\(line)")
        }
    }

    @Test("help, errors, groups and anything before the name are left to the root")
    func rootParsesTheRest() {
        let lines: [[String]] = [
            [], ["--help"], ["--version"], ["--json", "--version"], ["help", "move"], ["mvoe", "Trip:1"],
            ["move", "--help"], ["move", "-h"], ["move", "Trip:1"], ["move", "Trip:1", "--to", "Book", "--at", "0"],
            ["move", "Trip:1", "--to"], ["move", "Trip:1", "--to", "Book", "--nope"],
            ["album"], ["album", "nope"], ["pending"], ["--dry-run", "move", "Trip:1", "--to", "Book"],
            ["--library"], ["--", "move", "Trip:1", "--to", "Book"],
            ["move", "--generate-completion-script", "bash"], ["album", "list", "--generate-completion-script"],
        ]
        for line in lines {
            #expect(TopLevelCommands.parseNamedCommand(line) == nil, "\(line)")
        }
    }

    @Test("a completion script is the root's to give, wherever the line asks for it")
    func completionScripts() throws {
        let cli = try CLI()
        let script = try cli.run("--generate-completion-script", "bash")
        #expect(script.status == 0)
        #expect(script.stdout.hasPrefix("#!/bin/bash") && script.stdout.contains("move") && script.stdout.contains("album"))
        // Named after a command, the request still reaches the root (which then declares that command alone).
        let named = try cli.run("move", "--generate-completion-script", "bash")
        #expect(named.status == 0)
        #expect(named.stdout.hasPrefix("#!/bin/bash") && named.stdout.contains("--to"))
    }

    private func isCommand(_ found: (any ParsableCommand.Type)?, _ command: any ParsableCommand.Type) -> Bool {
        guard let found else { return false }
        return found == command
    }
}
