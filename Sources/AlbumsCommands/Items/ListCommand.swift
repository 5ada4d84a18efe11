import AlbumsPersistence
import AlbumsTransfer
import AlbumsWire
import ArgumentParser
import Foundation

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List an album's items in order.",
        discussion: """
            Streams: memory stays flat for albums of any size. Pending placeholders
            show the source they are loading, marked stale if their loader is gone.

            --json prints {"album": {...}, "items": [{"position", "item_id",
            "photo_id" (null for placeholders), "placeholder_id" (null for photos),
            "file", "media_type", "pixel_width", "pixel_height" (the stored raster),
            "orientation" (EXIF 1-8), "display_width", "display_height" (as seen),
            "captured_at", "byte_count", "sha256", "source", "stale"}]}. Text shows
            the size as seen.

            A smart album lists the photos its search finds now, newest first,
            numbered as ALBUM:N names them: albums copy July:1-3 --to Book copies
            them out ({"album", "photos": [...]} with --json, in that order).

            Examples:
              albums list "Summer 2026"
              albums --json list "Summer 2026" | jq '.items[].file'
            """).parsedOnItsOwn

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The album to list.") var album: String

    func run() throws {
        try global.openLibrary(for: .reading).read { reader in
            let album = try reader.album(named: album)
            if album.isSmart { return try listSmart(album, reader) }
            if global.json {
                try streamJSON(album, reader)
            } else {
                try printTable(album, reader)
            }
        }
    }

    /// A smart album's photos, newest first, as its search finds them now:
    /// the rows and JSON of `albums photos`, every page of them.
    private func listSmart(_ album: Album, _ reader: LibraryReader) throws {
        var photos: [FoundPhoto] = []
        var cursor: PhotoSearchCursor?
        repeat {
            let page = try reader.smartAlbumPhotos(album, limit: 2_000, after: cursor)
            photos += page.photos
            cursor = page.next
        } while cursor != nil
        if global.json {
            let shown = album.counted(items: photos.count, placeholders: 0)
            try global.console.result(json: [
                "album": AnyEncodable(AlbumJSON(shown)),
                "photos": AnyEncodable(photos.map { FoundPhotoJSON($0) }),
            ])
            return
        }
        global.console.result("\(album.name): a smart album, \(LibraryError.counted(photos.count, "photo")) found now, newest first")
        for line in PhotosCommand.table(photos, numbered: true).lines { global.console.result(line) }
    }

    /// Writes the JSON document item by item, so a million items never sit in memory.
    private func streamJSON(_ album: Album, _ reader: LibraryReader) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var output = ListingJSONWriter()
        output.append("{\"album\":" + String(decoding: try encoder.encode(AlbumJSON(album)), as: UTF8.self) + ",\"items\":[")
        try reader.forEachListingRow(in: album) { row in
            output.append(row.index == 0 ? "\n" : ",\n")
            output.appendItem(row)
            output.flush()
        }
        output.append("\n]}\n")
        output.flush(force: true)
    }

    private func printTable(_ album: Album, _ reader: LibraryReader) throws {
        var output = BufferedOutput()
        let state = [album.isLocked ? "locked" : nil, album.placeholderCount > 0 ? "\(album.placeholderCount) pending" : nil]
            .compactMap { $0 }.joined(separator: ", ")
        output.write("\(album.name): \(album.itemCount) item\(album.itemCount == 1 ? "" : "s"), revision \(album.revision)\(state.isEmpty ? "" : " (\(state))")\n")
        let width = max(3, String(album.itemCount).count)
        let marked = try reader.markedItems(in: album.id)
        try reader.forEachListedItem(in: album.id) { item, photo in
            let position = String(repeating: " ", count: width - String(item.index + 1).count) + String(item.index + 1)
            switch item.content {
            case .photo(let id):
                let content = photo?.content
                let size = content.flatMap { content in content.displayWidth.map { "\($0)×\(content.displayHeight ?? 0)" } } ?? "?"
                // A video's length after its name, where it keeps the columns in line.
                let length = content?.durationText.map { "  video \($0)" } ?? (content?.motion != nil ? "  live" : "")
                let type = content?.formatColumnText ?? "?"
                let date = content?.capturedColumnText ?? ""
                let marks = marked[item.id].map { "  " + Self.summary(of: $0) } ?? ""
                output.write(
                    "\(position)  \(Self.pad("id:\(id)", 9))\(Self.pad(type, 6))\(Self.pad(size, 11))\(Self.pad(date, 18))\(content?.originalName ?? "")\(length)\(marks)\n")
            case .placeholder(let load):
                output.write("\(position)  \(Self.pad("pending", 9))\(load.owner.isGone ? "stale  " : "")\(load.source)  (placeholder \(item.id))\n")
            }
            return true
        }
        output.flush()
    }

    /// What an item carries, in a few signs: ♥, its stars or "rejected", its
    /// title in quotes; `show` prints the caption and keywords.
    private static func summary(of marks: ItemMarks) -> String {
        var parts: [String] = []
        if marks.isFavorite { parts.append("♥") }
        if let rating = marks.rating { parts.append(rating.stars.map { String(repeating: "★", count: $0) } ?? "rejected") }
        if let title = marks.title { parts.append(LibraryError.quoted(title)) }
        if parts.isEmpty { parts.append(marks.caption != nil ? "(caption)" : "(keywords)") }
        return parts.joined(separator: " ")
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(1, width - text.count))
    }
}

/// Collects output and writes it to stdout in large blocks.
struct BufferedOutput {
    private var buffer = Data()

    mutating func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    mutating func flush() {
        buffer.withUnsafeBytes { StandardStream.output.write($0) }
        buffer.removeAll(keepingCapacity: true)
    }
}
