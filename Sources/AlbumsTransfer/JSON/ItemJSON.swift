import AlbumsPersistence

/// An item as `list` and `show` print it with --json, and the API serves it.
package struct ItemJSON: Encodable, Sendable {
    let position: Int
    let item_id: Int64
    @KeptNull var photo_id: Int64?
    @KeptNull var placeholder_id: Int64?
    @KeptNull var file: String?
    @KeptNull var media_type: String?
    @KeptNull var pixel_width: Int?
    @KeptNull var pixel_height: Int?
    /// EXIF's 1–8; null for placeholders.
    @KeptNull var orientation: Int?
    @KeptNull var display_width: Int?
    @KeptNull var display_height: Int?
    @KeptNull var captured_at: String?
    @KeptNull var byte_count: Int64?
    @KeptNull var sha256: String?
    @KeptNull var source: String?
    @KeptNull var stale: Bool?

    /// An item as JSON; `showingPaths` false leaves out where its file
    /// lies on the server's disk (`source`: only the file's holder and
    /// admins read paths), keeping a placeholder's file name in `file`.
    package init(_ item: AlbumItem, photo: Photo?, showingPaths: Bool = true) {
        position = item.index + 1
        item_id = item.id.rawValue
        photo_id = item.photoID?.rawValue
        placeholder_id = item.isPlaceholder ? item.id.rawValue : nil
        file = photo?.content.originalName
        media_type = photo?.content.mediaType
        pixel_width = photo?.content.pixelWidth
        pixel_height = photo?.content.pixelHeight
        orientation = photo?.content.orientation.rawValue
        display_width = photo?.content.displayWidth
        display_height = photo?.content.displayHeight
        captured_at = photo?.content.capturedAt?.text
        byte_count = photo?.content.byteCount
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
}

/// An album as `album list` and `list` print it with --json, and the API serves it.
package struct AlbumJSON: Encodable, Sendable {
    /// Never reused, and kept through renames.
    let id: Int64
    let name: String
    /// The folder holding it; null at the top level.
    @KeptNull var parent_id: Int64?
    /// 1-based, among its parent's children (albums and folders).
    let position: Int
    let count: Int
    let pending: Int
    let revision: Int64
    let locked: Bool

    package init(_ album: Album) {
        id = album.id.rawValue
        name = album.name
        parent_id = album.parentID?.rawValue
        position = album.index + 1
        count = album.itemCount
        pending = album.placeholderCount
        revision = album.revision
        locked = album.isLocked
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
    @KeptNull package var parent_id: Int64?
    /// 1-based, among its parent's children (albums and folders).
    package let position: Int
    package let revision: Int64
    package let locked: Bool

    package init(_ folder: Folder, path: String) {
        id = folder.id.rawValue
        name = folder.name
        self.path = path
        parent_id = folder.parentID?.rawValue
        position = folder.index + 1
        revision = folder.revision
        locked = folder.isLocked
    }
}

/// The whole tree as `album list --json` prints it and `GET /api/albums`
/// serves it: every album and every folder, each with its parent and its
/// 1-based position among its parent's children, in the tree's order
/// (a folder, then what it holds, depth first).
package struct TreeJSON: Encodable, Sendable {
    package let albums: [AlbumJSON]
    package let folders: [FolderJSON]

    package init(_ tree: [TreeEntry]) {
        var albums: [AlbumJSON] = []
        var folders: [FolderJSON] = []
        let paths = tree.folderPaths()
        for entry in tree {
            switch entry.node {
            case .album(let album): albums.append(AlbumJSON(album))
            case .folder(let folder): folders.append(FolderJSON(folder, path: paths[folder.id]!))
            }
        }
        self.albums = albums
        self.folders = folders
    }
}

/// What one operation did to one folder, as JSON.
package struct FolderChangeJSON: Encodable, Sendable {
    let folder: String
    let folder_id: Int64
    /// created, renamed, deleted, moved, locked, unlocked, rearranged (its children changed).
    let events: [String]
    let revision: Int64

    package init(_ change: FolderChange) {
        folder = change.name
        folder_id = change.folderID.rawValue
        events = change.events.map(\.rawValue)
        revision = change.revision
    }
}

/// What a write prints with --json.
package struct WriteJSON: Encodable, Sendable {
    let changes: [ChangeJSON]
    let folder_changes: [FolderChangeJSON]
    let dry_run: Bool
    /// move, copy, no_op.
    let verdict: String

    package init(changes: [ChangeJSON], folderChanges: [FolderChangeJSON] = [], dry_run: Bool, verdict: String) {
        self.changes = changes
        self.folder_changes = folderChanges
        self.dry_run = dry_run
        self.verdict = verdict
    }
}
