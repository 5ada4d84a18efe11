import AlbumsPersistence

/// Why a photo has no thumbnail.
package enum ThumbnailFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The photo's source file cannot be read (moved or deleted).
    case sourceMissing(photo: PhotoID, detail: String)
    /// The source file's bytes are no longer those imported.
    case sourceChanged(photo: PhotoID)
    /// libvips could not decode the photo.
    case undecodable(photo: PhotoID, detail: String)
    /// A longer side outside ``ThumbnailStore/longerSides``.
    case unsupportedSize(Int)
    /// libvips cannot be loaded or started, so no photo gets a thumbnail
    /// (``ThumbnailStore/unavailableReason``).
    case unavailable(detail: String)

    /// A stable, machine-readable name for the failure.
    package var code: String {
        switch self {
        case .sourceMissing: "source_missing"
        case .sourceChanged: "source_changed"
        case .undecodable: "thumbnail_failed"
        case .unsupportedSize: "invalid_size"
        case .unavailable: "thumbnails_unavailable"
        }
    }

    /// The facts alone: which words help (a command to run) is the front end's to say.
    package var description: String {
        switch self {
        case .sourceMissing(let photo, let detail):
            "the source of photo id:\(photo) cannot be read (\(detail))"
        case .sourceChanged(let photo):
            "the source of photo id:\(photo) changed since it was imported"
        case .undecodable(let photo, let detail):
            "photo id:\(photo) cannot be decoded for a thumbnail: \(detail)"
        case .unsupportedSize(let size):
            "a thumbnail's size is its longer side in pixels, \(ThumbnailStore.longerSides.lowerBound)…\(ThumbnailStore.longerSides.upperBound), not \(size)"
        case .unavailable(let detail):
            "no thumbnails can be made: \(detail)"
        }
    }
}
