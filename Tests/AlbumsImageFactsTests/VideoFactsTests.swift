import Foundation
import Testing

@testable import AlbumsImageFacts

/// A video's facts from its container: against ffprobe and exiftool on
/// the clips ffmpeg makes for the photo corpus (scripts/make-photo-corpus;
/// ALBUMS_PHOTO_CORPUS names it), and on files cut short or crafted.
@Suite("Video facts")
struct VideoFactsTests {
    static let corpus = ProcessInfo.processInfo.environment["ALBUMS_PHOTO_CORPUS"].map { URL(fileURLWithPath: $0) }

    @Test(
        "container, stored size, turn, duration and capture date match ffprobe (and exiftool's QuickTime date with its zone), clip by clip",
        .enabled(if: corpus != nil, "ALBUMS_PHOTO_CORPUS names the corpus (scripts/test)"))
    func matchProbes() throws {
        let corpus = try #require(Self.corpus)
        let probes = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: corpus.appending(path: "ffprobe.json"))) as? [String: [String: Any]])
        let exiftool = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: corpus.appending(path: "videos-exiftool.json"))) as? [String: [String: Any]])
        #expect(probes.count >= 10)
        for (name, probe) in probes.sorted(by: { $0.key < $1.key }) {
            let facts = try VideoHeaderReader.read(fileAt: corpus.appending(path: "videos/\(name)").path)
            let format = try #require(probe["format"] as? [String: Any])
            let stream = try #require((probe["streams"] as? [[String: Any]])?.first { $0["codec_type"] as? String == "video" })
            let formatName = format["format_name"] as? String ?? ""
            let container: VideoContainer =
                switch (formatName, (name as NSString).pathExtension) {
                case (_, "mov"): .quickTime
                case (_, "3gp"): .threeGP
                case ("matroska,webm", "webm"): .webM
                case ("matroska,webm", _): .matroska
                case ("avi", _): .avi
                case ("mpeg", _): .mpeg
                default: .mp4
                }
            #expect(facts.container == container, "\(name)")
            guard container != .mpeg else { continue }  // a program stream's facts are in its packets, not a header
            #expect(facts.pixelWidth == stream["width"] as? Int && facts.pixelHeight == stream["height"] as? Int, "\(name): \(facts)")
            if let duration = (format["duration"] as? String).flatMap(Double.init) {
                #expect(abs((facts.duration ?? -1) - duration) < 0.05, "\(name): \(facts.duration ?? -1) against \(duration)")
            }
            // ffprobe's rotation is anticlockwise: -90 is a quarter turn clockwise to see it upright.
            let rotation = ((stream["side_data_list"] as? [[String: Any]]) ?? []).compactMap { $0["rotation"] as? Int }.first ?? 0
            let orientation: PhotoOrientation = [0: .up, -90: .right, 90: .left, 180: .down, -180: .down][rotation] ?? .up
            #expect(facts.orientation == orientation, "\(name): rotation \(rotation)")
            let zoned = (exiftool[name]?["Keys:CreationDate"] as? String).flatMap(Self.exiftoolDate)
            let utc = ((format["tags"] as? [String: Any])?["creation_time"] as? String).map { String($0.prefix(19)) + "+00:00" }
            #expect(facts.capturedAt?.text == zoned ?? utc, "\(name): \(facts.capturedAt?.text ?? "none")")
        }
    }

    /// `2024:07:14 12:00:00+02:00` as ISO 8601.
    static func exiftoolDate(_ text: String) -> String {
        var characters = Array(text)
        for index in [4, 7] where index < characters.count { characters[index] = "-" }
        if characters.count > 10 { characters[10] = "T" }
        return String(characters)
    }

    @Test("a file cut short or crafted yields fewer facts or a refusal, never a trap")
    func hostile() throws {
        let movie = Self.box("ftyp", Array("isom".utf8) + [0, 0, 2, 0])
            + Self.box("moov", Self.box("mvhd", [1, 0, 0, 0] + [UInt8](repeating: 0xFF, count: 28) + [UInt8](repeating: 0, count: 80)))
        // A duration of all ones (unknown), a creation time past any year.
        let facts = try VideoHeaderReader.read(Data(movie))
        #expect(facts.duration == nil && facts.capturedAt == nil)
        // A box claiming more than the file, a 64-bit size past it: no movie header to be found.
        for crafted: [UInt8] in [
            Self.box("ftyp", Array("isom".utf8)) + [0xFF, 0xFF, 0xFF, 0xF0] + Array("moov".utf8),
            Self.box("ftyp", Array("isom".utf8)) + [0, 0, 0, 1] + Array("moov".utf8) + [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],
        ] {
            #expect(throws: VideoReadFailure.damaged(container: .mp4, detail: "it has no movie header (moov)")) { try VideoHeaderReader.read(Data(crafted)) }
        }
        // An empty movie, then a box of size 0 (to the end): a movie with no facts.
        let empty = try VideoHeaderReader.read(Data(Self.box("ftyp", Array("qt  ".utf8)) + [0, 0, 0, 8] + Array("moov".utf8) + [0, 0, 0, 0] + Array("trak".utf8)))
        #expect(empty == VideoFacts(container: .quickTime))
        // Matroska: a size of all ones (unknown) and an element past the end.
        let matroska: [UInt8] = [0x1A, 0x45, 0xDF, 0xA3, 0x84, 0x42, 0x82, 0x81, 0x77] + [0x18, 0x53, 0x80, 0x67, 0xFF]
            + [0x15, 0x49, 0xA9, 0x66, 0x88, 0x44, 0x89, 0x88, 0x7F, 0xF0]
        let read = try VideoHeaderReader.read(Data(matroska))
        #expect(read.container == .matroska && read.duration == nil)
        #expect(throws: VideoReadFailure.notAVideo) { try VideoHeaderReader.read(Data("not a video".utf8)) }
        #expect(IsoMedia<MemoryBytes>.captureDate(quickTime: "2024-07-14T12:00:00+0200")?.text == "2024-07-14T12:00:00+02:00")
        #expect(IsoMedia<MemoryBytes>.captureDate(quickTime: "2024-07-14T10:00:00Z")?.text == "2024-07-14T10:00:00+00:00")
        #expect(IsoMedia<MemoryBytes>.captureDate(quickTime: "yesterday") == nil)
    }

    static func box(_ type: String, _ content: [UInt8]) -> [UInt8] {
        let size = UInt32(8 + content.count)
        return [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)] + Array(type.utf8) + content
    }
}
