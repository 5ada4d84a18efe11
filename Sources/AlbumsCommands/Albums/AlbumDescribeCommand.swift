import AlbumsPersistence
import AlbumsTransfer
import AlbumsWire
import ArgumentParser

extension AlbumCommand {
    /// `albums album describe`: shows an album's description, or writes it.
    struct Describe: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "describe", abstract: "Show or write what an album is about.",
            discussion: """
                With no text, prints the album's description. With one, writes it (line breaks
                kept, at most 10,000 characters); --clear takes it away. Undo brings the old one back.

                --json prints {"album", "description"} (null when none), or for a change its change set.

                Examples:
                  albums album describe "Photo book" "Grandpa's 80th, in Porto, July 2026"
                  albums album describe "Photo book"
                  albums album describe "Photo book" --clear
                """).parsedOnItsOwn

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The album.") var name: String
        @Argument(help: "Its description.") var text: String?
        @Flag(help: "Take the description away.") var clear = false
        @OptionGroup var write: WriteOptions

        func validate() throws {
            if text != nil && clear { throw ValidationError("give a text or --clear, not both") }
        }

        func run() throws {
            if text != nil || clear {
                return try AlbumCommand.change(
                    global, write, .describe(.named(name), clear ? nil : text),
                    verb: clear || text?.allSatisfy(\.isWhitespace) == true
                        ? "\(LibraryError.quoted(name)) has no description" : "described \(LibraryError.quoted(name))")
            }
            let album = try global.openLibrary(for: .reading).read { try $0.album(named: name) }
            if global.json {
                try global.console.result(json: ["album": AnyEncodable(album.name), "description": AnyEncodable(KeptNull(wrappedValue: album.description))])
            } else {
                global.console.result(album.description ?? "\(LibraryError.quoted(album.name)) has no description")
            }
        }
    }
}
