import AlbumsPersistence
import AlbumsTransfer
import ArgumentParser
import Foundation

/// The options every command takes, before or after the command name:
/// `albums [--library PATH] [--json] COMMAND`.
package struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The library file (default: $ALBUMS_LIBRARY, else $XDG_DATA_HOME/albums/library.albums).", valueName: "PATH"))
    package var library: String?

    @Flag(name: .long, help: "Print results as JSON (sorted keys, snake_case); errors as JSON on stderr.")
    package var json = false

    package init() {}

    /// The library path: --library, else $ALBUMS_LIBRARY, else the XDG data folder.
    func resolvedPath(environment: (String) -> String? = ProcessEnvironment.value) -> String {
        if let library { return library }
        if let path = environment("ALBUMS_LIBRARY"), !path.isEmpty { return path }
        let dataHome = environment("XDG_DATA_HOME").flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment("HOME") ?? NSHomeDirectory()) + "/.local/share"
        return dataHome + "/albums/library.albums"
    }

    /// What a command does with the library it opens.
    package enum Purpose {
        /// Reads only (dry runs included): a missing library is an error,
        /// never created; a read-only one is opened read-only.
        case reading
        /// Changes what the library holds (a move, an undo, a lock): a
        /// missing library is an error, as for reading, since there is
        /// nothing to change.
        case writing
        /// Makes something from nothing (`init`, `import`, `album create`,
        /// `folder create`, `user add`, `apply`, `serve`): a missing library
        /// is created, with the default folder, and removed again if the
        /// command fails before anything is made in it.
        case creating
    }

    /// Opens the library for use (``Library/openForUse(at:options:)``:
    /// created where the purpose allows, upgraded, facts read again) and
    /// shows the notes an upgrade left.
    package func openLibrary(for purpose: Purpose, concurrentReads: Bool = false) throws -> Library {
        let path = resolvedPath()
        // Only a command that may create looks first (a stat): every other one opens an existing library.
        let wasMissing = purpose == .creating && LibraryPath.inspect(path) == .missingOrEmpty
        let wasEmptyFile = wasMissing && FileIdentity.of(path) != nil
        // A command that creates the library makes its folder too, wherever it is
        // given; should the command then fail, the folders go with the file.
        let madeFolders = wasMissing ? Self.makeFolders(holding: path) : []
        // What opening means (upgrade, facts read again, notes) is the library's rule, not the CLI's.
        let (library, opening) = try Library.openForUse(
            at: path, options: Library.Options(allowsConcurrentReads: concurrentReads, access: purpose == .creating ? .createIfMissing : .existing))
        if wasMissing { CreatedLibrary.note(library, wasEmptyFile: wasEmptyFile, folders: madeFolders) }
        OpenedLibrary.note(library)
        for note in opening.upgradeNotes { console.notice(note) }
        return library
    }

    /// Makes the missing folders above `path`, and says which it made,
    /// innermost first; none when they all exist or cannot be made (the
    /// open then says why).
    private static func makeFolders(holding path: String) -> [String] {
        var missing: [String] = []
        var folder = LibraryPath.folder(of: path)
        while !FileManager.default.fileExists(atPath: folder), folder != "/", folder != ".", !missing.contains(folder) {
            missing.append(folder)
            folder = LibraryPath.folder(of: folder)
        }
        guard let innermost = missing.first,
            (try? FileManager.default.createDirectory(atPath: innermost, withIntermediateDirectories: true)) != nil
        else { return [] }
        return missing
    }

    /// For the dry run of a command that would create the library: the
    /// library, or, where there is none yet, an empty one in a temporary
    /// folder, which is what the real run would start from. Call `finished`
    /// when done with it.
    func openLibraryToPlan() throws -> (library: Library, finished: () -> Void) {
        guard LibraryPath.inspect(resolvedPath()) == .missingOrEmpty else { return (try openLibrary(for: .reading), {}) }
        let folder = FileManager.default.temporaryDirectory.appending(path: "albums-plan-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let library = try Library.open(at: folder.appending(path: "empty.albums").path)
        return (library, { try? FileManager.default.removeItem(at: folder) })
    }

    /// Opens the library to write, or, with `dryRun`, for a dry run that
    /// writes in a transaction rolled back (batch, undo and redo dry runs:
    /// their later steps must see the earlier ones). Such a dry run needs a
    /// library that can be written, and says so, in one line, of one that
    /// cannot; the dry run of one operation is its proposal and needs no
    /// such thing.
    func openLibraryToWrite(dryRun: Bool, what: String, purpose: Purpose = .writing) throws -> Library {
        let library = try openLibrary(for: dryRun ? .reading : purpose)
        if dryRun && library.isReadOnly {
            throw CommandFailure(
                status: ExitStatus.inputOutput, code: LibraryError.readOnly(path: library.path).code,
                message: "\(LibraryError.readOnly(path: library.path).description): a dry run of \(what) writes in a transaction it rolls back, "
                    + "which needs a library that can be written (the dry run of a single operation is checked with reads only)")
        }
        return library
    }

    package var console: Console { Console(json: json) }
}
