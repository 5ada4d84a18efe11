import AlbumsPersistence
import AlbumsTransfer
import AlbumsWire
import ArgumentParser

/// `albums photos`: every photo of the library, in an album or not, newest
/// first, narrowed by what it was taken with, when, its name and shape.
struct PhotosCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photos",
        abstract: "Find photos, in albums or not, newest first.",
        discussion: """
            Every filter given must hold. Names, cameras and lenses match any
            part, in any case. Dates are as the photo records them.

            Examples:
              albums photos --taken 2025-07
              albums photos --taken 2025-07-01..2025-08-15 --camera x100v
              albums photos --in-no-album --limit 20
              albums photos --name IMG_20 --shape portrait --format heic
              albums photos --months --camera x100v

            Photos that record no capture date come last, the last imported first.

            --months counts the photos found in each month instead, newest first
            (the month of the capture date, as --taken finds it; the photos with no
            date last, as "no date", "" with --json); --json gives each
            month's `start`, which --after takes to list from that month on.
            """).parsedOnItsOwn

    @OptionGroup var global: GlobalOptions
    @OptionGroup var filters: SearchOptions
    @Option(help: "How many photos at most.") var limit = 100
    @Option(help: ArgumentHelp("Start after this point: the `next` a page before gave.", valueName: "CURSOR")) var after: String?
    @Flag(help: "Count the photos found in each month instead of listing them.") var months = false

    func validate() throws {
        if limit < 1 { throw ValidationError("--limit takes a number from 1") }
        if months && after != nil { throw ValidationError("--months counts every month: give it without --after") }
        if let after, PhotoSearchCursor(after) == nil { throw ValidationError("--after takes the `next` a page before gave, such as 42@2025-07-14T09:12:00") }
    }

    func run() throws {
        let request = try filters.request()
        try global.openLibrary(for: .reading).read { reader in
            let search = try request.resolved(by: reader)
            if months { return try printMonths(try reader.photoMonths(matching: search)) }
            let page = try reader.photos(matching: search, limit: limit, after: after.flatMap(PhotoSearchCursor.init))
            if global.json {
                try global.console.result(json: PhotoSearchPageJSON(page))
                return
            }
            print(page)
        }
    }

    private func printMonths(_ months: [PhotoMonth]) throws {
        if global.json {
            try global.console.result(json: PhotoMonthsJSON(months))
            return
        }
        guard !months.isEmpty else {
            global.console.result("no photos found")
            return
        }
        // As the page says them: "10 photos, 2 videos" counts twelve.
        let rows = months.map { [$0.month.isEmpty ? "no date" : $0.month, String($0.count - $0.videos), String($0.videos)] }
        for line in Table(header: ["MONTH", "PHOTOS", "VIDEOS"], rows: rows).lines { global.console.result(line) }
    }

    private func print(_ page: PhotoSearchPage) {
        guard !page.photos.isEmpty else {
            global.console.result(after == nil ? "no photos found" : "no more photos")
            return
        }
        for line in Self.table(page.photos).lines {
            global.console.result(line)
        }
        if let next = page.next {
            global.console.note("\(LibraryError.counted(page.photos.count, "photo")) shown; more with --after \(next)")
        }
    }

    /// Found photos as a table: id, date, format, size, camera, name, albums.
    /// The photos' rows; `numbered` puts each one's position first, as a
    /// smart album's `ALBUM:N` names it.
    static func table(_ photos: [FoundPhoto], numbered: Bool = false) -> Table {
        let rows = photos.enumerated().map { offset, found -> [String] in
            let content = found.photo.content
            var size = content.displayWidth.flatMap { width in content.displayHeight.map { "\(width)×\($0)" } } ?? "?"
            if let length = content.durationText { size += " " + length }
            let camera = content.cameraName ?? ""
            return (numbered ? [String(offset + 1)] : []) + [
                "id:\(found.photo.id)", content.capturedColumnText ?? "—", content.formatColumnText, size,
                camera.isEmpty ? "—" : camera, found.name, found.albums.isEmpty ? "(no album)" : found.albums.joined(separator: ", "),
            ]
        }
        return Table(header: (numbered ? ["#"] : []) + ["PHOTO", "TAKEN", "FORMAT", "SIZE", "CAMERA", "FILE", "ALBUMS"], rows: rows)
    }
}
