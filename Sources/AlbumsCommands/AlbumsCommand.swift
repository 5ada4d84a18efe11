import AlbumsImporting
import ArgumentParser
import Foundation

/// The `albums` command: every subcommand hangs off this root.
public struct AlbumsCommand: ParsableCommand {
    /// The root's configuration; it declares only the command this
    /// process's arguments name, when they name one (``TopLevelCommands``).
    public static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "albums",
            abstract: "Arrange photos into ordered albums kept in one SQLite file.",
            discussion: """
                The library file is --library PATH, else $ALBUMS_LIBRARY, else
                $XDG_DATA_HOME/albums/library.albums (~/.local/share/albums/library.albums).
                """,
            version: AlbumsCommand.version,
            subcommands: TopLevelCommands.declared(for: Array(CommandLine.arguments.dropFirst()))
        )
    }

    // Declared here too so that `albums --library PATH COMMAND` parses;
    // each subcommand reads the same options through its own group.
    @OptionGroup var global: GlobalOptions

    public init() {}

    /// The version `albums --version` prints.
    public static let version = "0.2.0"
}

extension AlbumsCommand {
    /// Runs the `albums` program: parses the command line, runs the command,
    /// exits with its status.
    public static func runProgram() -> Never {
        runProgram(servingWith: nil)
    }

    /// Runs the program; `albums serve` is served by `host` where the
    /// program links the server (`albums-serve`), and handed over to that
    /// program where it does not (`albums`).
    package static func runProgram(servingWith host: (any ServeHost.Type)?) -> Never {
        // Swift would turn invalid bytes into U+FFFD without a word: an album
        // named with them would silently get another name, a path would
        // point elsewhere. Refuse them instead.
        let arguments = Array(CommandLine.arguments.dropFirst())
        // --json covers usage errors too: a script gets a JSON error, not usage text.
        let json = arguments.prefix { $0 != "--" }.contains("--json")
        if let position = (1..<Int(CommandLine.argc)).first(where: { String(validatingCString: CommandLine.unsafeArgv[$0]!) == nil }) {
            let previous = position > 1 ? String(decoding: CommandLine.arguments[position - 1].utf8.prefix(40), as: UTF8.self) : nil
            exitReporting(
                ValidationError("argument \(position)\(previous.map { " (after '\($0)')" } ?? "") is not valid UTF-8: albums reads names, references and paths as UTF-8"),
                json: json)
        }
        var command: any ParsableCommand
        do {
            command = try TopLevelCommands.parseNamedCommand(arguments) ?? parseAsRoot(arguments)
        } catch {
            if let mistyped = TopLevelCommands.mistypedCommand(in: arguments) { exitFailing(mistyped, json: json) }
            exitReporting(error, json: json)
        }
        if let host, let serve = command as? ServeCommand {
            runToCompletion(json: json) { try await host.serve(serve) }
        } else if let waiting = TopLevelCommands.waiting(command) {
            runToCompletion(json: json) { try await waiting.run(parsed: command) }
        }
        // Every command that neither serves nor loads runs here, on the main
        // thread: no thread pool started, no thread's memory arena faulted
        // in, which is a good part of a short command's time.
        do {
            try command.run()
        } catch {
            exitFailing(afterRunning: error, json: json)
        }
        Foundation.exit(0)
    }

    /// Runs `body` (serving, loading) on the concurrency runtime's threads,
    /// then exits as a command that ran here would.
    private static func runToCompletion(json: Bool, _ body: sending @escaping () async throws -> Void) -> Never {
        Task {
            do {
                try await body()
            } catch {
                exitFailing(afterRunning: error, json: json)
            }
            Foundation.exit(0)
        }
        // Parks this thread for good; the task ends the process.
        dispatchMain()
    }

    /// Ends the program for an error a command's run threw.
    private static func exitFailing(afterRunning error: any Error, json: Bool) -> Never {
        // A command that met a bucket before writing anything runs again in
        // the program that links the object storage client.
        if case .unreachable(let place)? = error as? KeepingFailure, !OriginalKeepers.reachesBuckets {
            exitFailing(ServerProgram.handOver(for: "reaching \(place)"), json: json)
        }
        // A library the command created goes again: nothing was made in it.
        CreatedLibrary.removeAfterFailure()
        switch error {
        case let exit as ExitCode:
            Foundation.exit(exit.rawValue)
        case let error as ValidationError:
            exitFailing(error, json: json)
        case _ where String(reflecting: type(of: error)).hasPrefix("ArgumentParser."):
            // Help asked of a command with subcommands, and the like: ArgumentParser's own.
            exitReporting(error, json: json)
        default:
            exitFailing(error, json: json)
        }
    }

    /// The one place a command's failure becomes output and an exit status:
    /// one line on stderr (`albums: …`, or the JSON error object under
    /// --json), and the status ``ExitStatus`` gives it.
    static func exitFailing(_ error: any Error, json: Bool) -> Never {
        let report = ExitStatus.report(for: error)
        let line = json ? report.json : "albums: \(report.message)"
        StandardStream.error.write(line + "\n")
        Foundation.exit(report.status)
    }

    /// Ends the program for `error`: as ArgumentParser would (usage, help,
    /// version), or, under --json, with the JSON error object on stderr.
    private static func exitReporting(_ error: any Error, json: Bool) -> Never {
        let status = exitCode(for: error)
        if json, status == .success, message(for: error) == version {
            // --version is a result like any other: JSON under --json.
            print(#"{"version":"\#(version)"}"#)
            Foundation.exit(0)
        }
        // A command's own failure was reported already; help is no error.
        guard status != .success, !(error is ExitCode) else { exit(withError: error) }
        let lines = fullMessage(for: error).split(separator: "\n")
        let first = lines.first.map(String.init) ?? "invalid arguments"
        // ArgumentParser's sentences, in the voice of the rest: lower case, one sentence.
        var message = (first.hasPrefix("Error: ") ? String(first.dropFirst(7)) : first).replacingOccurrences(of: ". Did you mean", with: "; did you mean")
        if let initial = message.first, initial.isUppercase, message.dropFirst().first?.isLowercase == true {
            message = initial.lowercased() + message.dropFirst()
        }
        if json {
            StandardStream.error.write(ExitStatus.Report(status: status.rawValue, code: "usage", message: message).json + "\n")
        } else {
            // One voice for every mistake, as a command's own failures say theirs: `albums: …`, one line.
            let help = lines.lazy.compactMap { line in line.firstRange(of: "See '").flatMap { start in
                line[start.upperBound...].split(separator: "'", maxSplits: 1).first.map(String.init) } }.first
            StandardStream.error.write("albums: \(message)\(help.map { "; '\($0)' shows the usage" } ?? "")\n")
        }
        Foundation.exit(status.rawValue)
    }
}
