import Foundation
import Testing

@testable import AlbumsImageFacts

/// A Live Photo's content identifier, in the still's Apple maker note and
/// the motion's QuickTime keys, against exiftool on the corpus's Live Photos
/// (scripts/make-photo-corpus writes them; ALBUMS_PHOTO_CORPUS names it).
@Suite("Live Photo content identifiers")
struct LivePhotoIdentifierTests {
    static let corpus = ProcessInfo.processInfo.environment["ALBUMS_PHOTO_CORPUS"].map { URL(fileURLWithPath: $0) }

    @Test(
        "the still's maker note and the motion's keys say what exiftool reads, file by file; a file without one says none",
        .enabled(if: corpus != nil, "ALBUMS_PHOTO_CORPUS names the corpus (scripts/test)"))
    func matchExiftool() throws {
        let corpus = try #require(Self.corpus)
        let exiftool = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: corpus.appending(path: "live-exiftool.json"))) as? [String: [String: Any]])
        #expect(exiftool.count == 8)
        var found = 0
        for (name, tags) in exiftool.sorted(by: { $0.key < $1.key }) {
            let path = corpus.appending(path: "live/\(name)").path
            // exiftool 12 names Apple's tag 17 MediaGroupUUID; later versions ContentIdentifier.
            let expected = (tags["Apple:ContentIdentifier"] ?? tags["Apple:MediaGroupUUID"] ?? tags["Keys:ContentIdentifier"]) as? String
            let read =
                name.hasSuffix(".MOV")
                ? try VideoHeaderReader.read(fileAt: path).contentIdentifier
                : try ImageHeaderReader.read(Data(contentsOf: URL(fileURLWithPath: path))).contentIdentifier
            #expect(read == expected, "\(name)")
            if read != nil { found += 1 }
        }
        #expect(found == 4, "two pairs' stills and motions carry one")
    }

    @Test("a maker note that is not Apple's, cut short, or pointing past its end yields no identifier, never a trap")
    func hostileNotes() throws {
        func facts(_ note: [UInt8]) throws -> TIFFDirectory {
            // A TIFF whose EXIF directory holds only this maker note.
            var tiff: [UInt8] = Array("MM".utf8) + [0, 42, 0, 0, 0, 8, 0, 1, 0x87, 0x69, 0, 4, 0, 0, 0, 1, 0, 0, 0, 26, 0, 0, 0, 0]
            let count = UInt32(note.count)
            tiff += [0, 1, 0x92, 0x7C, 0, 7] + withUnsafeBytes(of: count.bigEndian, Array.init) + [0, 0, 0, 44] + [0, 0, 0, 0]
            tiff += note
            return try #require(tiff.withUnsafeBytes { TIFFDirectory.read(ByteView(bytes: $0)) })
        }
        let whole: [UInt8] = Array("Apple iOS\0".utf8) + [0, 1] + Array("MM".utf8) + [0, 1, 0, 0x11, 0, 2, 0, 0, 0, 9, 0, 0, 0, 32, 0, 0, 0, 0] + Array("5A1E-0C2D\0".utf8)
        #expect(try facts(whole).contentIdentifier == "5A1E-0C2D")
        #expect(try facts(Array("Nikon\0".utf8) + Array(whole.dropFirst(6))).contentIdentifier == nil)
        #expect(try facts(Array(whole.prefix(20))).contentIdentifier == nil)
        var past = whole
        past[27] = 0xFF  // the identifier's offset past the note's end
        #expect(try facts(past).contentIdentifier == nil)
    }
}
