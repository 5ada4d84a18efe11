import AlbumsPersistence
import ArgumentParser

struct AlbumCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "album",
        abstract: "Create, list and arrange albums.",
        subcommands: [Create.self, List.self, Move.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create an empty album.",
            discussion: """
                Examples:
                  albums album create "Summer 2026"
                  albums album create "Photo book" --at 1
                """)

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The new album's name: not empty, no control characters, unique.") var name: String
        @Option(help: "Its 1-based place in the list of albums (default: last).") var at: Int?

        func run() async throws {
            try await reportingErrors(global.console) {
                let library = try global.openLibrary()
                let album = try library.write { try $0.createAlbum(named: name, at: at.map { $0 - 1 }) }
                global.console.result("created album \(LibraryError.quoted(album.name)) at position \(album.index + 1)")
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the albums in order.",
            discussion: "Example: albums album list")

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            try await reportingErrors(global.console) {
                let albums = try global.openLibrary().read { try $0.albums() }
                for album in albums {
                    let lock = album.isLocked ? "  locked" : ""
                    let pending = album.placeholderCount > 0 ? "  \(album.placeholderCount) pending" : ""
                    global.console.result("\(album.index + 1)\t\(album.name)\t\(album.itemCount) items\(pending)\(lock)")
                }
            }
        }
    }

    struct Move: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Move an album to another place in the list.",
            discussion: "Example: albums album move \"Summer 2026\" --to 1")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The album to move.") var name: String
        @Option(help: "Its 1-based place afterwards.") var to: Int

        func run() async throws {
            try await reportingErrors(global.console) {
                try global.openLibrary().write { writer in
                    try writer.moveAlbum(try writer.album(named: name).id, to: to - 1)
                }
                global.console.result("moved album \(LibraryError.quoted(name)) to position \(to)")
            }
        }
    }
}
