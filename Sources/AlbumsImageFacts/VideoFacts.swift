import Foundation

/// What a video file's container tells of it, read without decoding a
/// frame: its kind, its picture's stored size and how it is turned to be
/// seen, how long it runs, and when it was taken.
public struct VideoFacts: Hashable, Sendable {
    /// The container.
    public var container: VideoContainer
    /// The stored picture's width, as the video track's sample description gives it.
    public var pixelWidth: Int?
    /// The stored picture's height.
    public var pixelHeight: Int?
    /// How the picture is turned to be seen upright: a phone held upright
    /// records a landscape picture and a quarter turn in the track's matrix.
    public var orientation: PhotoOrientation = .up
    /// How long it runs, in seconds.
    public var duration: Double?
    /// When it was taken: QuickTime's `com.apple.quicktime.creationdate`
    /// (the camera's clock with its zone), else the movie header's or
    /// Matroska's creation time (an instant, in UTC).
    public var capturedAt: CaptureDate?
    /// QuickTime's `com.apple.quicktime.content.identifier`: a Live Photo's
    /// motion carries its still's.
    public var contentIdentifier: String?

    /// A MIME type such as `video/mp4`.
    public var mediaType: String { container.mediaType }
}

/// The containers albums recognizes a video by.
public enum VideoContainer: String, Hashable, Sendable, CaseIterable {
    /// ISO base media: MP4 and M4V.
    case mp4
    /// Apple's QuickTime movie (`ftyp` brand `qt  `).
    case quickTime
    /// 3GPP and 3GPP2 clips.
    case threeGP
    /// WebM, the web's Matroska.
    case webM
    /// Matroska.
    case matroska
    /// AVI (RIFF).
    case avi
    /// An MPEG program stream.
    case mpeg

    /// Its MIME type.
    public var mediaType: String {
        switch self {
        case .mp4: "video/mp4"
        case .quickTime: "video/quicktime"
        case .threeGP: "video/3gpp"
        case .webM: "video/webm"
        case .matroska: "video/x-matroska"
        case .avi: "video/x-msvideo"
        case .mpeg: "video/mpeg"
        }
    }
}

/// Why a file could not be read as a video.
public enum VideoReadFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// Not a container albums knows.
    case notAVideo
    /// A known container whose structure is cut short or contradicts itself.
    case damaged(container: VideoContainer, detail: String)
    /// The file cannot be read.
    case unreadable(detail: String)

    public var description: String {
        switch self {
        case .notAVideo: "not a video albums reads (MP4, QuickTime, 3GP, WebM, Matroska, AVI, MPEG)"
        case .damaged(let container, let detail): "damaged \(container.rawValue) video: \(detail)"
        case .unreadable(let detail): detail
        }
    }
}

extension CaptureDate {
    /// The capture date of an instant given in seconds since 1970, in UTC
    /// (`2024-07-14T12:00:00+00:00`); nil for an instant outside the years
    /// a capture date can name.
    public init?(utcSeconds: Int64) {
        // Years 1 to 9999: beyond them the text form has no room.
        guard (-62_135_596_800...253_402_300_799).contains(utcSeconds) else { return nil }
        // ISO 8601 in UTC ends in "Z"; a capture date writes the offset.
        let text = Date(timeIntervalSince1970: TimeInterval(utcSeconds)).formatted(Date.ISO8601FormatStyle())
        self.init(text.dropLast() + "+00:00")
    }
}
