import Foundation
import Testing

@testable import AlbumsImageFacts

/// The words and marks a file carries, read from XMP, IPTC and EXIF
/// written by hand here (exiftool's, on real files, are compared in
/// PhotoCorpusTests).
@Suite("Words and marks in files")
struct ImageWordsTests {
    static func xmp(_ text: String) -> XMPFields {
        Data(text.utf8).withUnsafeBytes { XMPFields.read(ByteView(bytes: $0)) }
    }

    @Test("XMP: a language alternative's default first, bags and sequences whole, a rating as attribute or element, entities decoded")
    func xmpWords() {
        let fields = Self.xmp(
            """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><r:RDF xmlns:r="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
             <r:Description xmlns:d="http://purl.org/dc/elements/1.1/" xmlns:xap="http://ns.adobe.com/xap/1.0/"
               xmlns:lr="http://ns.adobe.com/lightroom/1.0/" xap:Rating="3.0">
              <d:title><r:Alt><r:li xml:lang="fr">Le port</r:li><r:li xml:lang="x-default">The harbour &amp; boats</r:li></r:Alt></d:title>
              <d:description><r:Alt><r:li xml:lang="x-default">Line one
            line two &#x263A;</r:li></r:Alt></d:description>
              <d:subject><r:Bag><r:li>family</r:li><r:li><![CDATA[ignored]]></r:li><r:li> </r:li><r:li>Été</r:li></r:Bag></d:subject>
              <lr:hierarchicalSubject><r:Seq><r:li>Places|France|Paris</r:li><r:li>Ana</r:li></r:Seq></lr:hierarchicalSubject>
              <d:creator><r:Seq><r:li>Not a keyword</r:li></r:Seq></d:creator>
             </r:Description></r:RDF></x:xmpmeta>
            """)
        #expect(fields.words == ImageWords(
            title: "The harbour & boats", caption: "Line one\nline two ☺", rating: 3, keywords: ["family", "Été", "Paris", "Ana"]))
        #expect(Self.xmp(#"<r:RDF xmlns:r="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><r:Description xmlns:xmp="http://ns.adobe.com/xap/1.0/"><xmp:Rating>-1</xmp:Rating></r:Description></r:RDF>"#).words.rating == -1)
        for (text, rating) in [("0", nil), ("5", 5), ("6", nil), ("nan", nil), ("-3", -1), ("2.6", 3), ("", nil), ("1e400", nil), ("1e300", nil), ("-1e300", -1), ("5.4", 5)] as [(String, Int?)] {
            #expect(ImageWords.rating(fromXMP: text) == rating, "\(text)")
        }
    }

    @Test("XMP: an element not closed, a list in a list, a prefix never declared: nothing invented, nothing trapped")
    func xmpOddities() {
        let dc = #"xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#""#
        #expect(Self.xmp("<rdf:Description \(dc)><dc:subject><rdf:Bag><rdf:li>cut").words.keywords.isEmpty)
        #expect(Self.xmp("<rdf:Description \(dc)><dc:subject><rdf:Bag><rdf:li>one</rdf:li><rdf:li><rdf:Bag><rdf:li>deeper</rdf:li></rdf:Bag></rdf:li></rdf:Bag></dc:subject>").words.keywords == ["one"])
        #expect(Self.xmp("<rdf:Description><dc:title><rdf:Alt><rdf:li>no namespace</rdf:li></rdf:Alt></dc:title></rdf:Description>").words.isEmpty)
        let many = (0..<3000).map { "<rdf:li>k\($0)</rdf:li>" }.joined()
        #expect(Self.xmp("<rdf:Description \(dc)><dc:subject><rdf:Bag>\(many)</rdf:Bag></dc:subject></rdf:Description>").subject.count == 1024)
    }

    /// An IIM block of `datasets` (record, number, bytes).
    static func iim(_ datasets: [(UInt8, UInt8, [UInt8])]) -> [UInt8] {
        datasets.flatMap { record, number, value in [0x1C, record, number, UInt8(value.count >> 8), UInt8(value.count & 0xFF)] + value }
    }

    @Test("IPTC: UTF-8 where declared or valid, else Latin-1; a block inside Photoshop's resources; every cut of it read or refused")
    func iptc() throws {
        let utf8 = Self.iim([(1, 90, [0x1B, 0x25, 0x47]), (2, 5, Array("Ἀθῆναι".utf8)), (2, 25, Array("ναός".utf8)), (2, 25, Array(" ".utf8)), (2, 120, Array("Caption".utf8))])
        let words = Data(utf8).withUnsafeBytes { IPTCRecords.words(ByteView(bytes: $0)) }
        #expect(words == ImageWords(title: "Ἀθῆναι", caption: "Caption", keywords: ["ναός"]))
        let latin1 = Self.iim([(2, 120, [0x43, 0x72, 0xE8, 0x6D, 0x65]), (2, 25, Array("Café".utf8))])
        let read = Data(latin1).withUnsafeBytes { IPTCRecords.words(ByteView(bytes: $0)) }
        #expect(read == ImageWords(caption: "Crème", keywords: ["Café"]))

        // "8BIM", 0x0404, an empty Pascal name padded to two bytes, the size, the block.
        let resource = Array("8BIM".utf8) + [0x03, 0xED, 0, 0, 0, 0, 0, 2, 0xAB, 0xCD] + Array("8BIM".utf8) + [0x04, 0x04, 0, 0]
            + [0, 0, UInt8(utf8.count >> 8), UInt8(utf8.count & 0xFF)] + utf8
        let found = Data(resource).withUnsafeBytes { IPTCRecords.iimBlock(inPhotoshopResources: ByteView(bytes: $0)).flatMap(IPTCRecords.words) }
        #expect(found?.title == "Ἀθῆναι")
        for cut in 0..<resource.count {
            _ = Data(resource.prefix(cut)).withUnsafeBytes { IPTCRecords.iimBlock(inPhotoshopResources: ByteView(bytes: $0)).flatMap(IPTCRecords.words) }
        }
        // A size beyond the bytes, an extended dataset: the walk stops.
        let lying = Array("8BIM".utf8) + [0x04, 0x04, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF]
        #expect(Data(lying).withUnsafeBytes { IPTCRecords.iimBlock(inPhotoshopResources: ByteView(bytes: $0)) } == nil)
        #expect(Data([0x1C, 2, 120, 0x80, 0x04, 1, 2, 3, 4]).withUnsafeBytes { IPTCRecords.words(ByteView(bytes: $0)) } == nil)
    }

    @Test("EXIF ImageDescription: a camera's stock text or its own name is no caption")
    func exifCaptions() {
        #expect(ImageWords.caption(fromEXIF: "OLYMPUS DIGITAL CAMERA         ", make: "OLYMPUS", model: "E-M10") == nil)
        #expect(ImageWords.caption(fromEXIF: "   ", make: nil, model: nil) == nil)
        #expect(ImageWords.caption(fromEXIF: "E-M10", make: "OLYMPUS", model: "E-M10") == nil)
        #expect(ImageWords.caption(fromEXIF: " Harbour at dawn\0", make: "OLYMPUS", model: nil) == "Harbour at dawn")
    }

    @Test("a sidecar's words win field by field over the file's")
    func sidecars() {
        var facts = ImageFacts(mediaType: "image/jpeg")
        facts.words = ImageWords(title: "file", caption: "file caption", rating: 2, keywords: ["a"])
        let sidecar = #"<rdf:Description xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title><rdf:Alt><rdf:li xml:lang="x-default">sidecar</rdf:li></rdf:Alt></dc:title></rdf:Description>"#
        #expect(facts.withSidecar(Data(sidecar.utf8)).words == ImageWords(title: "sidecar", caption: "file caption", rating: 2, keywords: ["a"]))
    }
}
