import Foundation


/// Which date a file records is its capture date (Documentation/PhotoFacts.md).
/// The first of these that holds a date wins:
///
/// 1. EXIF `DateTimeOriginal`, with `SubSecTimeOriginal` and `OffsetTimeOriginal`;
/// 2. EXIF `CreateDate` (`DateTimeDigitized`), with `SubSecTimeDigitized`
///    and `OffsetTimeDigitized`;
/// 3. XMP `exif:DateTimeOriginal`, then `xmp:CreateDate`, then
///    `photoshop:DateCreated`.
///
/// Never IFD0's `DateTime` (`ModifyDate`: when a program last saved the
/// file) and never the file's modification time. A zero, blank or
/// impossible date (month 13, the year 0000 cameras write for "unset")
/// is no date, and the next in the list is tried.
enum CaptureDateRules {
    static func captureDate(exif: TIFFDirectory?, xmp: XMPFields?) -> CaptureDate? {
        if let date = exif?.dateTimeOriginal.flatMap(exifDate) { return date }
        if let date = exif?.createDate.flatMap(exifDate) { return date }
        for text in [xmp?.dateTimeOriginal, xmp?.createDate, xmp?.dateCreated].compactMap({ $0 }) {
            if let date = xmpDate(text) { return date }
        }
        return nil
    }

    /// EXIF's `YYYY:MM:DD HH:MM:SS` with its sub-seconds (digits) and
    /// offset (`±HH:MM`) where they are well formed.
    static func exifDate(_ date: TIFFDirectory.ExifDate) -> CaptureDate? {
        guard var text = isoClockTime(fromExif: date.text) else { return nil }
        let subSeconds = date.subSeconds?.trimmingCharacters(in: .whitespaces) ?? ""
        if !subSeconds.isEmpty, subSeconds.allSatisfy({ $0.isASCII && $0.isNumber }) { text += "." + subSeconds }
        if let offset = date.offset, let parsed = CaptureDate("2000-01-01T00:00" + offset), parsed.utcOffsetMinutes != nil {
            text += offset
        }
        return CaptureDate(text)
    }

    /// `YYYY:MM:DD HH:MM:SS` (dashes in the date are taken too) as
    /// `YYYY-MM-DDTHH:MM:SS`; nil for anything else.
    private static func isoClockTime(fromExif text: String) -> String? {
        let characters = Array(text.prefix(19))
        guard characters.count == 19 else { return nil }
        for (index, character) in characters.enumerated() {
            switch index {
            case 4, 7: guard character == ":" || character == "-" else { return nil }
            case 10: guard character == " " || character == "T" else { return nil }
            case 13, 16: guard character == ":" else { return nil }
            default: guard character.isASCII && character.isNumber else { return nil }
            }
        }
        let value = String(characters)
        let day: String = value.prefix(4) + "-" + value.dropFirst(5).prefix(2) + "-" + value.dropFirst(8).prefix(2)
        return day + "T" + value.dropFirst(11)
    }

    /// An XMP date: ISO 8601 to any precision (`1975`, `1975-06-01T10:00Z`),
    /// `Z` read as `+00:00`; EXIF's layout is taken too, as some writers use it.
    static func xmpDate(_ text: String) -> CaptureDate? {
        var value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if let iso = isoClockTime(fromExif: value), value.count >= 19 {
            value = iso + value.dropFirst(19)
        }
        if value.hasSuffix("Z") { value = value.dropLast() + "+00:00" }
        return CaptureDate(value)
    }
}

/// What a file's embedded metadata says, gathered from wherever its format
/// keeps it, before the rules pick the facts.
struct EmbeddedMetadata {
    /// The first EXIF block (or, for TIFF, the file's own first directory).
    var exif: TIFFDirectory?
    var xmp: XMPFields?
    /// The IPTC record's words (JPEG's APP13).
    var iptc: ImageWords?
    /// HEIF's `irot`/`imir` on the primary image, which outrank EXIF there.
    var heifOrientation: PhotoOrientation?

    var orientation: PhotoOrientation {
        heifOrientation ?? exif?.orientation.flatMap(PhotoOrientation.init(rawValue:)) ?? .up
    }

    var captureDate: CaptureDate? { CaptureDateRules.captureDate(exif: exif, xmp: xmp) }

    /// The words and marks, each from the first place that holds it: XMP,
    /// then IPTC, then EXIF (as the Metadata Working Group ranks them for a
    /// file written since XMP).
    var words: ImageWords {
        let exifWords = ImageWords(
            caption: ImageWords.caption(fromEXIF: exif?.imageDescription, make: exif?.make, model: exif?.model),
            rating: exif?.rating.flatMap { (1...5).contains($0) ? $0 : nil })
        return (xmp?.words ?? ImageWords()).filled(from: iptc ?? exif?.iptc ?? ImageWords()).filled(from: exifWords)
    }

    /// Adds an XMP packet's fields to those already found (the first packet's win).
    mutating func addXMP(_ fields: XMPFields) {
        if xmp == nil { xmp = fields } else { xmp?.fillGaps(from: fields) }
    }

    func facts(mediaType: String, width: Int?, height: Int?) -> ImageFacts {
        ImageFacts(
            mediaType: mediaType, pixelWidth: width, pixelHeight: height, orientation: orientation, capturedAt: captureDate,
            cameraMake: exif?.make, cameraModel: exif?.model, lens: exif?.lens, hasLocation: exif?.hasLocation ?? false, words: words,
            contentIdentifier: exif?.contentIdentifier)
    }
}
