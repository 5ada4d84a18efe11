import AlbumsPersistence

/// An item as `list` and `show` print it with --json, and the API serves it.
package struct ItemJSON: Encodable, Sendable {
    let position: Int
    let itemID: Int64
    @KeptNull var photoID: Int64?
    @KeptNull var placeholderID: Int64?
    @KeptNull var file: String?
    @KeptNull var mediaType: String?
    @KeptNull var pixelWidth: Int?
    @KeptNull var pixelHeight: Int?
    /// EXIF's 1–8; null for placeholders.
    @KeptNull var orientation: Int?
    @KeptNull var displayWidth: Int?
    @KeptNull var displayHeight: Int?
    @KeptNull var capturedAt: String?
    /// A video's length in seconds; null for a still or a placeholder.
    @KeptNull var duration: Double?
    /// Whether it is a Live Photo: a still with its motion (`GET /api/photos/{id}/motion`).
    let livePhoto: Bool
    /// A Live Photo's motion's length in seconds; null otherwise.
    @KeptNull var motionDuration: Double?
    @KeptNull var byteCount: Int64?
    @KeptNull var sha256: String?
    @KeptNull var source: String?
    @KeptNull var stale: Bool?
    @KeptNull var title: String?
    @KeptNull var caption: String?
    let favorite: Bool
    /// 1–5, `"rejected"`, or null.
    @KeptNull var rating: RatingJSON?
    let keywords: [String]

    /// An item as JSON; `showingPaths` false leaves out where its file
    /// lies on the server's disk (`source`: only the file's holder and
    /// admins read paths), keeping a placeholder's file name in `file`.
    package init(_ item: AlbumItem, photo: Photo?, marks: ItemMarks = .none, showingPaths: Bool = true) {
        position = item.index + 1
        title = marks.title
        caption = marks.caption
        favorite = marks.isFavorite
        rating = marks.rating.map(RatingJSON.init)
        keywords = marks.keywords
        itemID = item.id.rawValue
        photoID = item.photoID?.rawValue
        placeholderID = item.isPlaceholder ? item.id.rawValue : nil
        file = photo?.content.originalName
        mediaType = photo?.content.mediaType
        pixelWidth = photo?.content.pixelWidth
        pixelHeight = photo?.content.pixelHeight
        orientation = photo?.content.orientation.rawValue
        displayWidth = photo?.content.displayWidth
        displayHeight = photo?.content.displayHeight
        capturedAt = photo?.content.capturedAt?.text
        duration = photo?.content.duration
        livePhoto = photo?.content.motion != nil
        motionDuration = photo?.content.motion?.duration
        byteCount = photo?.content.byteCount
        sha256 = photo?.content.sha256Hex
        switch item.content {
        case .placeholder(let load):
            source = load.source
            stale = load.owner.isGone
            if !showingPaths { file = String(load.source.split(separator: "/").last ?? "") }
        case .photo:
            source = photo?.content.sourcePath
            stale = nil
        }
        if !showingPaths { source = nil }
    }

    /// The JSON keys, in snake_case.
    enum CodingKeys: String, CodingKey {
        case position
        case itemID = "item_id"
        case photoID = "photo_id"
        case placeholderID = "placeholder_id"
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
        case byteCount = "byte_count"
        case sha256
        case source
        case stale
        case title
        case caption
        case favorite
        case rating
        case keywords
    }
}

/// A rating as the CLI and the API say it: its stars as a number, or `"rejected"`.
package struct RatingJSON: Encodable, Sendable {
    let rating: ItemRating

    package init(_ rating: ItemRating) {
        self.rating = rating
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let stars = rating.stars { try container.encode(stars) } else { try container.encode("rejected") }
    }
}

/// An album as `album list` and `list` print it with --json, and the API serves it.
package struct AlbumJSON: Encodable, Sendable {
    /// Never reused, and kept through renames.
    let id: Int64
    let name: String
    /// The folder holding it; null at the top level.
    @KeptNull var parentID: Int64?
    /// 1-based, among its parent's children (albums and folders).
    let position: Int
    let count: Int
    let pending: Int
    /// How many of its items are videos.
    let videos: Int
    let revision: Int64
    let locked: Bool
    /// A smart album: a saved search, read-only (its count is what it shows where it is known).
    let smart: Bool
    /// What the album is about; null when it has no description.
    @KeptNull var description: String?

    package init(_ album: Album) {
        id = album.id.rawValue
        name = album.name
        smart = album.isSmart
        parentID = album.parentID?.rawValue
        position = album.index + 1
        count = album.itemCount
        pending = album.placeholderCount
        videos = album.videoCount
        revision = album.revision
        locked = album.isLocked
        description = album.description
    }

    /// The JSON keys, in snake_case.
    enum CodingKeys: String, CodingKey {
        case id
        case name
        case parentID = "parent_id"
        case position
        case count
        case pending
        case videos
        case revision
        case locked
        case smart
        case description
    }
}

/// A folder as `album list` and `folder list` print it with --json, and the API serves it.
package struct FolderJSON: Encodable, Sendable {
    /// Never reused, and kept through renames and moves.
    package let id: Int64
    package let name: String
    /// Its folders' names and its own, from the top level: "Travel/2026".
    package let path: String
    /// The folder holding it; null at the top level.
    @KeptNull package var parentID: Int64?
    /// 1-based, among its parent's children (albums and folders).
    package let position: Int
    package let revision: Int64
    package let locked: Bool

    package init(_ folder: Folder, path: String) {
        id = folder.id.rawValue
        name = folder.name
        self.path = path
        parentID = folder.parentID?.rawValue
        position = folder.index + 1
        revision = folder.revision
        locked = folder.isLocked
    }

    /// The JSON keys, in snake_case.
    enum CodingKeys: String, CodingKey {
        case id
        case name
        case path
        case parentID = "parent_id"
        case position
        case revision
        case locked
    }
}

/// The whole tree as `album list --json` prints it and `GET /api/albums`
/// serves it: every album and every folder, each with its parent and its
/// 1-based position among its parent's children, in the tree's order
/// (a folder, then what it holds, depth first).
///
/// With covers (the API's tree), each album also says `cover_photo_id`
/// (its cover, null while it holds no photo) and `cover_chosen` (chosen by
/// hand, else its first photo), and each folder `cover_photo_ids` (the
/// covers of its first albums, up to four).
package struct TreeJSON: Encodable, Sendable {
    package let albums: [Covered<AlbumJSON>]
    package let folders: [Covered<FolderJSON>]

    /// An album or folder, with its covers when the tree carries them: the
    /// same object with the cover keys beside its own.
    @dynamicMemberLookup
    package struct Covered<Node: Encodable & Sendable>: Encodable, Sendable {
        package let node: Node
        /// A smart album's search, as its reader sees it.
        var search: SmartSearchJSON? = nil

        package subscript<Value>(dynamicMember keyPath: KeyPath<Node, Value>) -> Value { node[keyPath: keyPath] }
        let cover: AlbumCovers.Cover??
        let folderCovers: [PhotoID]?

        enum CodingKeys: String, CodingKey {
            case coverPhotoID = "cover_photo_id"
            case coverChosen = "cover_chosen"
            case coverPhotoIDs = "cover_photo_ids"
            case search
        }

        package func encode(to encoder: any Encoder) throws {
            try node.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            if let cover {
                try container.encode(cover?.photo.rawValue, forKey: .coverPhotoID)
                try container.encode(cover?.isChosen ?? false, forKey: .coverChosen)
            }
            if let folderCovers { try container.encode(folderCovers.map(\.rawValue), forKey: .coverPhotoIDs) }
            if let search { try container.encode(search, forKey: .search) }
        }
    }

    package init(_ tree: [TreeEntry], covers: AlbumCovers? = nil, searches: [AlbumID: SmartSearchJSON] = [:]) {
        var albums: [Covered<AlbumJSON>] = []
        var folders: [Covered<FolderJSON>] = []
        let paths = tree.folderPaths()
        for entry in tree {
            switch entry.node {
            case .album(let album):
                albums.append(Covered(node: AlbumJSON(album), search: searches[album.id], cover: covers.map { $0.albums[album.id] }, folderCovers: nil))
            case .folder(let folder):
                folders.append(Covered(node: FolderJSON(folder, path: paths[folder.id]!), cover: nil, folderCovers: covers.map { $0.folders[folder.id] ?? [] }))
            }
        }
        self.albums = albums
        self.folders = folders
    }
}

/// A smart album's search as its reader sees it: the filters of `GET
/// /api/photos`, its album by name; `unavailable` when that album is not
/// there for the reader (it then shows nothing).
package struct SmartSearchJSON: Encodable, Sendable {
    let taken: String?
    let name: String?
    let format: String?
    let shape: String?
    let minMegapixels: Double?
    let camera: String?
    let lens: String?
    let location: Bool?
    let album: String?
    let noAlbum: Bool?
    let text: String?
    let keyword: String?
    let favorite: Bool?
    let minRating: Int?
    let rejected: Bool?
    let unavailable: Bool?

    enum CodingKeys: String, CodingKey {
        case taken, name, format, shape, camera, lens, location, album, unavailable, text, keyword, favorite, rejected
        case minRating = "min_rating"
        case minMegapixels = "min_megapixels"
        case noAlbum = "no_album"
    }

    /// The search of `album` as `reader`'s principal sees it.
    package init(_ album: Album, reader: LibraryReader) {
        let search = album.savedSearch
        taken = search?.taken?.description
        name = search?.name
        format = search?.format
        shape = search?.shape?.rawValue
        minMegapixels = search?.minimumMegapixels
        camera = search?.camera
        lens = search?.lens
        location = search?.hasLocation
        text = search?.text
        keyword = search?.keyword
        favorite = search?.isFavorite
        minRating = search?.minimumRating
        rejected = search?.isRejected
        var albumName: String?
        var noAlbum: Bool?
        var available = search != nil
        switch search?.membership {
        case .inAlbum(let id):
            albumName = try? reader.album(id).name
            available = available && albumName != nil
        case .inNoAlbum:
            noAlbum = true
        case nil:
            break
        }
        self.album = albumName
        self.noAlbum = noAlbum
        unavailable = available ? nil : true
    }
}

/// What one operation did to one folder, as JSON.
package struct FolderChangeJSON: Encodable, Sendable {
    let folder: String
    let folderID: Int64
    /// created, renamed, deleted, moved, locked, unlocked, rearranged (its children changed).
    let events: [String]
    let revision: Int64

    package init(_ change: FolderChange) {
        folder = change.name
        folderID = change.folderID.rawValue
        events = change.events.map(\.rawValue)
        revision = change.revision
    }

    /// The JSON keys, in snake_case.
    enum CodingKeys: String, CodingKey {
        case folder
        case folderID = "folder_id"
        case events
        case revision
    }
}

/// What a write prints with --json.
package struct WriteJSON: Encodable, Sendable {
    let changes: [ChangeJSON]
    let folderChanges: [FolderChangeJSON]
    let dryRun: Bool
    /// move, copy, no_op.
    let verdict: String

    package init(changes: [ChangeJSON], folderChanges: [FolderChangeJSON] = [], dryRun: Bool, verdict: String) {
        self.changes = changes
        self.folderChanges = folderChanges
        self.dryRun = dryRun
        self.verdict = verdict
    }

    /// The JSON keys, in snake_case.
    enum CodingKeys: String, CodingKey {
        case changes
        case folderChanges = "folder_changes"
        case dryRun = "dry_run"
        case verdict
    }
}
