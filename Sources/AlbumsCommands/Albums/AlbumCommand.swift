import AlbumsPersistence
import AlbumsTransfer
import AlbumsWire
import ArgumentParser

struct AlbumCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "album",
        abstract: "Create, list and arrange albums.",
        subcommands: [Create.self, List.self, Rename.self, Delete.self, Move.self, Lock.self, Unlock.self, Sort.self, Cover.self, Describe.self, Smart.self, Freeze.self]).parsedOnItsOwn

    /// Runs an album change (or its dry run) and prints the album's change set.
    static func change(_ global: GlobalOptions, _ write: WriteOptions, _ operation: AlbumOperation, verb: String) throws {
        let expected = try write.revisions(target: operation.album)
        report(try perform(.album(operation, expecting: expected), global, dryRun: write.dryRun), global, write, verb: verb)
    }

    /// Performs one album or folder operation, or with `dryRun` checks it
    /// with reads only, as a proposal is: the same checks and change sets,
    /// nothing written, and a library that cannot be written will do.
    static func perform(
        _ operation: LibraryOperation, _ global: GlobalOptions, dryRun: Bool, purpose: GlobalOptions.Purpose = .writing
    ) throws -> TransferResult {
        if dryRun { return try global.openLibrary(for: .reading).read { try $0.dryRun(operation) } }
        return try global.openLibrary(for: purpose).write { try $0.perform(operation) }
    }

    /// Prints what an album or folder operation did, or would do.
    static func report(_ result: TransferResult, _ global: GlobalOptions, _ write: WriteOptions, verb: String) {
        if global.json {
            try? global.console.result(
                json: WriteJSON(
                    changes: result.changes.map(ChangeJSON.init), folderChanges: result.folderChanges.map(FolderChangeJSON.init),
                    dryRun: write.dryRun, verdict: result.outcome.name))
        } else {
            let said = result.outcome == .noOp ? "nothing to do: " + verb : verb
            global.console.result(write.dryRun ? "dry run, nothing written: " + said : said)
            for change in result.changes where !change.isEmpty { global.console.result("  " + ChangeSummary(change).text) }
        }
    }

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "create", abstract: "Create an empty album.",
            discussion: """
                Names are unique (case-sensitive), any Unicode, not empty, without control characters.
                A name that differs from another album's only in case or accents ("summer 2026"
                beside "Summer 2026") makes another album, and a note on stderr says so.

                Without a place it goes last at the top level.

                Examples:
                  albums album create "Summer 2026"
                  albums album create "Photo book" --at 1
                  albums album create Lisbon --into Travel/2026
                """).parsedOnItsOwn

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The new album's name.") var name: String
        @OptionGroup var place: TreePlacementOptions
        @Flag(help: "Check the name and place, without writing anything.") var dryRun = false

        func run() throws {
            let placement = place.placement ?? .into(nil)
            let (album, alike) =
                if dryRun {
                    // The check a proposal makes, with reads only: the album as it would stand.
                    try global.openLibrary(for: .reading).read { reader in
                        (try reader.checkAlbumCreation(named: name, placement: placement).createdAlbum, try reader.albumNames(alike: name))
                    }
                } else {
                    try global.openLibrary(for: .creating).write { (try $0.createAlbum(named: name, placement: placement), try $0.albumNames(alike: name)) }
                }
            guard let album else { throw LibraryError.constraintViolated(detail: "a creation that created nothing") }
            for other in alike {
                global.console.notice("album \(LibraryError.quoted(other)) differs from \(LibraryError.quoted(album.name)) only in case or accents; they are two albums")
            }
            if global.json {
                try global.console.result(json: ["album": AnyEncodable(AlbumJSON(album)), "dry_run": AnyEncodable(dryRun)])
            } else {
                global.console.result("\(dryRun ? "would create" : "created") album \(LibraryError.quoted(album.name)) at position \(album.index + 1)")
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List the albums in order, with their item counts, pending loads and state.",
            discussion: """
                Albums are listed in the tree's order: a folder's albums where the folder stands,
                with the folder named beside them. # is an album's position (album move --to N);
                once there are folders, positions count within each folder, and --tree shows
                them with the folders, indented. STATE says locked and smart. Revisions are
                in --json.

                --json prints {"albums": [{"id", "name", "parent_id", "position", "count", "pending",
                "videos", "revision", "locked", "smart", "description"}], "folders": [{"id", "name", "path", "parent_id", "position",
                "revision", "locked"}]}: parent_id is null at the top level, position is 1-based
                among the parent's children (albums and folders together).

                Examples:
                  albums album list
                  albums album list --tree
                """).parsedOnItsOwn

        @OptionGroup var global: GlobalOptions
        @Flag(help: "Show the folders, and each album inside its folder.") var tree = false

        func run() throws {
            let entries = try global.openLibrary(for: .reading).read { try $0.countingSmartAlbums(try $0.tree()) }
            if global.json {
                // Thousands of albums: written straight to bytes, as list --json is.
                var output = ListingJSONWriter()
                output.appendTree(entries)
                output.flush(force: true)
                return
            }
            if entries.isEmpty {
                global.console.result("no albums yet: albums album create NAME")
                return
            }
            if tree {
                for line in TreeText(entries).lines { global.console.result(line) }
                return
            }
            // With folders, each album's folder is named beside it, and positions
            // (which count within a folder) are left to --tree.
            let paths = entries.folderPaths()
            let rows = entries.compactMap { entry -> [String]? in
                guard case .album(let album) = entry.node else { return nil }
                return (paths.isEmpty ? [String(album.index + 1)] : [])
                    + [album.name, String(album.itemCount), album.placeholderCount > 0 ? String(album.placeholderCount) : "", TreeText.state(of: album)]
                    + (paths.isEmpty ? [] : [album.parentID.flatMap { paths[$0] } ?? "/"])
            }
            let header = paths.isEmpty ? ["#", "ALBUM", "ITEMS", "PENDING", "STATE"] : ["ALBUM", "ITEMS", "PENDING", "STATE", "FOLDER"]
            for line in Table(header: header, rows: rows).lines {
                global.console.result(line)
            }
        }
    }

    struct Rename: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rename", abstract: "Give an album a new name.", discussion: "Example: albums album rename Trip \"Rome 2026\"").parsedOnItsOwn

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The album.") var name: String
        @Argument(help: "Its new name.") var newName: String
        @OptionGroup var write: WriteOptions

        func run() throws {
            try AlbumCommand.change(
                global, write, .rename(.named(name), to: newName), verb: "renamed \(LibraryError.quoted(name)) to \(LibraryError.quoted(newName))")
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete", abstract: "Delete an album; its photos stay in the library.",
            discussion: """
                An album with pending loads needs --force, which cancels them.

                Examples:
                  albums album delete Scratch
                  albums album delete Import --force
                """).parsedOnItsOwn

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The album.") var name: String
        @Flag(help: "Delete it even with pending loads, cancelling them.") var force = false
        @OptionGroup var write: WriteOptions

        func run() throws {
            try AlbumCommand.change(global, write, .delete(.named(name), force: force), verb: "deleted album \(LibraryError.quoted(name))")
        }
    }

    struct Move: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "move", abstract: "Move an album in the tree: to a place in its folder, into another folder, next to an album or folder.",
            discussion: """
                Examples:
                  albums album move "Summer 2026" --at 1
                  albums album move Lisbon --into Travel/2026
                  albums album move Lisbon --into Travel --at 2
                  albums album move Lisbon --before Porto
                  albums album move Lisbon --into /
                """).parsedOnItsOwn

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The album to move (a name or a path).") var name: String
        @OptionGroup var place: TreePlacementOptions
        @OptionGroup var write: WriteOptions

        func validate() throws {
            if place.placement == nil { throw ValidationError("say where: --into FOLDER, --at N, --before X or --after X") }
        }

        func run() throws {
            try AlbumCommand.change(
                global, write, .move(.named(name), to: place.placement!), verb: "moved album \(LibraryError.quoted(name)) \(place.words)")
        }
    }

    struct Lock: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "lock", abstract: "Lock an album: nothing enters, leaves or moves inside it until it is unlocked.",
            discussion: "Example: albums album lock \"Photo book\"").parsedOnItsOwn

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The album.") var name: String
        @OptionGroup var write: WriteOptions

        func run() throws {
            try AlbumCommand.change(global, write, .setLocked(.named(name), true), verb: "locked album \(LibraryError.quoted(name))")
        }
    }

    struct Unlock: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "unlock", abstract: "Unlock an album.", discussion: "Example: albums album unlock \"Photo book\"").parsedOnItsOwn

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The album.") var name: String
        @OptionGroup var write: WriteOptions

        func run() throws {
            try AlbumCommand.change(global, write, .setLocked(.named(name), false), verb: "unlocked album \(LibraryError.quoted(name))")
        }
    }

    struct Sort: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sort", abstract: "Rewrite an album's order by file name, capture date or import time.",
            discussion: """
                Ties keep their order; placeholders stay last. One operation, one change set.

                Examples:
                  albums album sort Trip --by capture-date
                  albums album sort Trip --by name --descending
                """).parsedOnItsOwn

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The album.") var name: String
        @Option(help: "name, capture-date or import-time.") var by: AlbumSortKey
        @Flag(help: "Newest or last first.") var descending = false
        @OptionGroup var write: WriteOptions

        func run() throws {
            try AlbumCommand.change(
                global, write, .sort(.named(name), by: by, ascending: !descending),
                verb: "sorted album \(LibraryError.quoted(name)) by \(by.rawValue)\(descending ? ", descending" : "")")
        }
    }
}

extension AlbumSortKey: ExpressibleByArgument {}
