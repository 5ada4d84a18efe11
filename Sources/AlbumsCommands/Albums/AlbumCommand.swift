import AlbumsPersistence
import ArgumentParser

struct AlbumCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "album",
        abstract: "Create, list and arrange albums.",
        subcommands: [Create.self, List.self, Move.self])

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create an empty album.",
            discussion: "Example: albums album create 'Summer 2026' --at 1")

        @OptionGroup var options: LibraryOptions
        @Argument(help: "The new album's name.") var name: String
        @Option(help: "Its 1-based place in the list of albums (default: last).") var at: Int?

        func run() throws {
            try reportingErrors {
                let library = try options.open()
                let album = try library.write { try $0.createAlbum(named: name, at: at.map { $0 - 1 }) }
                print("created album '\(album.name)' at position \(album.index + 1)")
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the albums in order.", discussion: "Example: albums album list")

        @OptionGroup var options: LibraryOptions

        func run() throws {
            try reportingErrors {
                let albums = try options.open().read { try $0.albums() }
                for album in albums {
                    let lock = album.isLocked ? "  locked" : ""
                    let pending = album.placeholderCount > 0 ? "  \(album.placeholderCount) pending" : ""
                    print("\(album.index + 1)\t\(album.name)\t\(album.itemCount) items\(pending)\(lock)")
                }
            }
        }
    }

    struct Move: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Move an album to another place in the list.",
            discussion: "Example: albums album move 'Summer 2026' --to 1")

        @OptionGroup var options: LibraryOptions
        @Argument(help: "The album to move.") var name: String
        @Option(help: "Its 1-based place afterwards.") var to: Int

        func run() throws {
            try reportingErrors {
                try options.open().write { writer in
                    try writer.moveAlbum(try writer.album(named: name).id, to: to - 1)
                }
                print("moved album '\(name)' to position \(to)")
            }
        }
    }
}
