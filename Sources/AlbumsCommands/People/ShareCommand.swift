import AlbumsPersistence
import AlbumsTransfer
import ArgumentParser
import Foundation

struct ShareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "share",
        abstract: "Give people roles on albums and folders.",
        discussion: """
            Roles: viewer (sees the album in order, downloads its photos), editor (also arranges,
            adds, removes, renames), owner (also deletes, moves in the tree, shares). A role on a
            folder reaches everything inside it; the highest role that reaches an album counts.
            A person sees only what is shared with them; anything else is as if it did not exist.
            """,
        subcommands: [Add.self, Remove.self, List.self]).parsedOnItsOwn

    /// An album's name, else a folder's path.
    static func target(_ name: String, in reader: LibraryReader) throws -> (GrantTarget, String) {
        do {
            let album = try reader.album(named: name)
            return (.album(album.id), "album \(LibraryError.quoted(album.name))")
        } catch LibraryError.albumNotFound {
            do {
                let folder = try reader.folder(.path(name))
                return (.folder(folder.id), "folder \(LibraryError.quoted(try reader.path(of: folder.id)))")
            } catch LibraryError.folderNotFound {
                throw LibraryError.albumNotFound(.named(name))
            }
        }
    }

    /// Gives `name` `role` on the album or folder `targetName` (nil: takes it away) and says so.
    static func setRole(_ role: Role?, of name: String, on targetName: String, _ global: GlobalOptions) throws {
        let words = try global.openLibrary(for: .writing).write { writer in
            let person = try writer.person(named: name)
            let (target, what) = try ShareCommand.target(targetName, in: writer)
            try writer.setRole(role, of: person.id, on: target)
            return role.map { "\(person.name) is now \($0) of \(what)" } ?? "\(person.name) holds no role on \(what) now"
        }
        if global.json { try global.console.result(json: [role == nil ? "unshared" : "shared": words]) } else { global.console.result(words) }
    }

    /// Each person's roles in words ("editor of album 'Wedding'"), by person.
    static func describedGrants(_ reader: LibraryReader) throws -> [PersonID: [String]] {
        var described: [PersonID: [String]] = [:]
        let tree = try reader.tree()
        let paths = tree.folderPaths()
        var albums: [AlbumID: String] = [:]
        for entry in tree { if case .album(let album) = entry.node { albums[album.id] = album.name } }
        for grant in try reader.grants() {
            let what = switch grant.target {
            case .album(let id): "album \(LibraryError.quoted(albums[id] ?? "?"))"
            case .folder(let id): "folder \(LibraryError.quoted(paths[id] ?? "?"))"
            }
            described[grant.person, default: []].append("\(grant.role) of \(what)")
        }
        return described
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Give a person a role on an album or folder (replacing the one they had there).",
            discussion: """
                Examples:
                  albums share add Wedding --with grandma --role viewer
                  albums share add Travel/2026 --with sam --role editor
                """).parsedOnItsOwn

        @OptionGroup var global: GlobalOptions
        @Argument(help: "An album's name, or a folder's path.") var target: String
        @Option(help: "The person's name.") var with: String
        @Option(help: "viewer, editor or owner.") var role: String

        func run() throws {
            guard let role = Role(rawValue: role) else {
                throw ValidationError("--role must be viewer, editor or owner, not '\(self.role)'")
            }
            try ShareCommand.setRole(role, of: with, on: target, global)
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove", abstract: "Take away a person's role on an album or folder.",
            discussion: "Example: albums share remove Wedding --with grandma").parsedOnItsOwn

        @OptionGroup var global: GlobalOptions
        @Argument(help: "An album's name, or a folder's path.") var target: String
        @Option(help: "The person's name.") var with: String

        func run() throws {
            try ShareCommand.setRole(nil, of: with, on: target, global)
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List every role given, by person.",
            discussion: "Example: albums share list").parsedOnItsOwn

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let (people, grants) = try global.openLibrary(for: .reading).read { reader in
                (try reader.people(), try ShareCommand.describedGrants(reader))
            }
            let rows = people.flatMap { person in (grants[person.id] ?? []).map { [person.name, $0] } }
            if global.json {
                try global.console.result(json: ["roles": rows.map { ["person": $0[0], "role": $0[1]] }])
                return
            }
            if rows.isEmpty { return global.console.result("nothing is shared: albums share add ALBUM --with NAME --role viewer") }
            for line in Table(header: ["PERSON", "ROLE"], rows: rows).lines { global.console.result(line) }
        }
    }
}
