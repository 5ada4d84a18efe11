import AlbumsPersistence
import ArgumentParser
import Foundation

/// The options every command that opens a library takes.
struct LibraryOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The library file.", valueName: "PATH"))
    var library: String?

    /// The library path: --library, else $ALBUMS_LIBRARY, else the XDG data folder.
    func resolvedPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let library { return library }
        if let path = environment["ALBUMS_LIBRARY"], !path.isEmpty { return path }
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        return dataHome + "/albums/library.albums"
    }

    /// Opens the library, creating its folder when it is the default one.
    func open() throws -> Library {
        let path = resolvedPath()
        if library == nil {
            let folder = (path as NSString).deletingLastPathComponent
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        return try Library.open(at: path, options: Library.Options(allowsConcurrentReads: false))
    }
}
