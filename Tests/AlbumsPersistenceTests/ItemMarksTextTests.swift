import Foundation
import Testing

@testable import AlbumsPersistence

/// The quick paths an import takes for the words it finds (printable ASCII,
/// keywords JSON leaves as they are) give what the general ones give.
@Suite("Words as kept: the quick paths")
struct ItemMarksTextTests {
    @Test("keywords JSON escapes nothing in are written as JSONSerialization writes them, and every list reads back")
    func keywordsJSON() throws {
        let plain = ["family", "Places/Portugal/Porto", "été", "a,b", "100% sure", "日本"]
        let quick = try #require(ItemMarks(keywords: plain).keywordsJSON)
        let general = try JSONSerialization.data(withJSONObject: plain, options: .withoutEscapingSlashes)
        #expect(quick == String(decoding: general, as: UTF8.self))
        for keywords in [plain, ["x\"y"], ["back\\slash"], ["line\u{1}break", "plain"]] {
            let json = try #require(ItemMarks(keywords: keywords).keywordsJSON)
            #expect(ItemMarks.keywords(fromJSON: json) == keywords, "\(json)")
        }
        #expect(ItemMarks(keywords: []).keywordsJSON == nil)
    }

    @Test("printable ASCII is trimmed of its spaces alone; a blank text is none")
    func asciiTrimmed() {
        #expect(ItemMarks(foundTitle: "  Harbour at dawn ", caption: "Day 3", rating: nil, keywords: []).title == "Harbour at dawn")
        #expect(ItemMarks(foundTitle: "Harbour", caption: "   ", rating: nil, keywords: []).caption == nil)
        #expect(ItemMarks(foundTitle: " \t Harbour\n", caption: nil, rating: nil, keywords: []).title == "Harbour")
    }

    @Test("keywords differing only in case or in Unicode form are one keyword, the first kept")
    func keywordIdentity() {
        let marks = ItemMarks(foundTitle: nil, caption: nil, rating: nil, keywords: ["Family", "family", "Cafe\u{301}", "Café", "trip"])
        #expect(marks.keywords == ["Family", "Cafe\u{301}", "trip"].map { $0.precomposedStringWithCanonicalMapping })
    }
}
