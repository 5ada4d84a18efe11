import GRDB

/// The photos that stand for albums and folders in an album list: each
/// album's cover (chosen by hand, else its first photo) and, for each
/// folder, the covers of the first albums it holds.
public struct AlbumCovers: Sendable {
    /// An album's cover.
    public struct Cover: Hashable, Sendable {
        /// The photo shown.
        public let photo: PhotoID
        /// Whether it was chosen by hand; else it is the album's first photo.
        public let isChosen: Bool

        /// A cover: a photo, chosen by hand or standing as the album's first.
        public init(photo: PhotoID, isChosen: Bool) {
            self.photo = photo
            self.isChosen = isChosen
        }
    }

    /// The most covers a folder shows.
    public static let coversPerFolder = 4

    /// Each album's cover; an album without photos has none.
    public let albums: [AlbumID: Cover]
    /// Each folder's covers: those of the first ``coversPerFolder`` albums
    /// with one, in the tree's order, in the folder or in folders inside it.
    public let folders: [FolderID: [PhotoID]]
}

extension LibraryReader {
    /// The covers of every album and folder of `tree` (as ``tree()`` gives
    /// it, so only what the principal may see): an album whose cover is not
    /// chosen shows its first photo (placeholders are passed over).
    ///
    /// One indexed lookup per album without a chosen cover.
    public func covers(in tree: [TreeEntry]) throws -> AlbumCovers {
        var albums: [AlbumID: AlbumCovers.Cover] = [:]
        var folders: [FolderID: [PhotoID]] = [:]
        // The folders open around the entry being read, outermost first.
        var open: [(folder: FolderID, depth: Int)] = []
        for entry in tree {
            while let innermost = open.last, innermost.depth >= entry.depth { open.removeLast() }
            switch entry.node {
            case .folder(let folder):
                open.append((folder.id, entry.depth))
            case .album(let album):
                guard let cover = try cover(of: album) else { continue }
                albums[album.id] = cover
                for (folder, _) in open where folders[folder, default: []].count < AlbumCovers.coversPerFolder {
                    folders[folder, default: []].append(cover.photo)
                }
            }
        }
        return AlbumCovers(albums: albums, folders: folders)
    }

    /// The album's cover: the photo chosen for it, else its first photo;
    /// nil while it holds no photo.
    public func cover(of album: Album) throws -> AlbumCovers.Cover? {
        // A smart album shows its newest photo, as its reader sees it.
        if album.isSmart { return try smartAlbumCover(album) }
        if let chosen = album.chosenCoverID { return AlbumCovers.Cover(photo: chosen, isChosen: true) }
        guard album.itemCount > album.placeholderCount else { return nil }
        // Segments are the outer loop, as in an album's listing: the first
        // photo comes from the two indexes with no sort.
        let first = try PhotoID.fetchOne(
            db,
            cachedSQL: """
                SELECT i.photo_id FROM album_segment s CROSS JOIN album_item i ON i.segment_id = s.id
                WHERE s.album_id = ? AND i.photo_id IS NOT NULL ORDER BY s.order_key, i.order_key LIMIT 1
                """,
            arguments: [album.id])
        return first.map { AlbumCovers.Cover(photo: $0, isChosen: false) }
    }
}

extension LibraryWriter {
    /// Chooses the photo that stands for an album in album lists, or with
    /// nil goes back to its first photo. The cover stays through moves in
    /// the album, sorts and swaps, and clears when its photo leaves the
    /// album (removed, or moved to another); undo brings it back with the
    /// photo. A locked album takes a cover: the lock keeps its items, as
    /// it keeps its name open to renaming.
    ///
    /// ```swift
    /// try library.write { try $0.setAlbumCover(trip.id, to: photo.id) }
    /// ```
    ///
    /// - Throws: ``LibraryError/albumNotFound(_:)``, ``LibraryError/forbidden(reason:)``
    ///   (it takes an editor), ``LibraryError/smartAlbumCover(name:)``,
    ///   ``LibraryError/photoNotInAlbum(_:album:)``.
    public func setAlbumCover(_ id: AlbumID, to photo: PhotoID?) throws {
        try apply(try checkAlbumCover(id, to: photo))
    }
}
