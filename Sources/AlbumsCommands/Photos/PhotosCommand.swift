import AlbumsPersistence
import AlbumsTransfer
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

            --months counts the photos found in each month instead, newest first
            (the month of the capture date, else of the import); --json gives each
            month's `start`, which --after takes to list from that month on.
            """)

    @OptionGroup var global: GlobalOptions
    @Option(help: ArgumentHelp("Taken in a year, month or day, or a range of them (2025, 2025-07, 2025-07-14, 2025-07-01..2025-08-15).", valueName: "WHEN"))
    var taken: String?
    @Option(help: "Part of its file name.") var name: String?
    @Option(help: ArgumentHelp("Its format: jpeg, png, heic, webp, gif, tiff, avif (or a media type).", valueName: "FORMAT"))
    var format: String?
    @Option(help: ArgumentHelp("Its shape as seen: landscape, portrait or square.", valueName: "SHAPE"))
    var shape: PhotoShape?
    @Option(help: ArgumentHelp("At least this many million pixels.", valueName: "MP")) var minMegapixels: Double?
    @Option(help: "Part of its camera's maker or model.") var camera: String?
    @Option(help: "Part of its lens's name.") var lens: String?
    @Flag(help: "Only photos that record where they were taken.") var withLocation = false
    @Flag(help: "Only photos that do not.") var withoutLocation = false
    @Option(name: .customLong("in"), help: ArgumentHelp("Only photos in this album.", valueName: "ALBUM")) var album: String?
    @Flag(help: "Only photos in no album.") var inNoAlbum = false
    @Option(help: "How many photos at most (default 100).") var limit = 100
    @Option(help: ArgumentHelp("Start after this point: the `next` a page before gave.", valueName: "CURSOR")) var after: String?
    @Flag(help: "Count the photos found in each month instead of listing them.") var months = false

    func validate() throws {
        if withLocation && withoutLocation { throw ValidationError("give --with-location or --without-location, not both") }
        if album != nil && inNoAlbum { throw ValidationError("give --in ALBUM or --in-no-album, not both") }
        if limit < 1 { throw ValidationError("--limit takes a number from 1") }
        if let minMegapixels, !(minMegapixels >= 0) { throw ValidationError("--min-megapixels takes a number from 0") }
        if months && after != nil { throw ValidationError("--months counts every month: give it without --after") }
        if let after, PhotoSearchCursor(after) == nil { throw ValidationError("--after takes the `next` a page before gave, such as 42@2025-07-14T09:12:00") }
    }

    func run() throws {
        var search = PhotoSearch()
        search.taken = try taken.map { try CaptureRange($0) }
        search.name = name
        search.format = format
        search.shape = shape
        search.minimumMegapixels = minMegapixels
        search.camera = camera
        search.lens = lens
        search.hasLocation = withLocation ? true : withoutLocation ? false : nil
        try global.openLibrary(for: .reading).read { reader in
            if let album { search.membership = .inAlbum(try reader.album(named: album).id) }
            if inNoAlbum { search.membership = .inNoAlbum }
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
        for line in Table(header: ["MONTH", "PHOTOS"], rows: months.map { [$0.month, String($0.count)] }).lines { global.console.result(line) }
    }

    private func print(_ page: PhotoSearchPage) {
        guard !page.photos.isEmpty else {
            global.console.result(after == nil ? "no photos found" : "no more photos")
            return
        }
        let rows = page.photos.map { found -> [String] in
            let content = found.photo.content
            let size = content.displayWidth.flatMap { width in content.displayHeight.map { "\(width)×\($0)" } } ?? "?"
            let camera = [content.cameraMake, content.cameraModel].compactMap { $0 }.joined(separator: " ")
            return [
                "id:\(found.photo.id)", content.capturedAt?.text ?? "—", String(content.mediaType.dropFirst("image/".count)), size,
                camera.isEmpty ? "—" : camera, found.name, found.albums.isEmpty ? "(no album)" : found.albums.joined(separator: ", "),
            ]
        }
        for line in Table(header: ["PHOTO", "TAKEN", "FORMAT", "SIZE", "CAMERA", "FILE", "ALBUMS"], rows: rows).lines {
            global.console.result(line)
        }
        if let next = page.next {
            global.console.note("\(LibraryError.counted(page.photos.count, "photo")) shown; more with --after \(next)")
        }
    }
}

extension PhotoShape: ExpressibleByArgument {}
