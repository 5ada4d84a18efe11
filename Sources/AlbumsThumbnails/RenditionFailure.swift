import AlbumsPersistence

/// Why a video has no playable rendition.
package enum RenditionFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// FFmpeg (its libraries, which read the streams, or its `ffmpeg`
    /// program, which converts) is not on this machine: no video gets one.
    case unavailable(detail: String)
    /// FFmpeg cannot read the file's streams.
    case unreadable(detail: String)
    /// The source file cannot be read (moved or deleted), or its copy in a bucket cannot be fetched.
    case sourceMissing(photo: PhotoID, detail: String)
    /// The source file's bytes are no longer those imported.
    case sourceChanged(photo: PhotoID)
    /// `ffmpeg` ran and failed; `detail` is the last line it wrote.
    case conversionFailed(detail: String)
    /// The photo is a still, not a video.
    case notVideo(photo: PhotoID)

    /// A stable, machine-readable name for the failure.
    package var code: String {
        switch self {
        case .unavailable: "renditions_unavailable"
        case .unreadable, .conversionFailed: "rendition_failed"
        case .sourceMissing: "source_missing"
        case .sourceChanged: "source_changed"
        case .notVideo: "not_video"
        }
    }

    /// The facts alone: which words help is the front end's to say.
    package var description: String {
        switch self {
        case .unavailable(let detail): "no video can be converted to play in a browser: \(detail)"
        case .unreadable(let detail): "the video cannot be read: \(detail)"
        case .sourceMissing(let photo, let detail): "the source of photo id:\(photo) cannot be read (\(detail))"
        case .sourceChanged(let photo): "the source of photo id:\(photo) changed since it was imported"
        case .conversionFailed(let detail): "FFmpeg could not convert the video: \(detail)"
        case .notVideo(let photo): "photo id:\(photo) is a still, not a video"
        }
    }
}
