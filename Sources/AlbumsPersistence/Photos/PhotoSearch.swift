import AlbumsImageFacts
import Foundation

/// What to look for among the library's photos, every filter optional and
/// all of them together (a photo matches when it passes each one given).
///
/// ```swift
/// var search = PhotoSearch()
/// search.taken = try CaptureRange("2025-07")
/// search.camera = "X100V"
/// let page = try library.read { try $0.photos(matching: search, limit: 100) }
/// ```
public struct PhotoSearch: Hashable, Sendable {
    /// When it was taken: a year, a month, a day, or a range of them.
    public var taken: CaptureRange?
    /// Part of its file name, as its asker sees it, in any case.
    public var name: String?
    /// Its format: a media type (`image/jpeg`) or its short name (`jpeg`, `jpg`, `heic`).
    public var format: String?
    /// Its shape as it is seen (its orientation applied).
    public var shape: PhotoShape?
    /// Its least number of pixels, in millions (12 for 12 MP and more).
    public var minimumMegapixels: Double?
    /// Part of its camera's maker or model, in any case ("fuji", "X100V").
    public var camera: String?
    /// Part of its lens's name, in any case.
    public var lens: String?
    /// Whether it records where it was taken.
    public var hasLocation: Bool?
    /// Which albums it stands in.
    public var membership: PhotoMembership?
    /// Part of what is written on an item of it: its title, caption or a
    /// keyword, in any case (ASCII letters), as its asker sees the item.
    public var text: String?
    /// A keyword an item of it carries, whole, in any case (ASCII letters).
    public var keyword: String?
    /// Only photos an item of which is marked a favourite.
    public var isFavorite: Bool?
    /// Only photos an item of which has at least this many stars (1–5).
    public var minimumRating: Int?
    /// Only photos an item of which is rejected.
    public var isRejected: Bool?

    /// A search for every photo.
    public init() {}

    /// Whether the search filters anything.
    public var isEmpty: Bool { self == PhotoSearch() }

    /// The filters that look for a piece of text, by the name the API, the
    /// batch format and the CLI's options give each.
    public enum TextFilter: String, Hashable, Sendable, CaseIterable {
        /// ``PhotoSearch/name``.
        case name
        /// ``PhotoSearch/format``.
        case format
        /// ``PhotoSearch/camera``.
        case camera
        /// ``PhotoSearch/lens``.
        case lens
        /// ``PhotoSearch/text``.
        case text
        /// ``PhotoSearch/keyword``.
        case keyword
    }

    /// The text filters given with nothing to look for: empty, or white
    /// space only (Unicode's White_Space). A search passes over most of
    /// them and finds every photo (a blank format finds none): nothing
    /// anyone means. The front ends refuse them, so that an empty variable
    /// in a script never selects the whole library.
    public var blankTextFilters: [TextFilter] {
        TextFilter.allCases.filter { filter in
            guard let text = self[text: filter] else { return false }
            return text.unicodeScalars.allSatisfy(\.properties.isWhitespace)
        }
    }

    /// The value of a text filter.
    public subscript(text filter: TextFilter) -> String? {
        get {
            switch filter {
            case .name: name
            case .format: format
            case .camera: camera
            case .lens: lens
            case .text: text
            case .keyword: keyword
            }
        }
        set {
            switch filter {
            case .name: name = newValue
            case .format: format = newValue
            case .camera: camera = newValue
            case .lens: lens = newValue
            case .text: text = newValue
            case .keyword: keyword = newValue
            }
        }
    }
}

/// A photo's shape as it is seen.
public enum PhotoShape: String, Hashable, Sendable, CaseIterable {
    /// Wider than tall.
    case landscape
    /// Taller than wide.
    case portrait
    /// As wide as tall.
    case square
}

/// Which albums a photo stands in, for ``PhotoSearch/membership``.
public enum PhotoMembership: Hashable, Sendable {
    /// In this album (it stands in it at least once).
    case inAlbum(AlbumID)
    /// In no album its asker can see.
    case inNoAlbum
}

/// A span of capture dates: from a year, month or day to another, both
/// included (`2025`, `2025-07`, `2025-07-14`, `2025-07-01..2025-08-15`).
///
/// Capture dates are compared as the file records them, in the time where
/// the photo was taken: "July 2025" is July where the photographer was. A
/// photo whose date is less precise than the range's ends (a year alone,
/// `1975`) is within a year's range but not a month's.
public struct CaptureRange: Hashable, Sendable, CustomStringConvertible {
    /// The first capture-date prefix in the range.
    public let start: String
    /// The first prefix after the range.
    public let end: String
    public let description: String

    /// Why a range cannot be read.
    public struct Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// What was given.
        public let text: String
        public var description: String {
            "'\(text)' is not a date to search by: give a year (2025), a month (2025-07), a day (2025-07-14) or a range (2025-07-01..2025-08-15)"
        }
    }

    /// Reads `2025`, `2025-07`, `2025-07-14` or `FIRST..LAST` of those.
    ///
    /// - Throws: ``Failure``.
    public init(_ text: String) throws(Failure) {
        let ends = text.split(separator: "..", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard ends.count == 1 || ends.count == 2, let first = Self.period(ends[0]), let last = Self.period(ends[ends.count - 1]),
            first.start < last.end
        else { throw Failure(text: text) }
        start = first.start
        end = last.end
        description = text
    }

    /// A year, month or day: its own text, and the text of the period after it.
    private static func period(_ text: String) -> (start: String, end: String)? {
        // ASCII digits only: `\d` matches any script's digits ("٢٠٢٥", "２０２５"), which Int() refuses.
        guard let match = text.wholeMatch(of: /([0-9]{4})(?:-([0-9]{2})(?:-([0-9]{2}))?)?/), let year = Int(match.1) else { return nil }
        let month = match.2.flatMap { Int($0) }
        let day = match.3.flatMap { Int($0) }
        guard (match.2 == nil) == (month == nil), (match.3 == nil) == (day == nil) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let components = DateComponents(year: year, month: month ?? 1, day: day ?? 1)
        guard year >= 1, (1...12).contains(month ?? 1), components.isValidDate(in: calendar), let date = calendar.date(from: components) else {
            return nil
        }
        let unit: Calendar.Component = day != nil ? .day : month != nil ? .month : .year
        guard let next = calendar.date(byAdding: unit, value: 1, to: date) else { return nil }
        let parts = calendar.dateComponents([.year, .month, .day], from: next)
        let after: String
        switch unit {
        case .day: after = String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
        case .month: after = String(format: "%04d-%02d", parts.year ?? 0, parts.month ?? 0)
        default: after = String(format: "%04d", parts.year ?? 0)
        }
        return (text, after)
    }
}

/// One photo a search found, as its asker sees it.
public struct FoundPhoto: Hashable, Sendable {
    /// The photo.
    public let photo: Photo
    /// Its name as the asker sees it (see ``LibraryReader/nameAsSeen(of:)``).
    public let name: String
    /// The albums it stands in that the asker can see, by name.
    public let albums: [String]
}

/// A page of a search's photos, newest first.
public struct PhotoSearchPage: Hashable, Sendable {
    /// The photos, newest first by capture date; those that record none
    /// last, the last imported first.
    public let photos: [FoundPhoto]
    /// Where the next page starts; nil when this is the last.
    public let next: PhotoSearchCursor?
}

/// How many photos a search finds in one month of the timeline
/// (``LibraryReader/photoMonths(matching:)``).
public struct PhotoMonth: Hashable, Sendable {
    /// `2025-07`; a year alone (`1975`) for photos dated by their year; ''
    /// for the photos that record no capture date, which come last.
    public let month: String
    /// How many photos, videos included.
    public let count: Int
    /// How many of them are videos.
    public let videos: Int

    /// A month, its count and how many of those are videos.
    public init(month: String, count: Int, videos: Int = 0) {
        self.month = month
        self.count = count
        self.videos = videos
    }

    /// Where a timeline starts to show this month: a cursor after every
    /// photo of later months, for ``LibraryReader/photos(matching:limit:after:)``.
    public var start: PhotoSearchCursor {
        // The undated share the key '': past every dated photo, their ids decide.
        if month.isEmpty { return PhotoSearchCursor(time: "", id: Int64.max) }
        // Every time key of this month or before sorts below this text, and
        // none equals it: the id never decides.
        return PhotoSearchCursor(time: Self.after(month), id: 1)
    }

    /// The text that sorts just after every key of `month` and before the
    /// month after it: `2025-07` → `2025-07~`. A year alone (`1975`) holds
    /// only the keys that are that year alone, which sort below its months:
    /// `1975-`.
    private static func after(_ month: String) -> String { month.count == 4 ? month + "-" : month + "~" }
}

/// Where a page of a search starts: just after the last photo of the one before.
public struct PhotoSearchCursor: Hashable, Sendable, CustomStringConvertible {
    /// The photo's time key: its capture date, '' for none.
    let time: String
    let id: Int64

    /// The cursor as text, to hand back (`--after`, the API's `after`).
    public var description: String { "\(id)@\(time)" }

    /// Reads a cursor ``description`` wrote; nil for anything else.
    public init?(_ text: String) {
        guard let at = text.firstIndex(of: "@"), let id = Int64(text[..<at]), id > 0 else { return nil }
        self.id = id
        time = String(text[text.index(after: at)...])
    }

    init(time: String, id: Int64) {
        self.time = time
        self.id = id
    }
}

extension PhotoSearch {
    /// The media type a format's name stands for: `jpg` → `image/jpeg`,
    /// `mov` → `video/quicktime`.
    /// The condition a format puts on a photo's media type (`p.media_type`):
    /// `video` (or `videos`) every video, `photo` (`photos`, `still`, `image`)
    /// every still, else the one type ``mediaType(of:)`` names.
    static func mediaTypeCondition(of format: String) -> (sql: String, argument: String) {
        switch format.lowercased().trimmingCharacters(in: .whitespaces) {
        case "video", "videos": ("p.media_type GLOB ?", "video/?*")
        case "photo", "photos", "still", "stills", "image", "images": ("p.media_type GLOB ?", "image/?*")
        default: ("p.media_type = ?", mediaType(of: format))
        }
    }

    static func mediaType(of format: String) -> String {
        let name = format.lowercased().trimmingCharacters(in: .whitespaces)
        if name.hasPrefix("image/") || name.hasPrefix("video/") { return name }
        switch name {
        case "jpg", "jpe": return "image/jpeg"
        case "tif": return "image/tiff"
        case "mov", "qt", "quicktime": return "video/quicktime"
        case "mp4", "m4v": return "video/mp4"
        case "mkv", "matroska": return "video/x-matroska"
        case "webm": return "video/webm"
        case "avi": return "video/x-msvideo"
        case "3gp": return "video/3gpp"
        case "mpg", "mpeg": return "video/mpeg"
        default: return "image/" + name
        }
    }
}

// MARK: - A search kept in the file

extension PhotoSearch {
    /// The keys a saved search is kept under (a smart album's `search`
    /// column, migration 0017): those of `GET /api/photos`, an album by id.
    private struct Stored: Codable {
        var taken: String?
        var name: String?
        var format: String?
        var shape: String?
        var minMegapixels: Double?
        var camera: String?
        var lens: String?
        var location: Bool?
        var albumID: Int64?
        var noAlbum: Bool?
        var text: String?
        var keyword: String?
        var favorite: Bool?
        var minRating: Int?
        var rejected: Bool?

        enum CodingKeys: String, CodingKey {
            case taken, name, format, shape, camera, lens, location, text, keyword, favorite, rejected
            case minRating = "min_rating"
            case minMegapixels = "min_megapixels"
            case albumID = "album_id"
            case noAlbum = "no_album"
        }
    }

    /// The search as the file keeps it: JSON with sorted keys.
    var storedJSON: String {
        var stored = Stored()
        stored.taken = taken?.description
        stored.name = name
        stored.format = format
        stored.shape = shape?.rawValue
        stored.minMegapixels = minimumMegapixels
        stored.camera = camera
        stored.lens = lens
        stored.location = hasLocation
        stored.text = text
        stored.keyword = keyword
        stored.favorite = isFavorite
        stored.minRating = minimumRating
        stored.rejected = isRejected
        switch membership {
        case .inAlbum(let album): stored.albumID = album.rawValue
        case .inNoAlbum: stored.noAlbum = true
        case nil: break
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(stored)) ?? Data("{}".utf8), as: UTF8.self)
    }

    /// A search the file keeps; nil for text that is not one (a damaged
    /// file: the album then finds nothing rather than everything).
    init?(storedJSON text: String) {
        guard let stored = try? JSONDecoder().decode(Stored.self, from: Data(text.utf8)) else { return nil }
        self.init()
        if let taken = stored.taken {
            guard let range = try? CaptureRange(taken) else { return nil }
            self.taken = range
        }
        name = stored.name
        format = stored.format
        if let shape = stored.shape {
            guard let value = PhotoShape(rawValue: shape) else { return nil }
            self.shape = value
        }
        minimumMegapixels = stored.minMegapixels
        camera = stored.camera
        lens = stored.lens
        hasLocation = stored.location
        self.text = stored.text
        keyword = stored.keyword
        isFavorite = stored.favorite
        minimumRating = stored.minRating
        isRejected = stored.rejected
        if let album = stored.albumID { membership = .inAlbum(AlbumID(rawValue: album)) }
        if stored.noAlbum == true { membership = .inNoAlbum }
    }
}
