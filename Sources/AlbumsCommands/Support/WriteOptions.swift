import AlbumsPersistence
import AlbumsTransfer
import ArgumentParser

/// The options of every command that changes albums: a dry run, and the
/// revisions the caller expects (optimistic concurrency).
struct WriteOptions: ParsableArguments {
    @Flag(help: "Say what would change (the change sets), without writing anything.")
    var dryRun = false

    @Option(
        name: .customLong("expect-revision"),
        help: ArgumentHelp(
            "Refuse unless the album is at this revision: R for the album the command targets, or ALBUM=R (repeatable).",
            valueName: "R|ALBUM=R"))
    var expectedRevisions: [String] = []

    /// The expectations, with a bare R given to `target`: the album the
    /// command's parsed references and destination name (see
    /// ``TransferOperation/targetAlbum``), never a guess from the text.
    func revisions(target: AlbumReference?) throws -> [AlbumReference: Int64] {
        var revisions: [AlbumReference: Int64] = [:]
        for text in expectedRevisions {
            let (album, number): (String?, Substring) = text.lastIndex(of: "=").map {
                (String(text[..<$0]), text[text.index(after: $0)...])
            } ?? (nil, Substring(text))
            guard let revision = Int64(number), revision >= 0 else {
                throw ValidationError("--expect-revision takes R or ALBUM=R with R a whole number, not '\(text)'")
            }
            guard let reference = album.map(AlbumReference.named) ?? target else {
                throw ValidationError("--expect-revision R needs one target album here; write ALBUM=R")
            }
            revisions[reference] = revision
        }
        return revisions
    }
}

/// Item references as typed on the command line.
enum CommandReferences {
    /// Parses `ALBUM:N`, `ALBUM:N-M` and `id:P` arguments, photo ids within `from`.
    static func parse(_ texts: [String], from: String?) throws -> [ItemReference] {
        try texts.flatMap { try ReferenceParser.parse($0, photoAlbum: from.map(AlbumReference.named)) }
    }

    static func single(_ text: String, from: String? = nil) throws -> ItemReference {
        let references = try parse([text], from: from)
        guard references.count == 1 else { throw ReferenceParser.ParseError(reference: text, reason: "name one item, not a range") }
        return references[0]
    }
}
