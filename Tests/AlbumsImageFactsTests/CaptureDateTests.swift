import Testing

@testable import AlbumsImageFacts

@Suite("Capture dates")
struct CaptureDateTests {
    @Test("the text form is ISO 8601 to any precision, with an optional offset; impossible dates are refused")
    func parsing() {
        for text in ["1975", "1975-06", "1975-06-01", "2026-07-14T09:12", "2026-07-14T09:12:00", "2026-07-14T09:12:00.042+02:00",
            "2024-02-29T23:59:60-11:30"]
        {
            #expect(CaptureDate(text)?.text == text, "\(text)")
        }
        for text in ["", "0000", "75", "1975-6", "1975-06-01T", "2026-02-29", "2026-04-31", "2026-07-14T24:00", "2026-07-14T09:12:00.",
            "2026-07-14T09:12:00+2:00", "2026-07-14+02:00", "2026-07-14T09:12:00Z", "2026-07-14 09:12:00"]
        {
            #expect(CaptureDate(text) == nil, "\(text)")
        }
        #expect(CaptureDate("2026-07-14T09:12:00+02:00")?.utcOffsetMinutes == 120)
        #expect(CaptureDate("2026-07-14T09:12:00-09:30")?.utcOffsetMinutes == -570)
        #expect(CaptureDate("2026-07-14T09:12:00")?.utcOffsetMinutes == nil)
    }

    @Test("dates with an offset sort by their instant, those without by their clock time")
    func sortKeys() throws {
        func key(_ text: String) throws -> String { try #require(CaptureDate(text)).sortKey }
        #expect(try key("2026-07-14T09:12:00+02:00") == "2026-07-14T07:12:00")
        #expect(try key("2026-07-14T09:12:00.5-05:00") == "2026-07-14T14:12:00.5")
        // Across a day, a month and a year's end.
        #expect(try key("2026-01-01T01:00+02:00") == "2025-12-31T23:00")
        #expect(try key("2024-02-28T22:30:00-03:00") == "2024-02-29T01:30:00")
        #expect(try key("2026-07-14T09:12:00") == "2026-07-14T09:12:00")
        #expect(try key("1975") == "1975")
        // Tokyo at 9:00 was before Paris at 8:00 the same day.
        #expect(try key("2026-07-14T09:00:00+09:00") < key("2026-07-14T08:00:00+02:00"))
    }
}
