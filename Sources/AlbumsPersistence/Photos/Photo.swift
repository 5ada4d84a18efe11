import AlbumsImageFacts
import Foundation

/// A photo or video of the library: content known by the SHA-256 of its
/// bytes, which it shares only with photos made apart for people who could
/// not see it (``isApart``).
public struct Photo: Identifiable, Hashable, Sendable {
    public let id: PhotoID
    /// What the photo is: its bytes' digest, size, type and facts.
    public let content: PhotoContent
    /// When the photo first entered the library (stored to the millisecond).
    public let importedAt: Date
    /// Whether it was made apart from other photos of the same bytes: for
    /// a person who uploaded bytes the library held only where they cannot
    /// see (Documentation/People.md, "Uploads"). What is made from it
    /// (thumbnails, renditions) is its own: see ``derivedFilesKey``.
    public let isApart: Bool

    /// A photo as read from the library.
    public init(id: PhotoID, content: PhotoContent, importedAt: Date, isApart: Bool = false) {
        self.id = id
        self.content = content
        self.importedAt = importedAt
        self.isApart = isApart
    }

    /// The name files made from the photo (thumbnails, playable
    /// renditions) are cached under: its digest, which photos of the same
    /// bytes share, or for a photo made apart its digest and its id, so
    /// that nothing made for a photo its person cannot see (nor how soon
    /// it comes) reaches them.
    public var derivedFilesKey: String {
        isApart ? "\(content.sha256Hex)-p\(id.rawValue)" : content.sha256Hex
    }
}

/// A Live Photo's motion: the short movie taken around its still, known
/// by its bytes' SHA-256 as a photo is, and read from where it was found.
public struct MotionContent: Hashable, Sendable {
    /// The SHA-256 of the movie's bytes: 32 bytes.
    public var sha256: Data
    /// Its size in bytes.
    public var byteCount: Int64
    /// A MIME type such as `video/quicktime`.
    public var mediaType: String
    /// How long it runs, in seconds, to the millisecond; nil when its container does not say.
    public var duration: Double?
    /// Where its bytes were read from.
    public var sourcePath: String

    /// A motion as a loader read it.
    public init(sha256: Data, byteCount: Int64, mediaType: String, duration: Double?, sourcePath: String) {
        self.sha256 = sha256
        self.byteCount = byteCount
        self.mediaType = mediaType
        self.duration = duration.flatMap { $0.isFinite && $0 >= 0 ? ($0 * 1000).rounded() / 1000 : nil }
        self.sourcePath = sourcePath
    }

    /// The digest as 64 lowercase hexadecimal digits.
    public var sha256Hex: String { HexDigits.string(sha256) }
}

extension PhotoContent {
    /// A Live Photo's motion as content of its own, kept where its still
    /// is kept (under its own digest): what a keeper keeps, reads and moves
    /// it as. Nil without a motion.
    public var motionAsContent: PhotoContent? {
        guard let motion else { return nil }
        return PhotoContent(
            sha256: motion.sha256, byteCount: motion.byteCount, mediaType: motion.mediaType,
            originalName: (motion.sourcePath as NSString).lastPathComponent, sourcePath: motion.sourcePath, keptIn: keptIn,
            duration: motion.duration)
    }
}

extension Photo {
    /// A Live Photo's motion as an original of its own (``PhotoContent/motionAsContent``),
    /// under the still's id; nil for a photo without a motion.
    public var motionAsOriginal: Photo? {
        content.motionAsContent.map { Photo(id: id, content: $0, importedAt: importedAt, isApart: isApart) }
    }
}

/// What is known of a photo's bytes and where they came from: the facts
/// a loader records, before the photo has an identity in a library.
public struct PhotoContent: Hashable, Sendable {
    /// The SHA-256 of the bytes: 32 bytes.
    public var sha256: Data
    /// The file's size in bytes.
    public var byteCount: Int64
    /// A MIME type such as `image/jpeg`.
    public var mediaType: String
    /// The stored raster's width, as the file's header gives it.
    public var pixelWidth: Int?
    /// The stored raster's height.
    public var pixelHeight: Int?
    /// How the stored raster is turned to be seen upright: as the file
    /// says, or as the organizer it came from showed it.
    public var orientation: PhotoOrientation
    /// The file's own orientation, where the photo is shown otherwise (an
    /// organizer kept a turn in its catalog, not the file); nil: the same.
    public var fileOrientation: PhotoOrientation?
    /// When the photo was taken, as the file records it (Documentation/PhotoFacts.md).
    public var capturedAt: CaptureDate?
    /// The camera's maker (EXIF `Make`), as written.
    public var cameraMake: String?
    /// The camera's model (EXIF `Model`), as written.
    public var cameraModel: String?
    /// The lens (EXIF `LensModel`), as written.
    public var lens: String?
    /// Whether the file records where it was taken; the place itself is not kept.
    public var hasLocation: Bool
    /// The file name it was imported from.
    public var originalName: String
    /// Where the bytes were read from.
    public var sourcePath: String
    /// The place where the library keeps a verified copy of the bytes; nil:
    /// only the source holds them (Documentation/Storage.md).
    public var keptIn: StoragePlaceID?
    /// How long a video runs, in seconds, as its container says; nil for a
    /// still, and for a video whose container does not say.
    public var duration: Double?
    /// A Live Photo's motion, which goes with its still as one item; nil for
    /// a photo without one, and for a video.
    public var motion: MotionContent?
    /// What the file (its XMP, IPTC or EXIF, or its sidecar) or the
    /// organizer it came from says is written on it: the item the load
    /// commits carries them. Not the photo's: the same bytes elsewhere carry their own.
    public var marks: ItemMarks = .none

    /// A photo's content as a loader read it; facts it could not read stay nil.
    public init(
        sha256: Data, byteCount: Int64, mediaType: String, pixelWidth: Int? = nil,
        pixelHeight: Int? = nil, orientation: PhotoOrientation = .up, capturedAt: CaptureDate? = nil,
        cameraMake: String? = nil, cameraModel: String? = nil, lens: String? = nil, hasLocation: Bool = false,
        originalName: String, sourcePath: String, fileOrientation: PhotoOrientation? = nil, keptIn: StoragePlaceID? = nil,
        duration: Double? = nil, motion: MotionContent? = nil
    ) {
        self.duration = duration
        self.motion = motion
        self.fileOrientation = fileOrientation
        self.keptIn = keptIn
        self.cameraMake = cameraMake
        self.cameraModel = cameraModel
        self.lens = lens
        self.hasLocation = hasLocation
        self.sha256 = sha256
        self.byteCount = byteCount
        self.mediaType = mediaType
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.orientation = orientation
        self.capturedAt = capturedAt
        self.originalName = originalName
        self.sourcePath = sourcePath
    }

    /// The width the photo is seen at: the stored width, or its height
    /// when the orientation turns it a quarter.
    public var displayWidth: Int? { orientation.swapsWidthAndHeight ? pixelHeight : pixelWidth }

    /// The camera as people name it: maker and model, or the model alone
    /// where it names its maker already (EXIF's Canon writes "Canon" and
    /// "Canon EOS 400D DIGITAL"); nil when the file names neither.
    public var cameraName: String? {
        let make = cameraMake?.trimmingCharacters(in: .whitespaces) ?? ""
        let model = cameraModel?.trimmingCharacters(in: .whitespaces) ?? ""
        if make.isEmpty || model.lowercased().hasPrefix(make.lowercased()) { return model.isEmpty ? (make.isEmpty ? nil : make) : model }
        return model.isEmpty ? make : make + " " + model
    }

    /// The height the photo is seen at.
    public var displayHeight: Int? { orientation.swapsWidthAndHeight ? pixelWidth : pixelHeight }

    /// Shows the photo as `shown`, as the organizer it comes from did, keeping
    /// the file's own orientation to draw it from.
    public mutating func show(as shown: PhotoOrientation) {
        let file = fileOrientation ?? orientation
        orientation = shown
        fileOrientation = shown == file ? nil : file
    }

    /// Takes the facts read from the photo's bytes.
    public mutating func take(_ facts: ImageFacts) {
        mediaType = facts.mediaType
        pixelWidth = facts.pixelWidth
        pixelHeight = facts.pixelHeight
        orientation = facts.orientation
        capturedAt = facts.capturedAt
        cameraMake = facts.cameraMake
        cameraModel = facts.cameraModel
        lens = facts.lens
        hasLocation = facts.hasLocation
        marks = ItemMarks(found: facts.words)
    }

    /// Takes the facts read from a video's container: a video records no
    /// camera, lens or place that albums reads, nor words.
    public mutating func take(_ facts: VideoFacts) {
        mediaType = facts.mediaType
        pixelWidth = facts.pixelWidth
        pixelHeight = facts.pixelHeight
        orientation = facts.orientation
        capturedAt = facts.capturedAt
        // To the millisecond, as people read it; a container's nonsense (negative, infinite) is no duration.
        duration = facts.duration.flatMap { $0.isFinite && $0 >= 0 ? ($0 * 1000).rounded() / 1000 : nil }
        cameraMake = nil
        cameraModel = nil
        lens = nil
        hasLocation = false
        marks = .none
    }

    /// Whether it is a video rather than a still.
    public var isVideo: Bool { mediaType.hasPrefix("video/") }

    /// The digest as 64 lowercase hexadecimal digits.
    public var sha256Hex: String { HexDigits.string(sha256) }
}
