import AlbumsPersistence
import Foundation
import AlbumsTransfer
import AlbumsWire
import ArgumentParser

struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one item or photo: its facts and the albums that hold it.",
        discussion: """
            --json prints {"item" (as list prints it; null for id:P), "photo" (as
            albums photos prints it: file, media_type, sizes, orientation,
            captured_at, imported_at, camera_make, camera_model, lens,
            has_location, byte_count, sha256, albums, source; null for a
            placeholder), "photo_id", "imported_at", "albums"}.

            Examples:
              albums show Trip:3
              albums show id:42
            """).parsedOnItsOwn

    @OptionGroup var global: GlobalOptions
    @Argument(help: "ALBUM:N or id:P.") var reference: String

    /// The item (nil for a bare photo id) and photo a reference names.
    static func resolve(_ reference: ItemReference, in reader: LibraryReader) throws -> (AlbumItem?, Photo?) {
        switch reference {
        case .photo(let id, _):
            return (nil, try reader.photo(id))
        case .position, .item:
            return try withPhoto(try reader.resolve(reference), in: reader)
        }
    }

    private static func withPhoto(_ item: AlbumItem, in reader: LibraryReader) throws -> (AlbumItem?, Photo?) {
        (item, try reader.photo(shownBy: item))
    }

    func run() throws {
        let parsed = try CommandReferences.single(reference)
        try global.openLibrary(for: .reading).read { reader in
            let (item, photo) = try Self.resolve(parsed, in: reader)
            let albums = try photo.map { try reader.albums(holding: $0.id).map(\.name) } ?? []
            let original = try photo.map { try reader.originalLocation(of: $0) }
            let marks = try item.map { try reader.marks(of: $0.id) } ?? .none
            if global.json {
                try global.console.result(json: [
                    "item": AnyEncodable(item.map { ItemJSON($0, photo: photo, marks: marks) }),
                    "photo_id": AnyEncodable(photo?.id.rawValue),
                    "imported_at": AnyEncodable(photo.map { Timestamp.text($0.importedAt) }),
                    "albums": AnyEncodable(albums),
                    "photo": AnyEncodable(photo.map { FoundPhotoJSON($0, name: $0.content.originalName, albums: albums) }),
                    "kept_copy": AnyEncodable(original.flatMap(KeptCopyJSON.init)),
                ])
                return
            }
            if let item, case .placeholder(let load) = item.content {
                global.console.result("placeholder \(item.id) at position \(item.index + 1), loading \(load.source)")
                global.console.result("owner      \(load.owner.host):\(load.owner.processID)\(load.owner.isGone ? " (gone: stale)" : "")")
                global.console.result("since      \(Timestamp.text(load.createdAt))")
                return
            }
            guard let photo else { return }
            let content = photo.content
            global.console.result("photo      id:\(photo.id)\(item.map { " at position \($0.index + 1)" } ?? "")")
            global.console.result("file       \(content.originalName)")
            global.console.result("type       \(content.mediaType), \(content.byteCount) bytes")
            global.console.result("size       \(Self.sizeDescription(content))")
            if content.isVideo { global.console.result("length     \(content.durationText ?? "unknown")\(content.duration.map { " (\($0) s)" } ?? "")") }
            if let motion = content.motion {
                let length = motion.duration.map { ", \($0) s" } ?? ""
                global.console.result("live       a Live Photo: its motion \((motion.sourcePath as NSString).lastPathComponent) (\(motion.mediaType)\(length))")
            }
            global.console.result("captured   \(content.capturedAt?.text ?? "unknown")")
            let camera = content.cameraName ?? ""
            if !camera.isEmpty { global.console.result("camera     \(camera)\(content.lens.map { ", \($0)" } ?? "")") }
            if content.hasLocation { global.console.result("location   recorded in the file (albums keeps only that it is there)") }
            global.console.result("imported   \(Timestamp.text(photo.importedAt)) from \(content.sourcePath)")
            switch original {
            case .keptFile(let path, _)?, .keptObject(let path, _)?:
                global.console.result("kept       \(original?.description ?? path) (the library's own copy, read first)")
            case .source?, nil:
                global.console.result("kept       no copy: the library refers to its source")
            }
            for line in Self.markLines(marks) { global.console.result(line) }
            global.console.result("sha256     \(content.sha256Hex)")
            global.console.result("albums     \(albums.isEmpty ? "none" : albums.map { LibraryError.quoted($0) }.joined(separator: ", "))")
        }
    }

    /// What is written on an item, a line for each thing it carries.
    static func markLines(_ marks: ItemMarks) -> [String] {
        var lines: [String] = []
        if let title = marks.title { lines.append("title      \(title)") }
        if let caption = marks.caption {
            lines.append("caption    " + caption.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\n           "))
        }
        if marks.isFavorite { lines.append("favourite  yes") }
        if let rating = marks.rating { lines.append("rating     " + (rating.stars.map { String(repeating: "★", count: $0) + " (\($0))" } ?? "rejected")) }
        if !marks.keywords.isEmpty { lines.append("keywords   " + marks.keywords.joined(separator: ", ")) }
        return lines
    }

    /// Where the library keeps a copy of a photo's original, as `show --json` says it.
    struct KeptCopyJSON: Encodable {
        /// folder or bucket.
        let place: String
        /// The copy's path, or `s3://bucket/name`.
        let location: String

        init?(_ original: OriginalLocation) {
            switch original {
            case .source: return nil
            case .keptFile: place = "folder"
            case .keptObject: place = "bucket"
            }
            location = original.description
        }
    }

    /// The size the photo is seen at, and how it is stored when that differs.
    static func sizeDescription(_ content: PhotoContent) -> String {
        guard let width = content.displayWidth, let height = content.displayHeight else { return "unknown" }
        guard content.orientation != .up || content.fileOrientation != nil else { return "\(width)×\(height) pixels" }
        let stored = "\(content.pixelWidth ?? 0)×\(content.pixelHeight ?? 0)"
        // A turn kept in the catalog it came from is not in the file: an export gives the file as it is.
        let file = content.fileOrientation.map { "; the file itself is \($0.summary): the organizer it came from turned it" } ?? ""
        return "\(width)×\(height) pixels as seen (stored \(stored), \(content.orientation.summary)\(file))"
    }
}
