import AlbumsTestSupport
import GRDB
import Foundation
import Testing

/// albums' facts of real and awkward photos against exiftool's, file by
/// file: the corpus of scripts/make-photo-corpus (camera JPEGs from
/// Debian's wallpaper packages, and files derived from them), imported by
/// the real binary and listed with --json.
///
/// The expectations apply the rules of Documentation/PhotoFacts.md to `exiftool -j -n -G1 -a`,
/// written here again, apart from albums' own readers. scripts/test builds
/// the corpus and sets ALBUMS_PHOTO_CORPUS; without it this suite does not
/// run (the corpus is 170 MB of downloads).
@Suite(
    "photo facts against exiftool, on the photo corpus",
    .enabled(if: ProcessInfo.processInfo.environment["ALBUMS_PHOTO_CORPUS"] != nil, "ALBUMS_PHOTO_CORPUS names the corpus (scripts/test)"))
struct PhotoCorpusTests {
    static let corpus = URL(fileURLWithPath: ProcessInfo.processInfo.environment["ALBUMS_PHOTO_CORPUS"] ?? "/nonexistent")

    /// What exiftool says of one file, with those rules applied.
    struct Expected {
        var mediaType: String
        var pixelWidth: Int
        var pixelHeight: Int
        var orientation: Int
        var capturedAt: String?

        init(exiftool tags: [String: Any], heifOrientation: Int?) throws {
            let mime = try #require(tags["File:MIMEType"] as? String)
            // exiftool names BigTIFF's own type; albums calls every TIFF image/tiff.
            mediaType = mime == "image/x-tiff-big" ? "image/tiff" : mime
            let sizeGroups = ["File", "PNG", "GIF", "RIFF", "IFD0"]
            pixelWidth = try #require(sizeGroups.lazy.compactMap { tags["\($0):ImageWidth"] as? Int }.first)
            pixelHeight = try #require(sizeGroups.lazy.compactMap { tags["\($0):ImageHeight"] as? Int }.first)
            // HEIF's irot/imir outrank EXIF; exiftool reports irot as an anticlockwise Rotation in degrees.
            let rotation = (tags["QuickTime:Rotation"] as? Int).map { [0: 1, 90: 8, 180: 3, 270: 6][$0] ?? 1 }
            orientation = heifOrientation ?? rotation ?? (tags["IFD0:Orientation"] as? Int) ?? 1
            capturedAt = Self.captureDate(tags)
        }

        /// The first valid of: EXIF DateTimeOriginal (with sub-seconds and
        /// offset), EXIF CreateDate (likewise), XMP exif:DateTimeOriginal,
        /// xmp:CreateDate, photoshop:DateCreated.
        static func captureDate(_ tags: [String: Any]) -> String? {
            for (date, subSeconds, offset) in [
                ("ExifIFD:DateTimeOriginal", "ExifIFD:SubSecTimeOriginal", "ExifIFD:OffsetTimeOriginal"),
                ("ExifIFD:CreateDate", "ExifIFD:SubSecTimeDigitized", "ExifIFD:OffsetTimeDigitized"),
            ] {
                guard let text = tags[date] as? String, var iso = isoDate(text), iso.count == 19 else { continue }
                if let value = tags[subSeconds] { iso += "." + "\(value)".trimmingCharacters(in: .whitespaces) }
                if let value = tags[offset] as? String, value.wholeMatch(of: /[+-]\d\d:\d\d/) != nil { iso += value }
                return iso
            }
            for key in ["XMP-exif:DateTimeOriginal", "XMP-xmp:CreateDate", "XMP-photoshop:DateCreated"] {
                if let value = tags[key], let iso = isoDate("\(value)") { return iso }
            }
            return nil
        }

        /// exiftool's `YYYY:MM:DD HH:MM:SS[.ss][±HH:MM|Z]`, or less, as ISO 8601,
        /// if it is a real date (not zero, not blank, not the 31st of February).
        static func isoDate(_ text: String) -> String? {
            guard let match = text.wholeMatch(of: /(\d{4})(?::(\d\d)(?::(\d\d)(?: (\d\d):(\d\d)(?::(\d\d)(\.\d+)?)?)?)?)?(Z|[+-]\d\d:\d\d)?/)
            else { return nil }
            let (_, year, month, day, hour, minute, second, fraction, zone) = match.output
            var components = DateComponents(year: Int(year))
            components.month = month.flatMap { Int($0) }
            components.day = day.flatMap { Int($0) }
            components.hour = hour.flatMap { Int($0) }
            components.minute = minute.flatMap { Int($0) }
            components.second = second.flatMap { Int($0) }
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC")!
            guard Int(year)! > 0, components.isValidDate(in: calendar) || month == nil || day == nil else { return nil }
            if let month, !(1...12).contains(Int(month)!) { return nil }
            var iso = String(year)
            if let month { iso += "-" + month }
            if let day { iso += "-" + day }
            if let hour, let minute { iso += "T" + hour + ":" + minute }
            if let second { iso += ":" + second }
            if let fraction { iso += fraction }
            if let zone { iso += zone == "Z" ? "+00:00" : String(zone) }
            return iso
        }
    }

    @Test("media type, pixel size, orientation, display size and capture date match exiftool, file by file")
    func factsMatchExiftool() throws {
        let exiftool = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: Self.corpus.appending(path: "exiftool.json"))) as? [String: [String: Any]])
        let cases = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: Self.corpus.appending(path: "cases.json"))) as? [String: [String: Any]])
        #expect(exiftool.count >= 50, "the corpus holds \(exiftool.count) files")

        let cli = try CLI()
        try cli.run("album", "create", "Corpus")
        let imported = try cli.run("import", Self.corpus.appending(path: "photos").path, "--to", "Corpus")
        #expect(imported.status == 0, "\(imported.stderr)")
        let listing = try cli.run("--json", "list", "Corpus")
        let items = try #require((try JSONSerialization.jsonObject(with: Data(listing.stdout.utf8)) as? [String: Any])?["items"] as? [[String: Any]])
        // Identical bytes are one photo: list each file name albums kept.
        let byFile = Dictionary(items.map { ($0["file"] as? String ?? "", $0) }, uniquingKeysWith: { first, _ in first })

        var compared = 0
        for (file, tags) in exiftool.sorted(by: { $0.key < $1.key }) {
            let what = (cases[file]?["case"] as? String) ?? ""
            // A sidecar is read with its photo, never as one.
            if tags["File:MIMEType"] as? String == "application/rdf+xml" { continue }
            guard let item = byFile[file] else {
                // Only a duplicate of another file's bytes may be missing.
                #expect(imported.stdout.contains("already"), "\(file) (\(what)) was not imported")
                continue
            }
            let expected = try Expected(exiftool: tags, heifOrientation: cases[file]?["heif_orientation"] as? Int)
            let swapped = expected.orientation >= 5
            #expect(item["media_type"] as? String == expected.mediaType, "\(file) (\(what)): media type")
            #expect(item["pixel_width"] as? Int == expected.pixelWidth, "\(file) (\(what)): width")
            #expect(item["pixel_height"] as? Int == expected.pixelHeight, "\(file) (\(what)): height")
            #expect(item["orientation"] as? Int == expected.orientation, "\(file) (\(what)): orientation")
            #expect(item["display_width"] as? Int == (swapped ? expected.pixelHeight : expected.pixelWidth), "\(file) (\(what)): display width")
            #expect(item["display_height"] as? Int == (swapped ? expected.pixelWidth : expected.pixelHeight), "\(file) (\(what)): display height")
            #expect(item["captured_at"] as? String == expected.capturedAt, "\(file) (\(what)): capture date")
            compared += 1
        }
        #expect(compared >= 50)
    }

    @Test("camera, lens and whether a place is recorded match exiftool's EXIF, file by file, as albums photos finds them")
    func cameraFactsMatchExiftool() throws {
        let exiftool = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: Self.corpus.appending(path: "exiftool.json"))) as? [String: [String: Any]])
        let cli = try CLI()
        let imported = try cli.run("import", Self.corpus.appending(path: "photos").path)
        #expect(imported.status == 0, "\(imported.stderr)")
        let found = try #require(try cli.json(try cli.run("--json", "photos", "--limit", "10000"))["photos"] as? [[String: Any]])
        // Identical bytes are one photo, under the first file's name.
        let byFile = Dictionary(found.map { ($0["file"] as? String ?? "", $0) }, uniquingKeysWith: { first, _ in first })
        var compared = 0
        var withCamera = 0
        for (file, tags) in exiftool.sorted(by: { $0.key < $1.key }) {
            guard let photo = byFile[file] else { continue }
            func text(_ key: String) -> String? {
                (tags[key].map { "\($0)".trimmingCharacters(in: .whitespaces) }).flatMap { $0.isEmpty ? nil : $0 }
            }
            #expect(photo["camera_make"] as? String == text("IFD0:Make"), "\(file): make")
            #expect(photo["camera_model"] as? String == text("IFD0:Model"), "\(file): model")
            #expect(photo["lens"] as? String == text("ExifIFD:LensModel"), "\(file): lens")
            let located = tags["GPS:GPSLatitude"] != nil && tags["GPS:GPSLongitude"] != nil
            #expect(photo["has_location"] as? Bool == located, "\(file): location")
            compared += 1
            if text("IFD0:Model") != nil { withCamera += 1 }
        }
        #expect(compared >= 50 && withCamera >= 10, "\(compared) files compared, \(withCamera) with a camera")
        // And found by them: every photo of the first camera model, and only those.
        let model = try #require(found.compactMap { $0["camera_model"] as? String }.first)
        let byCamera = try #require(try cli.json(try cli.run("--json", "photos", "--camera", model, "--limit", "10000"))["photos"] as? [[String: Any]])
        #expect(byCamera.count == found.filter { ($0["camera_model"] as? String)?.localizedCaseInsensitiveContains(model) == true
            || ($0["camera_make"] as? String)?.localizedCaseInsensitiveContains(model) == true }.count)
    }

    /// The words and marks exiftool reads in a file, with albums' rules
    /// (Documentation/PhotoFacts.md) applied again here: each from the first
    /// place that holds it, XMP, then IPTC, then EXIF, tidied and cut as
    /// the library keeps them.
    struct ExpectedWords: Equatable, CustomStringConvertible {
        var title: String?
        var caption: String?
        var rating: String?
        var keywords: [String]

        init(title: String? = nil, caption: String? = nil, rating: String? = nil, keywords: [String] = []) {
            self.title = title
            self.caption = caption
            self.rating = rating
            self.keywords = keywords
        }

        init(exiftool tags: [String: Any]) {
            func texts(_ key: String) -> [String] {
                let values = (tags[key] as? [Any]) ?? tags[key].map { [$0] } ?? []
                return values.map { "\($0)".trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
            }
            let stock: Set<String> = ["olympus digital camera", "sony dsc", "digital camera", "konica minolta digital camera"]
            let description = texts("IFD0:ImageDescription").first.flatMap {
                stock.contains($0.lowercased()) || $0.lowercased() == texts("IFD0:Make").first?.lowercased() ? nil : $0
            }
            title = texts("XMP-dc:Title").first ?? texts("IPTC:ObjectName").first
            caption = (texts("XMP-dc:Description").first ?? texts("IPTC:Caption-Abstract").first ?? description).map {
                String($0.prefix(10_000)).trimmingCharacters(in: .whitespacesAndNewlines)
            }
            let xmpRating = (tags["XMP-xmp:Rating"] as? NSNumber)?.doubleValue
            let exifRating = (tags["IFD0:Rating"] as? NSNumber)?.intValue
            if let xmpRating {
                rating = xmpRating < 0 ? "rejected" : (1...5).contains(Int(xmpRating.rounded())) ? String(Int(xmpRating.rounded())) : nil
            } else if let exifRating, (1...5).contains(exifRating) {
                rating = String(exifRating)
            }
            var words = texts("XMP-dc:Subject") + texts("XMP-lr:HierarchicalSubject").compactMap { $0.split(separator: "|").last.map(String.init) }
            if words.isEmpty { words = texts("IPTC:Keywords") }
            var seen = Set<String>()
            keywords = words.filter { seen.insert($0.lowercased()).inserted }
        }

        /// These, with what they lack from `other` (a sidecar's over its file's).
        func filled(from other: ExpectedWords) -> ExpectedWords {
            ExpectedWords(
                title: title ?? other.title, caption: caption ?? other.caption, rating: rating ?? other.rating,
                keywords: keywords.isEmpty ? other.keywords : keywords)
        }

        init(item: [String: Any]) {
            title = item["title"] as? String
            caption = item["caption"] as? String
            rating = (item["rating"] as? String) ?? (item["rating"] as? Int).map(String.init)
            keywords = item["keywords"] as? [String] ?? []
        }

        var description: String { "title \(title ?? "-"), caption \(caption.map { String($0.prefix(40)) } ?? "-"), rating \(rating ?? "-"), keywords \(keywords)" }
    }

    @Test("titles, captions, ratings and keywords match exiftool's XMP, IPTC and EXIF (and a sidecar's XMP), file by file, as albums list shows them")
    func wordsMatchExiftool() throws {
        let exiftool = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: Self.corpus.appending(path: "exiftool.json"))) as? [String: [String: Any]])
        let cli = try CLI()
        try cli.run("album", "create", "Words")
        let imported = try cli.run("import", Self.corpus.appending(path: "photos").path, "--to", "Words")
        #expect(imported.status == 0, "\(imported.stderr)")
        let items = try #require(try cli.json(try cli.run("--json", "list", "Words"))["items"] as? [[String: Any]])
        let byFile = Dictionary(items.map { ($0["file"] as? String ?? "", $0) }, uniquingKeysWith: { first, _ in first })
        var compared = 0
        var worded = 0
        for (file, tags) in exiftool.sorted(by: { $0.key < $1.key }) {
            guard let item = byFile[file] else { continue }
            var expected = ExpectedWords(exiftool: tags)
            if let sidecar = exiftool[file + ".xmp"] { expected = ExpectedWords(exiftool: sidecar).filled(from: expected) }
            #expect(ExpectedWords(item: item) == expected, "\(file)")
            compared += 1
            if expected != ExpectedWords() { worded += 1 }
        }
        #expect(compared >= 50 && worded >= 9, "\(compared) files compared, \(worded) with words")
        // Those the corpus wrote, by name: the rules above are not merely agreeing with themselves.
        #expect(byFile["words-xmp.jpg"].map(ExpectedWords.init(item:)) == ExpectedWords(
            title: "The harbour", caption: "Grand-mère's 80th — 八十歳 & more", rating: "4", keywords: ["family", "Été", "Paris", "Ana"]))
        #expect(byFile["words-iptc-latin1.jpg"]?["caption"] as? String == "Crème brûlée")
        #expect(byFile["words-sidecar.jpg"].map(ExpectedWords.init(item:)) == ExpectedWords(
            title: "The sidecar's title", caption: "Written in the sidecar", rating: "1", keywords: ["Lisbon"]))
        #expect(byFile["words-camera-stock.jpg"].map(ExpectedWords.init(item:)) == ExpectedWords())
        // Found by them.
        let found = try #require(try cli.json(try cli.run("--json", "photos", "--keyword", "ναός"))["photos"] as? [[String: Any]])
        #expect(found.compactMap { $0["file"] as? String } == ["words-iptc-utf8.jpg"])
    }

    @Test("ffmpeg's clips in every container come in as videos with ffprobe's length, upright size and date; an MP4 of sound alone is not a photo")
    func videosComeIn() throws {
        let kinds = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: Self.corpus.appending(path: "videos.json"))) as? [String: String])
        let probes = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: Self.corpus.appending(path: "ffprobe.json"))) as? [String: [String: Any]])
        let cli = try CLI()
        let videos = Self.corpus.appending(path: "videos").path
        let tree = try cli.json(try cli.run("--json", "import", videos, "--tree"))
        let skipped = Dictionary(
            ((tree["skipped"] as? [[String: Any]]) ?? []).compactMap { entry in
                (entry["source"] as? String).map { (($0 as NSString).lastPathComponent, entry["reason"] as? String ?? "") }
            }) { a, _ in a }
        #expect(kinds.count >= 10 && skipped == kinds.filter { $0.value != "video" }.mapValues { _ in "not a photo" }, "\(tree)")
        let listing = try cli.json(try cli.run("--json", "list", "videos"))
        let items = Dictionary(
            ((listing["items"] as? [[String: Any]]) ?? []).compactMap { item in (item["file"] as? String).map { ($0, item) } }) { a, _ in a }
        #expect(Set(items.keys) == Set(kinds.filter { $0.value == "video" }.keys))
        for (name, item) in items.sorted(by: { $0.key < $1.key }) {
            #expect((item["media_type"] as? String)?.hasPrefix("video/") == true, "\(name)")
            let probe = try #require(probes[name])
            let format = try #require(probe["format"] as? [String: Any])
            let stream = try #require((probe["streams"] as? [[String: Any]])?.first { $0["codec_type"] as? String == "video" })
            guard !name.hasSuffix(".mpg") else { continue }  // a program stream's facts are in its packets, not a header
            let duration = try #require((format["duration"] as? String).flatMap(Double.init))
            #expect(abs(((item["duration"] as? Double) ?? -1) - duration) < 0.05, "\(name): \(item["duration"] ?? "none") against \(duration)")
            // As seen: ffprobe's stored size, turned by its rotation.
            let rotation = ((stream["side_data_list"] as? [[String: Any]]) ?? []).compactMap { $0["rotation"] as? Int }.first ?? 0
            let (width, height) = (stream["width"] as? Int, stream["height"] as? Int)
            let seen = rotation % 180 == 0 ? (width, height) : (height, width)
            #expect(item["display_width"] as? Int == seen.0 && item["display_height"] as? Int == seen.1, "\(name): rotation \(rotation)")
        }
        #expect(items["phone.mov"]?["captured_at"] as? String == "2024-07-14T12:00:00+02:00")
        #expect(items["dated.webm"]?["captured_at"] as? String == "2024-07-14T10:00:00+00:00")
        // One file alone, and the table's words for it.
        let single = try cli.run("photos", "--name", "phone.mov")
        #expect(single.stdout.contains("mov") && single.stdout.contains("144×176 0:02"), "\(single.stdout)\(single.stderr)")
        let shown = try cli.run("show", "videos:\(try #require(Array(items.keys).sorted().firstIndex(of: "phone.mov")) + 1)")
        #expect(shown.stdout.contains("length     0:02 (2.0 s)") || shown.stdout.contains("length     0:02 (2 s)"), "\(shown.stdout)")
    }

    @Test("Apple Photos' originals: a still's motion under the still's name and _3 is paired by the same content identifier alone, never by the name")
    func applePhotosMotionNames() throws {
        let cli = try CLI()
        let originals = cli.folder.path("originals/5")
        try FileManager.default.createDirectory(atPath: originals, withIntermediateDirectories: true)
        let live = Self.corpus.appending(path: "live")
        // IMG_0001's still and motion carry the same identifier; IMG_0003's carry none (paired by name when side by side).
        try FileManager.default.copyItem(atPath: live.appending(path: "IMG_0001.JPG").path, toPath: originals + "/5A1E0C2D.jpeg")
        try FileManager.default.copyItem(atPath: live.appending(path: "IMG_0001.MOV").path, toPath: originals + "/5A1E0C2D_3.mov")
        try FileManager.default.copyItem(atPath: live.appending(path: "IMG_0003.JPG").path, toPath: originals + "/7B2F.jpeg")
        try FileManager.default.copyItem(atPath: live.appending(path: "IMG_0003.MOV").path, toPath: originals + "/7B2F_3.mov")
        try cli.run("album", "create", "Originals")
        let imported = try cli.run("import", originals, "--to", "Originals")
        #expect(imported.status == 0, "\(imported.stderr)")
        let items = try #require(try cli.json(try cli.run("--json", "list", "Originals"))["items"] as? [[String: Any]])
        let byFile = Dictionary(uniqueKeysWithValues: items.compactMap { item in (item["file"] as? String).map { ($0, item) } })
        #expect(Set(byFile.keys) == ["5A1E0C2D.jpeg", "7B2F.jpeg", "7B2F_3.mov"], "\(byFile.keys.sorted())")
        #expect(byFile["5A1E0C2D.jpeg"]?["live_photo"] as? Bool == true)
        #expect(byFile["7B2F.jpeg"]?["live_photo"] as? Bool == false, "no identifier: the _3 name alone pairs nothing")
        // Named on its own, the paired motion is read with its still.
        let alone = try cli.run("import", originals + "/5A1E0C2D_3.mov", "--to", "Originals")
        #expect(alone.stdout.contains("the motion of the Live Photo 5A1E0C2D.jpeg"), "\(alone.stdout)\(alone.stderr)")
    }

    @Test("through an Apple Photos library: the still its catalog lists comes with its motion (UUID_3.mov, the same identifier), and the motion is no item of its own")
    func applePhotosLivePhotoFromCatalog() throws {
        let cli = try CLI()
        let library = try ApplePhotosImportCLITests().library(cli, .photos6)
        let originals = library + "/originals/5"
        try FileManager.default.createDirectory(atPath: originals, withIntermediateDirectories: true)
        let live = Self.corpus.appending(path: "live")
        try FileManager.default.copyItem(atPath: live.appending(path: "IMG_0001.JPG").path, toPath: originals + "/5A1E0C2D.jpeg")
        try FileManager.default.copyItem(atPath: live.appending(path: "IMG_0001.MOV").path, toPath: originals + "/5A1E0C2D_3.mov")
        // Photos lists a Live Photo as one asset, its still; the motion has no row.
        try DatabaseQueue(path: library + "/database/Photos.sqlite").write { db in
            try db.execute(sql: """
                INSERT INTO ZASSET (Z_PK, ZKIND, ZTRASHEDSTATE, ZFAVORITE, ZDIRECTORY, ZFILENAME) VALUES (7, 0, 0, 0, '5', '5A1E0C2D.jpeg');
                INSERT INTO Z_28ASSETS VALUES (4, 7, 3072);
                """)
        }
        let result = try cli.run("import", "--from", "apple-photos", library)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(try cli.albumsByPath()["Photos/Beste"] == ["B3C4.png", "A1B2.jpeg", "5A1E0C2D.jpeg"])
        let items = try #require(try cli.json(try cli.run("--json", "list", "Beste"))["items"] as? [[String: Any]])
        #expect(items.last?["live_photo"] as? Bool == true, "\(items)")
        #expect(((items.last?["motion_duration"] as? Double) ?? 0) > 1)
        let photos = try cli.run("--json", "photos").stdout
        #expect(!photos.contains("5A1E0C2D_3"), "the motion is no photo of the library: \(photos)")
        #expect(try cli.run("check", "--files").status == 0)
    }

    @Test("a Live Photo's still and motion are one item, paired by their content identifier (else by name, if short); exported together and paired again; a motion gone is found by check --files")
    func livePhotos() throws {
        let pairs = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: Self.corpus.appending(path: "live.json"))) as? [String: Any])
        let cli = try CLI()
        let folder = cli.folder.path("live")
        try FileManager.default.copyItem(atPath: Self.corpus.appending(path: "live").path, toPath: folder)
        #expect(try cli.run("import", folder, "--tree").status == 0)
        let items = try #require(try cli.json(try cli.run("--json", "list", "live"))["items"] as? [[String: Any]])
        let byFile = Dictionary(uniqueKeysWithValues: items.map { ($0["file"] as? String ?? "", $0) })
        for (still, motion) in pairs {
            let paired = motion is String
            #expect(byFile[still]?["live_photo"] as? Bool == paired, "\(still)")
            // A motion that is not its still's comes in as a video of its own.
            #expect((byFile[(still as NSString).deletingPathExtension + ".MOV"] != nil) == !paired, "\(still)")
            if paired { #expect(((byFile[still]?["motion_duration"] as? Double) ?? 0) > 1, "\(still)") }
        }
        #expect(items.count == pairs.count + pairs.values.filter { !($0 is String) }.count)
        let export = cli.folder.path("out")
        #expect(try cli.run("export", "live", export).status == 0)
        let written = try FileManager.default.contentsOfDirectory(atPath: export)
        #expect(written.contains("001-IMG_0001.JPG") && written.contains("001-IMG_0001.MOV"), "\(written)")
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: export + "/manifest.json"))) as? [String: Any])
        #expect(((manifest["files"] as? [[String: Any]])?.first?["motion"] as? String) == "001-IMG_0001.MOV")
        // The export imported again: each still finds its motion by name and identifier.
        #expect(try cli.run("album", "create", "again").status == 0)
        #expect(try cli.run("import", export, "--to", "again").status == 0)
        let again = try #require(try cli.json(try cli.run("--json", "list", "again"))["items"] as? [[String: Any]])
        #expect(again.filter { $0["live_photo"] as? Bool == true }.count == 2 && again.count == items.count, "\(again.map { $0["file"] ?? "" })")
        // A still the library holds already, found again beside its motion, gains it.
        let plain = cli.folder.path("plain")
        try FileManager.default.createDirectory(atPath: plain, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: folder + "/IMG_0004.JPG", toPath: plain + "/IMG_0009.JPG")
        #expect(try cli.run("album", "create", "plain").status == 0 && (try cli.run("import", plain + "/IMG_0009.JPG", "--to", "plain")).status == 0)
        try FileManager.default.copyItem(atPath: folder + "/IMG_0002.MOV", toPath: plain + "/IMG_0009.MOV")
        #expect(try cli.run("import", plain + "/IMG_0009.JPG", "--to", "live").status == 0)
        #expect(try cli.run("show", "plain:1").stdout.contains("its motion IMG_0009.MOV"))
        // Named one by one, the motion is read with its still, never as a video of its own.
        #expect(try cli.run("album", "create", "named").status == 0)
        let named = try cli.run("import", folder + "/IMG_0002.JPG", folder + "/IMG_0002.MOV", "--to", "named")
        #expect(named.stdout.contains("IMG_0002.MOV: the motion of the Live Photo IMG_0002.JPG, which comes with it"), "\(named.stdout)")
        let namedItems = try #require(try cli.json(try cli.run("--json", "list", "named"))["items"] as? [[String: Any]])
        #expect(namedItems.count == 1 && namedItems.first?["live_photo"] as? Bool == true)
        try FileManager.default.removeItem(atPath: folder + "/IMG_0001.MOV")
        let check = try cli.run("check", "--files")
        #expect(check.status == 1 && check.stdout.contains("its Live Photo motion") || check.stderr.contains("its Live Photo motion"), "\(check.stdout)\(check.stderr)")
    }
}
