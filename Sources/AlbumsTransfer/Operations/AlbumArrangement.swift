import AlbumsImageFacts
import AlbumsPersistence
import Foundation

/// What an album's manual order can be sorted by.
public enum AlbumSortKey: String, Hashable, Sendable, CaseIterable {
    /// The file name the photo was imported from, as Finder sorts names ("IMG_2" before "IMG_10").
    case name
    /// The capture date the file records: by the instant when it names a zone
    /// offset, by its clock time otherwise (``CaptureDate/sortKey``); photos
    /// without one come last.
    case captureDate = "capture-date"
    /// When the photo entered the library.
    case importTime = "import-time"
}

extension LibraryWriter {
    /// Rewrites an album's manual order by a key: one operation, one change set.
    ///
    /// Ties keep their current order; placeholders, which have nothing to
    /// sort by, keep theirs after every photo. A sort that changes nothing
    /// returns an empty change set and does not raise the revision.
    ///
    /// - Throws: ``LibraryError/albumLocked(name:)``, ``LibraryError/albumNotFound(_:)``.
    @discardableResult
    public func sortAlbum(_ reference: AlbumReference, by key: AlbumSortKey, ascending: Bool = true) throws -> AlbumChangeSet {
        let album = try album(reference)
        let changes = try apply(try checkSort(.id(album.id), by: key, ascending: ascending))
        return changes.first { $0.albumID == album.id } ?? AlbumChangeSet(albumID: album.id, albumName: album.name, revision: album.revision)
    }
}

extension LibraryReader {
    /// Checks sorting an album's manual order by a key, with reads only.
    ///
    /// - Throws: ``LibraryError/albumLocked(name:)``, ``LibraryError/albumNotFound(_:)``, ``LibraryError/forbidden(reason:)``.
    func checkSort(_ reference: AlbumReference, by key: AlbumSortKey, ascending: Bool) throws -> ItemChange {
        let album = try album(reference)
        try requireChangeable(album)
        var items: [AlbumItem] = []
        var photos: [PhotoID: Photo] = [:]
        try forEachListedItem(in: album.id) { item, photo in
            items.append(item)
            if let photo { photos[photo.id] = photo }
            return true
        }

        func sortValue(_ item: AlbumItem) -> String? {
            guard let photo = item.photoID.flatMap({ photos[$0] }) else { return nil }
            switch key {
            case .name: return photo.content.originalName
            case .captureDate: return photo.content.capturedAt?.sortKey
            case .importTime: return Timestamp.text(photo.importedAt)
            }
        }
        func precedes(_ a: String, _ b: String) -> Bool {
            let order = key == .name ? a.localizedStandardCompare(b) : (a < b ? .orderedAscending : a == b ? .orderedSame : .orderedDescending)
            return ascending ? order == .orderedAscending : order == .orderedDescending
        }
        // Stable: ties and items without a value keep their current order, the latter last.
        let sorted = items.enumerated().sorted { lhs, rhs in
            switch (sortValue(lhs.element), sortValue(rhs.element)) {
            case (let a?, let b?): precedes(a, b) || (!precedes(b, a) && lhs.offset < rhs.offset)
            case (.some, nil): true
            case (nil, .some): false
            case (nil, nil): lhs.offset < rhs.offset
            }
        }.map(\.element)
        let words = "sort \(LibraryError.quoted(album.name)) by \(key.rawValue)\(ascending ? "" : ", descending")"
        return try checkRearrangement(of: album, order: sorted.map(\.id), words: words)
    }
}
