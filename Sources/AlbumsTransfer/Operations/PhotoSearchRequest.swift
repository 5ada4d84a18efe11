import AlbumsPersistence

/// A search as a person or a script asks for it: the filters, with an
/// album named rather than known by id. A reader acting for the asker
/// makes it a ``PhotoSearch`` (``resolved(by:)``), finding the album as
/// they see it.
///
/// A smart album keeps the resolved search: its album by id, so that it
/// follows the album through renames.
public struct PhotoSearchRequest: Hashable, Sendable {
    /// Every filter but the albums.
    public var search: PhotoSearch
    /// Only photos in this album (a name or a path).
    public var album: String?
    /// Only photos in no album.
    public var inNoAlbum: Bool

    /// A request of `search`, in `album` or in no album.
    public init(search: PhotoSearch = PhotoSearch(), album: String? = nil, inNoAlbum: Bool = false) {
        self.search = search
        self.album = album
        self.inNoAlbum = inNoAlbum
    }

    /// The search, its album found as the reader's principal sees it.
    ///
    /// - Throws: ``LibraryError/albumNotFound(_:)``.
    public func resolved(by reader: LibraryReader) throws -> PhotoSearch {
        var resolved = search
        if let album { resolved.membership = .inAlbum(try reader.album(named: album).id) }
        if inNoAlbum { resolved.membership = .inNoAlbum }
        return resolved
    }
}
