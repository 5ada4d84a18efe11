import Foundation
import Testing

@testable import AlbumsImageFacts

/// albums' header readers against files written by another encoder
/// (Pillow, see scripts/make-example-photos), whose manifest says what
/// each file is.
@Suite("Image headers")
struct ImageHeaderTests {
    static let photos = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appending(path: "Examples/Photos")

    struct Expected: Decodable, Sendable, CustomTestStringConvertible {
        let file: String
        let mediaType: String
        let pixelWidth: Int
        let pixelHeight: Int
        let capturedAt: String?
        var testDescription: String { file }
    }

    static let manifest: [Expected] = {
        // The manifest's keys are snake_case, the entries' names camelCase.
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        guard let data = try? Data(contentsOf: photos.appending(path: "manifest.json")),
            let entries = try? decoder.decode([Expected].self, from: data)
        else { return [] }
        return entries
    }()

    @Test("the manifest lists every format albums reads")
    func coverage() {
        let types = Set(Self.manifest.map(\.mediaType))
        #expect(types == ["image/jpeg", "image/png", "image/gif", "image/webp", "image/heic", "image/tiff"])
    }

    @Test("media type, pixel size and capture date match the encoder's", arguments: manifest)
    func matchesManifest(_ expected: Expected) throws {
        let facts = try ImageHeaderReader.read(try Data(contentsOf: Self.photos.appending(path: expected.file)))
        #expect(facts.mediaType == expected.mediaType)
        #expect(facts.pixelWidth == expected.pixelWidth)
        #expect(facts.pixelHeight == expected.pixelHeight)
        #expect(facts.capturedAt?.text == expected.capturedAt)
    }

    @Test("text, empty and unknown bytes are not images")
    func notImages() throws {
        let notes = try Data(contentsOf: Self.photos.appending(path: "09-notes.txt"))
        for data in [notes, Data(), Data("GIF8".utf8), Data(repeating: 0, count: 4096)] {
            #expect {
                try ImageHeaderReader.read(data)
            } throws: { error in
                if case .notAnImage = error as? ImageReadFailure { return true }
                return false
            }
        }
    }

    @Test("an ftyp box names an image only by an image brand: an MP4, a QuickTime movie, a 3GP clip and a CR3 raw file are no photos")
    func ftypBrands() {
        func ftyp(_ major: String, _ compatible: [String]) -> Data {
            let body = Data(major.utf8) + Data([0, 0, 0, 0]) + compatible.reduce(Data()) { $0 + Data($1.utf8) }
            var size = UInt32(8 + body.count).bigEndian
            return Data(bytes: &size, count: 4) + Data("ftyp".utf8) + body + Data(repeating: 0, count: 64)
        }
        for (major, compatible) in [("heic", ["mif1", "heic"]), ("mif1", ["mif1", "heic"]), ("avif", ["avif", "mif1"]), ("iso8", ["mif1", "heic"])] {
            #expect(ImageSignature(prefix: ftyp(major, compatible)) == .heif, "\(major) \(compatible)")
        }
        for (major, compatible) in [("isom", ["isom", "iso2", "avc1", "mp41"]), ("qt  ", ["qt  "]), ("3gp4", ["3gp4", "isom"]), ("crx ", ["crx ", "isom"]),
                                    ("mp42", ["mp42", "isom"]), ("M4V ", ["M4V ", "mp42"])] {
            #expect(ImageSignature(prefix: ftyp(major, compatible)) == nil, "\(major) \(compatible)")
        }
    }

    @Test("every truncation of every example is refused, never a crash or a hang (TIFF: read or refused)", arguments: manifest)
    func truncations(_ expected: Expected) throws {
        let data = try Data(contentsOf: Self.photos.appending(path: expected.file))
        let cuts = Set((0..<min(data.count, 600)).map { $0 } + stride(from: 600, to: data.count, by: 97).map { $0 } + [data.count - 1])
        for cut in cuts.sorted() {
            do {
                let facts = try ImageHeaderReader.read(data.prefix(cut))
                // TIFF has no end marker: a cut after the header may still be read, with the true size.
                #expect(expected.mediaType == "image/tiff", "cut at \(cut) of \(data.count) was read as whole")
                if let width = facts.pixelWidth { #expect(width == expected.pixelWidth, "cut at \(cut)") }
            } catch {
                #expect(!error.description.isEmpty)
            }
        }
    }

    /// Inputs the fuzzer found crashing a reader, kept in its corpus so each fuzz run replays them.
    static let fuzzFindings = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appending(path: "Fuzz/Corpus/images")

    @Test("inputs the fuzzer found are read or refused, never a crash")
    func fuzzFindingsAreHandled() throws {
        let files = try FileManager.default.contentsOfDirectory(at: Self.fuzzFindings, includingPropertiesForKeys: nil)
        #expect(!files.isEmpty)
        for file in files {
            let data = try Data(contentsOf: file)
            do {
                _ = try ImageHeaderReader.read(data)
            } catch {
                #expect(!error.description.isEmpty, "\(file.lastPathComponent)")
            }
        }
    }

    @Test("a size from the file as large as Int.max clips a slice instead of overflowing")
    func hugeSlices() {
        let bytes: [UInt8] = Array(repeating: 7, count: 16)
        bytes.withUnsafeBytes { raw in
            let view = ByteView(bytes: raw)
            #expect(view.slice(4, count: Int.max)?.count == 12)
            #expect(view.slice(16, count: Int.max)?.count == 0)
            #expect(view.ascii(4, count: Int.max) == nil)
            #expect(HEIFHeader.BoxReader(bytes: view).boxes(from: 12, to: 4).isEmpty)
        }
    }

    @Test("headers that lie about their sizes are refused or believed, without allocating what they claim")
    func lyingHeaders() throws {
        var png = try Data(contentsOf: Self.photos.appending(path: "02-market.png"))
        png.replaceSubrange(16..<24, with: [0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0])
        #expect(throws: ImageReadFailure.self) { try ImageHeaderReader.read(png) }
        var jpeg = try Data(contentsOf: Self.photos.appending(path: "01-harbour.jpg"))
        // A segment length pointing far past the end.
        jpeg[4] = 0xFF
        jpeg[5] = 0xFF
        #expect(throws: ImageReadFailure.self) { try ImageHeaderReader.read(jpeg) }
        var gif = try Data(contentsOf: Self.photos.appending(path: "06-map.gif"))
        gif.replaceSubrange(6..<10, with: [0xFF, 0xFF, 0xFF, 0xFF])
        #expect(try ImageHeaderReader.read(gif).pixelWidth == 65_535)
    }

    static let seeds = fuzzFindings.deletingLastPathComponent().appending(path: "image-seeds")

    /// Small files full of metadata (made by ImageMagick, exiftool, cwebp,
    /// heif-enc; see Fuzz/Corpus/image-seeds), as exiftool reads them; the
    /// HEIC's imir, which exiftool does not read, composed with its irot by hand.
    static let seedFacts: [(file: String, mediaType: String, size: (Int, Int), orientation: PhotoOrientation, capturedAt: String?)] = [
        ("big-mm.tif", "image/tiff", (16, 12), .right, nil),
        ("big.tif", "image/tiff", (16, 12), .up, nil),
        ("irot-imir.heic", "image/heic", (64, 48), .leftMirrored, nil),
        ("xmp-exif.jpg", "image/jpeg", (16, 12), .right, "2020-01-02T03:04:05.12+01:00"),
        ("xmp.gif", "image/gif", (16, 12), .up, "2012-12-12T12:12:12.5+05:45"),
        ("xmp.png", "image/png", (16, 12), .up, "1975-06"),
        ("xmp.webp", "image/webp", (16, 12), .up, "2015-05-15T15:15:15+00:00"),
    ]

    @Test("metadata in every place a format keeps it: XMP in JPEG, PNG, GIF and WebP; BigTIFF in both byte orders; HEIF irot and imir")
    func metadataSeeds() throws {
        for expected in Self.seedFacts {
            let facts = try ImageHeaderReader.read(try Data(contentsOf: Self.seeds.appending(path: expected.file)))
            #expect(facts.mediaType == expected.mediaType, "\(expected.file)")
            #expect(facts.pixelWidth == expected.size.0 && facts.pixelHeight == expected.size.1, "\(expected.file)")
            #expect(facts.orientation == expected.orientation, "\(expected.file)")
            #expect(facts.capturedAt?.text == expected.capturedAt, "\(expected.file)")
        }
    }

    @Test("every truncation of the metadata seeds is read or refused, never a crash or a hang")
    func seedTruncations() throws {
        for expected in Self.seedFacts {
            let data = try Data(contentsOf: Self.seeds.appending(path: expected.file))
            for cut in 0..<data.count {
                _ = try? ImageHeaderReader.read(data.prefix(cut))
            }
        }
    }

    @Test("EXIF dates are normalised with their sub-seconds and offsets, and nonsense is no date")
    func exifDates() {
        func date(_ text: String, subSeconds: String? = nil, offset: String? = nil) -> String? {
            CaptureDateRules.exifDate(TIFFDirectory.ExifDate(text: text, subSeconds: subSeconds, offset: offset))?.text
        }
        #expect(date("2026:07:14 09:12:00", offset: "+02:00") == "2026-07-14T09:12:00+02:00")
        #expect(date("2026:07:14 09:12:00") == "2026-07-14T09:12:00")
        #expect(date("2026:07:14 09:12:00", subSeconds: "042 ", offset: "-05:30") == "2026-07-14T09:12:00.042-05:30")
        #expect(date("2026-07-14 09:12:00", subSeconds: "  ", offset: "bogus") == "2026-07-14T09:12:00")
        #expect(date("2026:07:14 09:12:00", offset: "   :  ") == "2026-07-14T09:12:00")
        for nonsense in ["0000:00:00 00:00:00", "    :  :     :  :  ", "", "2026:07:14", "2026:02:29 10:00:00", "2026:13:01 10:00:00", "2026:07:14 24:00:00"] {
            #expect(date(nonsense) == nil, "\(nonsense)")
        }
        #expect(date("2024:02:29 10:00:00") == "2024-02-29T10:00:00")
    }

    @Test("XMP dates keep their precision; Z is +00:00")
    func xmpDates() {
        #expect(CaptureDateRules.xmpDate("1975")?.text == "1975")
        #expect(CaptureDateRules.xmpDate(" 1975-06-01 ")?.text == "1975-06-01")
        #expect(CaptureDateRules.xmpDate("2015-05-15T15:15:15Z")?.text == "2015-05-15T15:15:15+00:00")
        #expect(CaptureDateRules.xmpDate("2014-04-14T14:14")?.text == "2014-04-14T14:14")
        #expect(CaptureDateRules.xmpDate("2012-12-12T12:12:12.5+05:45")?.text == "2012-12-12T12:12:12.5+05:45")
        #expect(CaptureDateRules.xmpDate("2012:12:12 12:12:12")?.text == "2012-12-12T12:12:12")
        for nonsense in ["", "0000", "1975-13", "1975-06-01T", "yesterday", "2015-05-15T15:15:15+25:00"] {
            #expect(CaptureDateRules.xmpDate(nonsense) == nil, "\(nonsense)")
        }
    }

    @Test("the first date found wins: EXIF original, EXIF digitized, then XMP; never ModifyDate")
    func captureDatePrecedence() {
        let original = TIFFDirectory.ExifDate(text: "2020:01:01 00:00:01")
        let digitized = TIFFDirectory.ExifDate(text: "2021:01:01 00:00:00")
        let zero = TIFFDirectory.ExifDate(text: "0000:00:00 00:00:00")
        let xmp = XMPFields(dateTimeOriginal: "bad", createDate: "2014-04-14T14:14", dateCreated: "1975")
        func exif(_ original: TIFFDirectory.ExifDate?, _ created: TIFFDirectory.ExifDate?) -> TIFFDirectory {
            var directory = TIFFDirectory()
            directory.dateTimeOriginal = original
            directory.createDate = created
            return directory
        }
        #expect(CaptureDateRules.captureDate(exif: exif(original, digitized), xmp: xmp)?.text == "2020-01-01T00:00:01")
        #expect(CaptureDateRules.captureDate(exif: exif(zero, digitized), xmp: xmp)?.text == "2021-01-01T00:00:00")
        #expect(CaptureDateRules.captureDate(exif: exif(zero, nil), xmp: xmp)?.text == "2014-04-14T14:14")
        #expect(CaptureDateRules.captureDate(exif: exif(nil, nil), xmp: nil) == nil)
    }

    @Test("videos and raw files are told from photos: by their own marks, a TIFF-shaped raw file by its name once the bytes say TIFF")
    func mediaKinds() throws {
        func kind(_ bytes: [UInt8], _ name: String) -> MediaKind? { MediaKind(prefix: Data(bytes + [UInt8](repeating: 0, count: 32)), name: name) }
        let tiff: [UInt8] = Array("II*\0".utf8) + [8, 0, 0, 0]
        #expect(kind(tiff, "scan.tif") == .photo(.tiff))
        #expect(kind(tiff, "DSC_0001.NEF") == .cameraRaw)
        #expect(kind(tiff, "a.dng") == .cameraRaw)
        #expect(kind(tiff + Array("CR".utf8), "IMG_1.jpg") == .cameraRaw, "a CR2 by its mark, whatever its name")
        #expect(kind(Array("IIRO".utf8), "P1.ORF") == .cameraRaw)
        #expect(kind([0x49, 0x49, 0x55, 0x00], "P1.RW2") == .cameraRaw)
        #expect(kind(Array("FUJIFILMCCD-RAW 0201".utf8), "D.RAF") == .cameraRaw)
        #expect(kind([0, 0, 0, 0x18] + Array("ftypcrx ".utf8), "IMG_1.CR3") == .cameraRaw)
        #expect(kind([0, 0, 0, 0x18] + Array("ftypisom".utf8), "clip.jpg") == .video, "the bytes, not the name")
        #expect(kind([0, 0, 0, 0x18] + Array("ftypM4A ".utf8), "song.m4a") == nil, "sound alone is no video")
        #expect(kind([0, 0, 0, 0x18] + Array("ftypheic".utf8), "a.heic") == .photo(.heif))
        #expect(kind([0x1A, 0x45, 0xDF, 0xA3], "a.webm") == .video)
        #expect(kind(Array("RIFF".utf8) + [0, 0, 0, 0] + Array("AVI ".utf8), "a.avi") == .video)
        #expect(kind(Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBP".utf8), "a.webp") == .photo(.webp))
        #expect(kind(Array("hello".utf8), "a.txt") == nil)
    }
}
