import Foundation

/// What a file is, told by its first bytes: a photo albums holds (in one
/// of the formats of ``ImageSignature``), a video it holds beside photos,
/// or a camera's raw file, which it recognizes so as to count it for what
/// it is and never load it as a photo. Nil (from the initializers) for anything else.
public enum MediaKind: Hashable, Sendable {
    /// A still image albums reads.
    case photo(ImageSignature)
    /// A video: MP4, QuickTime, M4V, 3GP (an `ftyp` box of a video's
    /// brands), WebM or Matroska (EBML), AVI (RIFF), MPEG program stream.
    case video
    /// A camera's raw file: Canon's CR2 and CR3, Olympus' ORF, Panasonic's
    /// RW2, Fujifilm's RAF by their own marks; the raw formats that are
    /// plain TIFF inside (Nikon's NEF, Sony's ARW, Adobe's DNG, …) by their
    /// name's extension once the bytes say TIFF.
    case cameraRaw

    /// Why an import leaves a file of this kind out; nil for a photo or a video.
    public var reasonLeftOut: String? {
        switch self {
        case .photo: nil
        case .video: nil
        case .cameraRaw: "a camera raw file: albums reads no raw file"
        }
    }

    /// The extensions of raw formats whose bytes are a TIFF's.
    static let tiffRawExtensions: Set<String> = [
        "nef", "nrw", "arw", "srf", "sr2", "dng", "pef", "srw", "3fr", "erf", "kdc", "dcr", "mrw", "mos", "iiq", "rwl", "mef", "x3f",
    ]

    /// The `ftyp` major brands of audio alone, which are no video.
    static let audioBrands: Set<String> = ["M4A ", "M4B ", "M4P ", "F4A ", "F4B "]

    /// The kind `prefix` (a file's first ``ImageSignature/length`` bytes or
    /// fewer) announces, for a file named `name`.
    public init?(prefix: Data, name: String) {
        let kind: MediaKind? = prefix.withUnsafeBytes { raw in Self.of(ByteView(bytes: raw), name: name) }
        guard let kind else { return nil }
        self = kind
    }

    /// The kind of the file at `path`, by its first bytes (and, for a TIFF,
    /// its name); nil for another kind, or for a file that cannot be read.
    public init?(ofFileAt path: String) {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let prefix = try? handle.read(upToCount: ImageSignature.length) else { return nil }
        self.init(prefix: prefix, name: (path as NSString).lastPathComponent)
    }

    static func of(_ bytes: ByteView, name: String) -> MediaKind? {
        if let signature = ImageSignature.of(bytes) {
            guard signature == .tiff else { return .photo(signature) }
            // Canon's CR2 marks itself after the TIFF header; the others say so by name alone.
            if bytes.matches(Array("CR".utf8), at: 8) { return .cameraRaw }
            let fileExtension = (name as NSString).pathExtension.lowercased()
            return tiffRawExtensions.contains(fileExtension) ? .cameraRaw : .photo(.tiff)
        }
        if bytes.matches(Array("ftyp".utf8), at: 4) {
            guard let major = bytes.ascii(8, count: 4) else { return nil }
            if major == "crx " { return .cameraRaw }
            return audioBrands.contains(major) ? nil : .video
        }
        // Olympus' ORF (IIRO, IIRS, MMOR), Panasonic's RW2 (IIU), Fujifilm's RAF.
        if bytes.matches(Array("IIRO".utf8), at: 0) || bytes.matches(Array("IIRS".utf8), at: 0) || bytes.matches(Array("MMOR".utf8), at: 0)
            || bytes.matches([0x49, 0x49, 0x55, 0x00], at: 0) || bytes.matches(Array("FUJIFILMCCD-RAW".utf8), at: 0)
        {
            return .cameraRaw
        }
        if bytes.matches([0x1A, 0x45, 0xDF, 0xA3], at: 0) { return .video }
        if bytes.matches(Array("RIFF".utf8), at: 0) && bytes.matches(Array("AVI ".utf8), at: 8) { return .video }
        if bytes.matches([0x00, 0x00, 0x01, 0xBA], at: 0) { return .video }
        return nil
    }
}
