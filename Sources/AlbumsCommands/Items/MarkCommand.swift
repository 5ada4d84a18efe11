import AlbumsPersistence
import AlbumsTransfer
import AlbumsWire
import ArgumentParser

/// `albums mark`: writes words and marks on items.
struct MarkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mark",
        abstract: "Write a title, a caption, a favourite mark, a rating or keywords on items.",
        discussion: """
            What is written belongs to the item: the same photo in another album carries
            its own. A copy takes it along, a move keeps it, undo takes it back. What is
            not named stays as it is. An empty --title or --caption clears it; --rating
            none clears the rating. Keywords are kept in the order given, each once
            (whatever its case); --keyword adds, --remove-keyword removes.

            The items of a locked album can be marked: a lock keeps their order.

            Examples:
              albums mark "Photo book:3" --caption "Grandpa's 80th, in Porto"
              albums mark Trip:1-12 --keyword Lisbon --keyword family
              albums mark Trip:4 --favorite --rating 5
              albums mark Trip:7 --rating rejected
              albums mark Trip:4 --title ""
            """).parsedOnItsOwn

    @OptionGroup var global: GlobalOptions
    @Argument(help: "Items: ALBUM:N, ALBUM:N-M or id:P.") var items: [String]
    @Option(help: "The album of id:P references, when the photo is in several.") var from: String?
    @Option(help: "A title for each item (\"\" clears it).") var title: String?
    @Option(help: "A caption for each item (\"\" clears it).") var caption: String?
    @Flag(inversion: .prefixedNo, help: "Mark the items as favourites, or not.") var favorite: Bool?
    @Option(help: ArgumentHelp("1 to 5 stars, rejected, or none.", valueName: "1-5|rejected|none")) var rating: String?
    @Option(name: .customLong("keyword"), help: "A keyword the items gain (repeatable).") var addedKeywords: [String] = []
    @Option(name: .customLong("remove-keyword"), help: "A keyword the items lose (repeatable).") var removedKeywords: [String] = []
    @OptionGroup var write: WriteOptions

    func run() throws {
        var edit = ItemMarksEdit()
        if let title { edit.title = .set(title) }
        if let caption { edit.caption = .set(caption) }
        if let favorite { edit.isFavorite = .set(favorite) }
        if let rating {
            if rating == "none" {
                edit.rating = .set(nil)
            } else {
                guard let parsed = ItemRating(rating) else { throw ValidationError("--rating takes 1 to 5, rejected or none, not '\(rating)'") }
                edit.rating = .set(parsed)
            }
        }
        edit.addedKeywords = addedKeywords
        edit.removedKeywords = removedKeywords
        if edit.isEmpty { throw ValidationError("say what to write: --title, --caption, --favorite, --rating, --keyword or --remove-keyword") }
        let references = try CommandReferences.parse(items, from: from)
        let albums = Set(references.map(\.album))
        let target = albums.count == 1 ? albums.first ?? nil : nil
        let operation = LibraryOperation.mark(ItemMarking(items: references, edit: edit), expecting: try write.revisions(target: target))
        let result = try AlbumCommand.perform(operation, global, dryRun: write.dryRun)
        let count = result.changes.reduce(0) { $0 + $1.updated.count }
        AlbumCommand.report(
            result, global, write,
            verb: result.outcome == .noOp
                ? "the items carry that already" : "marked \(LibraryError.counted(count, "item")): \(edit.fieldNames.joined(separator: ", "))")
    }
}
