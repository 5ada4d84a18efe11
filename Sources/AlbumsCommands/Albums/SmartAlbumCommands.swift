import AlbumsPersistence
import AlbumsTransfer
import ArgumentParser

extension AlbumCommand {
    /// `albums album smart`: a smart album, a saved search shown as an album.
    struct Smart: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "smart", abstract: "Create a smart album: a search kept as an album, always current.",
            discussion: """
                It takes the filters of albums photos. It holds no photos of its own:
                what it shows is found when it is read, as its reader may see it, newest
                first, and nothing is put in, taken out or moved in it by hand. It is an
                album otherwise (named, placed, moved, shared, deleted, undone).
                albums list NAME shows its photos; albums album freeze NAME makes it an
                ordinary album holding them, to arrange by hand.

                Examples:
                  albums album smart "July 2025" --taken 2025-07
                  albums album smart "To sort" --in-no-album --into Inbox
                """).parsedOnItsOwn

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The smart album's name.") var name: String
        @OptionGroup var filters: SearchOptions
        @OptionGroup var place: TreePlacementOptions
        @OptionGroup var write: WriteOptions

        func run() throws {
            try AlbumCommand.change(
                global, write, .createSmart(name: name, search: try filters.request(), placement: place.placement ?? .into(nil)),
                verb: "created smart album \(LibraryError.quoted(name))")
        }
    }

    /// `albums album freeze`: a smart album made an ordinary one.
    struct Freeze: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "freeze", abstract: "Make a smart album an ordinary album holding the photos it shows now.",
            discussion: """
                The photos come in its present order, newest first, to arrange by hand;
                the search is no longer kept (undo brings it back).

                Example: albums album freeze "July 2025"
                """).parsedOnItsOwn

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The smart album.") var name: String
        @OptionGroup var write: WriteOptions

        func run() throws {
            try AlbumCommand.change(global, write, .freeze(.named(name)), verb: "made an album of smart album \(LibraryError.quoted(name))")
        }
    }
}
