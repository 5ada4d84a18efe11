import AlbumsPersistence

/// A photo a search found, as `albums photos --json` prints it and the API
/// serves it; `show --json` prints a photo so too.
package struct FoundPhotoJSON: Encodable, Sendable {
    let photoID: Int64
    let file: String
    let mediaType: String
    @KeptNull var pixelWidth: Int?
    @KeptNull var pixelHeight: Int?
    let orientation: Int
    @KeptNull var displayWidth: Int?
    @KeptNull var displayHeight: Int?
    @KeptNull var capturedAt: String?
    /// A video's length in seconds; null for a still.
    @KeptNull var duration: Double?
    /// Whether it is a Live Photo: a still with its motion.
    let livePhoto: Bool
    /// A Live Photo's motion's length in seconds; null otherwise.
    @KeptNull var motionDuration: Double?
    let importedAt: String
    @KeptNull var cameraMake: String?
    @KeptNull var cameraModel: String?
    @KeptNull var lens: String?
    let hasLocation: Bool
    let byteCount: Int64
    let sha256: String
    /// The albums holding it that its reader can see, by name.
    let albums: [String]
    /// Where its file lies: only for the file's holder and admins.
    @KeptNull var source: String?

    /// A found photo as JSON; `showingPaths` false leaves out where its file lies.
    package init(_ found: FoundPhoto, showingPaths: Bool = true) {
        self.init(found.photo, name: found.name, albums: found.albums, showingPaths: showingPaths)
    }

    /// A photo as JSON, named `name`, in `albums` (what `show` prints).
    package init(_ photo: Photo, name: String, albums: [String], showingPaths: Bool = true) {
        let content = photo.content
        photoID = photo.id.rawValue
        file = name
        mediaType = content.mediaType
        pixelWidth = content.pixelWidth
        pixelHeight = content.pixelHeight
        orientation = content.orientation.rawValue
        displayWidth = content.displayWidth
        displayHeight = content.displayHeight
        capturedAt = content.capturedAt?.text
        duration = content.duration
        livePhoto = content.motion != nil
        motionDuration = content.motion?.duration
        importedAt = Timestamp.text(photo.importedAt)
        cameraMake = content.cameraMake
        cameraModel = content.cameraModel
        lens = content.lens
        hasLocation = content.hasLocation
        byteCount = content.byteCount
        sha256 = content.sha256Hex
        self.albums = albums
        source = showingPaths ? content.sourcePath : nil
    }

    /// The JSON keys, in snake_case.
    enum CodingKeys: String, CodingKey {
        case photoID = "photo_id"
        case file
        case mediaType = "media_type"
        case pixelWidth = "pixel_width"
        case pixelHeight = "pixel_height"
        case orientation
        case displayWidth = "display_width"
        case displayHeight = "display_height"
        case capturedAt = "captured_at"
        case duration
        case livePhoto = "live_photo"
        case motionDuration = "motion_duration"
        case importedAt = "imported_at"
        case cameraMake = "camera_make"
        case cameraModel = "camera_model"
        case lens
        case hasLocation = "has_location"
        case byteCount = "byte_count"
        case sha256
        case albums
        case source
    }
}

/// A page of a search, as JSON: its photos and where the next page starts.
package struct PhotoSearchPageJSON: Encodable, Sendable {
    let photos: [FoundPhotoJSON]
    /// Handed back as `--after` (the API's `after`) for the next page; null on the last.
    @KeptNull var next: String?

    package init(_ page: PhotoSearchPage, showingPaths: Bool = true) {
        photos = page.photos.map { FoundPhotoJSON($0, showingPaths: showingPaths) }
        next = page.next?.description
    }
}

/// How many photos a search finds in each month, as JSON (`photos --months
/// --json`, `GET /api/photos/months`): newest month first, each with the
/// `after` that starts a timeline there.
package struct PhotoMonthsJSON: Encodable, Sendable {
    struct Month: Encodable, Sendable {
        let month: String
        let count: Int
        let videos: Int
        /// The cursor that starts a page at this month's newest photo.
        let start: String
    }

    let months: [Month]

    package init(_ months: [PhotoMonth]) {
        self.months = months.map { Month(month: $0.month, count: $0.count, videos: $0.videos, start: $0.start.description) }
    }
}
