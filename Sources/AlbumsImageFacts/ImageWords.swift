import Foundation

/// The words and marks a file carries: what a person wrote on the photo in
/// another program (its XMP, IPTC or EXIF), read as written. The library
/// tidies them as it takes them in.
public struct ImageWords: Hashable, Sendable {
    /// XMP `dc:title`, else IPTC `ObjectName`.
    public var title: String?
    /// XMP `dc:description`, else IPTC `Caption-Abstract`, else EXIF
    /// `ImageDescription` (unless it is a camera's stock text).
    public var caption: String?
    /// -1 for rejected, 1–5 stars; nil when not rated. XMP `xmp:Rating`,
    /// else EXIF's `Rating` (as Windows writes it).
    public var rating: Int?
    /// XMP `dc:subject` with the last part of each `lr:hierarchicalSubject`,
    /// else IPTC `Keywords`; as written, repeats and all.
    public var keywords: [String]

    /// Words as found.
    public init(title: String? = nil, caption: String? = nil, rating: Int? = nil, keywords: [String] = []) {
        self.title = title
        self.caption = caption
        self.rating = rating
        self.keywords = keywords
    }

    /// The words of an XMP packet on its own (a sidecar, or the XMP an
    /// organizer keeps in its catalog).
    public init(xmp packet: Data) {
        self = packet.withUnsafeBytes { XMPFields.read(ByteView(bytes: $0)) }.words
    }

    /// Whether the file carries none.
    public var isEmpty: Bool { title == nil && caption == nil && rating == nil && keywords.isEmpty }

    /// This, with what it lacks taken from `other` (a lower-ranked source).
    func filled(from other: ImageWords) -> ImageWords {
        ImageWords(
            title: title ?? other.title, caption: caption ?? other.caption, rating: rating ?? other.rating,
            keywords: keywords.isEmpty ? other.keywords : keywords)
    }

    /// `xmp:Rating` as a rating: -1 (rejected) or 1–5; 0 and anything else
    /// is none. Some writers write a real number ("3.0"): it is rounded.
    static func rating(fromXMP text: String) -> Int? {
        guard let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite else { return nil }
        if value < 0 { return -1 }
        // Compared before it becomes an Int: a file may say 1e300.
        guard value < 5.5 else { return nil }
        let stars = Int(value.rounded())
        return (1...5).contains(stars) ? stars : nil
    }

    /// The stock texts cameras write into EXIF `ImageDescription` when the
    /// person wrote nothing, compared without case or surrounding spaces.
    static let cameraStockDescriptions: Set<String> = [
        "olympus digital camera", "sony dsc", "digital camera", "minolta digital camera", "konica minolta digital camera",
        "exif_jpeg_picture", "default", "samsung", "camera", "image", "picture", "photo", "ricoh", "pentax", "nikon",
        "sanyo digital camera", "kodak digital still camera", "casio digital camera", "hp", "lg electronics", "untitled",
    ]

    /// EXIF `ImageDescription` as a caption: nil for blanks and a camera's stock text.
    static func caption(fromEXIF text: String?, make: String?, model: String?) -> String? {
        guard let text else { return nil }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines.union(.controlCharacters))
        let folded = trimmed.lowercased()
        guard !trimmed.isEmpty, !cameraStockDescriptions.contains(folded), folded != make?.lowercased(), folded != model?.lowercased() else {
            return nil
        }
        return trimmed
    }
}
