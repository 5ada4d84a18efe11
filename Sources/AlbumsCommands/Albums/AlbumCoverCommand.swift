import AlbumsPersistence
import AlbumsTransfer
import AlbumsWire
import ArgumentParser

extension AlbumCommand {
    /// `albums album cover`: shows an album's cover, or chooses it.
    struct Cover: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "cover", abstract: "Show or choose the photo that stands for an album.",
            discussion: """
                With no photo, prints the album's cover: the photo chosen for it, else its first
                photo. With one (ALBUM:N or id:P, a photo of the album), chooses it; --first goes
                back to the first photo. The cover stays through moves in the album and sorts,
                and clears when its photo leaves the album; undo brings it back.

                --json prints {"album", "cover": {"photo_id", "position", "chosen"} or null}, or
                for a change its change set.

                Examples:
                  albums album cover Trip
                  albums album cover Trip Trip:12
                  albums album cover Trip --first
                """).parsedOnItsOwn

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The album.") var name: String
        @Argument(help: "The photo to use: ALBUM:N or id:P.") var photo: String?
        @Flag(help: "Show the album's first photo again.") var first = false
        @OptionGroup var write: WriteOptions

        func validate() throws {
            if photo != nil && first { throw ValidationError("give a photo or --first, not both") }
        }

        func run() throws {
            if let photo {
                let references = try ReferenceParser.parse(photo)
                guard references.count == 1 else { throw ReferenceParser.ParseError(reference: photo, reason: "name one photo, not a range") }
                return try AlbumCommand.change(
                    global, write, .setCover(.named(name), to: references[0]), verb: "the cover of \(LibraryError.quoted(name)) is \(photo)")
            }
            if first {
                return try AlbumCommand.change(
                    global, write, .setCover(.named(name), to: nil), verb: "the cover of \(LibraryError.quoted(name)) is its first photo")
            }
            try show()
        }

        private struct CoverJSON: Encodable {
            let photoID: Int64
            let position: Int
            let chosen: Bool

            enum CodingKeys: String, CodingKey {
                case photoID = "photo_id"
                case position
                case chosen
            }
        }

        /// Prints the album's cover and where it stands in the album.
        private func show() throws {
            let (album, cover) = try global.openLibrary(for: .reading).read { reader -> (Album, CoverJSON?) in
                let album = try reader.album(named: name)
                guard let cover = try reader.cover(of: album) else { return (album, nil) }
                // A smart album shows its newest photo, the first it lists.
                let position = album.isSmart ? 1 : try reader.resolve(.photo(cover.photo, in: .id(album.id))).index + 1
                return (album, CoverJSON(photoID: cover.photo.rawValue, position: position, chosen: cover.isChosen))
            }
            if global.json {
                try global.console.result(json: ["album": AnyEncodable(album.name), "cover": AnyEncodable(KeptNull(wrappedValue: cover))])
                return
            }
            guard let cover else {
                global.console.result("\(LibraryError.quoted(album.name)) holds no photo yet: its first photo will be its cover")
                return
            }
            global.console.result(
                "cover of \(LibraryError.quoted(album.name)): position \(cover.position), id:\(cover.photoID) (\(cover.chosen ? "chosen" : "its first photo"))")
        }
    }
}
