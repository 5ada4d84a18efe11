import AlbumsPersistence
import ArgumentParser
import Foundation

/// The options every command takes, before or after the command name:
/// `albums [--library PATH] [--json] COMMAND`.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The library file (default: $ALBUMS_LIBRARY, else $XDG_DATA_HOME/albums/library.albums).", valueName: "PATH"))
    var library: String?

    @Flag(name: .long, help: "Print results as JSON (sorted keys, snake_case); errors as JSON on stderr.")
    var json = false

    /// The library path: --library, else $ALBUMS_LIBRARY, else the XDG data folder.
    func resolvedPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let library { return library }
        if let path = environment["ALBUMS_LIBRARY"], !path.isEmpty { return path }
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        return dataHome + "/albums/library.albums"
    }

    /// Opens (creating or upgrading) the library, creating the default folder on first use.
    func openLibrary() throws -> Library {
        let path = resolvedPath()
        if library == nil && ProcessInfo.processInfo.environment["ALBUMS_LIBRARY"].map(\.isEmpty) != false {
            try? FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        }
        return try Library.open(at: path, options: Library.Options(allowsConcurrentReads: false))
    }

    var console: Console { Console(json: json) }
}
