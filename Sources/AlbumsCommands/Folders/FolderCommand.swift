import AlbumsPersistence
import AlbumsTransfer
import AlbumsWire
import ArgumentParser

struct FolderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "folder",
        abstract: "Arrange albums into folders: an ordered tree.",
        discussion: """
            A folder holds albums and folders in a manual order. A folder is named by its path
            from the top level (Travel/2026); an album by its name, which is unique, or its path.
            """,
        subcommands: [Create.self, List.self, Rename.self, Delete.self, Move.self, Lock.self, Unlock.self]).parsedOnItsOwn

    /// Runs a folder change (or its dry run) and prints what it did.
    static func change(
        _ global: GlobalOptions, _ write: WriteOptions, _ operation: FolderOperation, verb: String, purpose: GlobalOptions.Purpose = .writing
    ) throws {
        let expected = try write.revisions(target: nil)
        let result = try AlbumCommand.perform(.folder(operation, expecting: expected), global, dryRun: write.dryRun, purpose: purpose)
        AlbumCommand.report(result, global, write, verb: verb)
    }

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "create", abstract: "Create an empty folder.",
            discussion: """
                PATH's last name is the new folder's; the rest names the folder it goes into
                (which must exist). Names follow the rules of album names, without '/', and are
                unique among their siblings (albums and folders). Without a place it goes last.

                Examples:
                  albums folder create Travel
                  albums folder create Travel/2026 --at 1
                  albums folder create Books --before Travel
                """).parsedOnItsOwn

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The new folder's path (Travel/2026).") var path: String
        @OptionGroup var place: TreePlacementOptions
        @OptionGroup var write: WriteOptions

        func validate() throws {
            if parts.parent != nil && (place.into != nil || place.before != nil || place.after != nil) {
                throw ValidationError("the path already names the folder it goes into; give only --at N with it")
            }
        }

        /// PATH split at its last '/': the folder it goes into (if PATH names
        /// one), and the new folder's name. A trailing '/' is no part of it.
        private var parts: (parent: String?, name: String) {
            let trimmed = path.hasSuffix("/") ? path.dropLast() : Substring(path)
            guard let slash = trimmed.lastIndex(of: "/") else { return (nil, String(trimmed)) }
            return (String(trimmed[..<slash]), String(trimmed[trimmed.index(after: slash)...]))
        }

        func run() throws {
            let (parentPath, name) = parts
            let placement: TreePlacement =
                if let parentPath {
                    place.at.map { .at($0 - 1, in: .path(parentPath)) } ?? .into(.path(parentPath))
                } else {
                    place.placement ?? .into(nil)
                }
            try FolderCommand.change(
                global, write, .create(name: name, placement: placement), verb: "created folder \(LibraryError.quoted(path))", purpose: .creating)
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List the folders in the tree's order, each with its path.",
            discussion: """
                --json prints {"folders": [{"id", "name", "path", "parent_id", "position", "revision",
                "locked"}]}; albums album list --tree shows the albums in them too.

                Example: albums folder list
                """).parsedOnItsOwn

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let tree = TreeJSON(try global.openLibrary(for: .reading).read { try $0.tree() })
            if global.json {
                try global.console.result(json: ["folders": tree.folders])
                return
            }
            if tree.folders.isEmpty {
                global.console.result("no folders yet: albums folder create NAME")
                return
            }
            // Positions count within each folder: --tree shows them where they mean something.
            let rows = tree.folders.map { [$0.path, $0.locked ? "locked" : ""] }
            for line in Table(header: ["FOLDER", "STATE"], rows: rows).lines { global.console.result(line) }
        }
    }

    struct Rename: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rename", abstract: "Give a folder a new name (it stays where it is).",
            discussion: "Example: albums folder rename Travel/2026 \"2026 (Portugal)\"").parsedOnItsOwn

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The folder's path.") var path: String
        @Argument(help: "Its new name (a name, not a path).") var newName: String
        @OptionGroup var write: WriteOptions

        func run() throws {
            try FolderCommand.change(
                global, write, .rename(.path(path), to: newName),
                verb: "renamed folder \(LibraryError.quoted(path)) to \(LibraryError.quoted(newName))")
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete", abstract: "Delete a folder. Photos are never deleted.",
            discussion: """
                An empty folder is deleted as it is. A folder that holds albums or folders needs a choice:
                --move-contents puts them where the folder stood, in their order; --delete-albums deletes
                them, at every depth (their photos stay in the library; undo brings them back).

                Examples:
                  albums folder delete Scratch
                  albums folder delete Travel/2026 --move-contents
                  albums folder delete Old --delete-albums
                """).parsedOnItsOwn

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The folder's path.") var path: String
        @Flag(help: "Move what it holds to its place in its parent.") var moveContents = false
        @Flag(help: "Delete the albums and folders it holds too (never their photos).") var deleteAlbums = false
        @Flag(help: "With --delete-albums: delete albums with pending loads too, cancelling them.") var force = false
        @OptionGroup var write: WriteOptions

        func validate() throws {
            if moveContents && deleteAlbums { throw ValidationError("choose one of --move-contents and --delete-albums") }
            if force && !deleteAlbums { throw ValidationError("--force goes with --delete-albums") }
        }

        func run() throws {
            let contents: FolderContentsOnDelete = moveContents ? .moveToParent : deleteAlbums ? .deleteAlbums : .refuse
            try FolderCommand.change(
                global, write, .delete(.path(path), contents: contents, force: force), verb: "deleted folder \(LibraryError.quoted(path))")
        }
    }

    struct Move: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "move", abstract: "Move a folder, with everything in it, in the tree.",
            discussion: """
                Examples:
                  albums folder move Travel/2026 --at 1
                  albums folder move 2026 --into Travel
                  albums folder move Travel/2026 --into /
                  albums folder move Books --after Travel
                """).parsedOnItsOwn

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The folder's path.") var path: String
        @OptionGroup var place: TreePlacementOptions
        @OptionGroup var write: WriteOptions

        func validate() throws {
            if place.placement == nil { throw ValidationError("say where: --into FOLDER, --at N, --before X or --after X") }
        }

        func run() throws {
            try FolderCommand.change(
                global, write, .move(.path(path), to: place.placement!), verb: "moved folder \(LibraryError.quoted(path)) \(place.words)")
        }
    }

    struct Lock: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "lock", abstract: "Lock a folder: nothing enters, leaves or moves inside it until it is unlocked.",
            discussion: "Example: albums folder lock Books").parsedOnItsOwn

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The folder's path.") var path: String
        @OptionGroup var write: WriteOptions

        func run() throws {
            try FolderCommand.change(global, write, .setLocked(.path(path), true), verb: "locked folder \(LibraryError.quoted(path))")
        }
    }

    struct Unlock: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "unlock", abstract: "Unlock a folder.", discussion: "Example: albums folder unlock Books").parsedOnItsOwn

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The folder's path.") var path: String
        @OptionGroup var write: WriteOptions

        func run() throws {
            try FolderCommand.change(global, write, .setLocked(.path(path), false), verb: "unlocked folder \(LibraryError.quoted(path))")
        }
    }
}
