import Foundation

/// The library's timestamps: ISO 8601 UTC with milliseconds, as SQLite's
/// `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')` writes them. The API speaks
/// `Date`; the file and the JSON output speak this text.
package enum Timestamp {
    private static let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// The instant a stored timestamp names; the Unix epoch for text that is
    /// not one (the schema's defaults never write such text).
    package static func date(_ text: String) -> Date {
        if let date = try? Date(text, strategy: style) { return date }
        return (try? Date(text, strategy: .iso8601)) ?? Date(timeIntervalSince1970: 0)
    }

    /// The text the library stores for `date`: `2026-07-14T09:12:03.250Z`.
    package static func text(_ date: Date) -> String {
        date.formatted(style)
    }
}
