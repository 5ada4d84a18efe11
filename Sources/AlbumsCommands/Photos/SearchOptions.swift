import AlbumsPersistence
import AlbumsTransfer
import ArgumentParser

/// The filters of a photo search, as `photos` and `album smart` take them.
struct SearchOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Taken in a year, month or day, or a range of them (2025, 2025-07, 2025-07-14, 2025-07-01..2025-08-15).", valueName: "WHEN"))
    var taken: String?
    @Option(help: "Part of its file name.") var name: String?
    @Option(help: ArgumentHelp(
        "Its format: jpeg, png, heic, webp, gif, tiff, avif, mov, mp4, mkv, webm, avi, 3gp, mpg (or a media type); video: every video, photo: every still.",
        valueName: "FORMAT"))
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
    @Option(help: "Part of an item's title, caption or keywords.") var text: String?
    @Option(help: "A keyword an item carries (whole, in any case).") var keyword: String?
    @Flag(help: "Only photos marked a favourite.") var favorite = false
    @Option(help: ArgumentHelp("Only photos with at least this many stars.", valueName: "1-5")) var minRating: Int?
    @Flag(help: "Only photos marked rejected.") var rejected = false

    func validate() throws {
        if withLocation && withoutLocation { throw ValidationError("give --with-location or --without-location, not both") }
        if album != nil && inNoAlbum { throw ValidationError("give --in ALBUM or --in-no-album, not both") }
        if let minMegapixels, !(minMegapixels >= 0) { throw ValidationError("--min-megapixels takes a number from 0") }
        if let minRating, !(1...5).contains(minRating) { throw ValidationError("--min-rating takes 1 to 5") }
        // A bad date is request()'s own error, given when the command runs.
        if let blank = (try? request())?.search.blankTextFilters.first {
            throw ValidationError("--\(blank.rawValue) needs something to look for: leave it out to search every photo")
        }
    }

    /// The search the options ask for, its album still by name.
    func request() throws -> PhotoSearchRequest {
        var search = PhotoSearch()
        search.taken = try taken.map { try CaptureRange($0) }
        search.name = name
        search.format = format
        search.shape = shape
        search.minimumMegapixels = minMegapixels
        search.camera = camera
        search.lens = lens
        search.hasLocation = withLocation ? true : withoutLocation ? false : nil
        search.text = text
        search.keyword = keyword
        search.isFavorite = favorite ? true : nil
        search.minimumRating = minRating
        search.isRejected = rejected ? true : nil
        return PhotoSearchRequest(search: search, album: album, inNoAlbum: inNoAlbum)
    }
}

extension PhotoShape: ExpressibleByArgument {}
