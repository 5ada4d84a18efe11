import Foundation

/// A message as someone other than the file's holder may read it: every
/// path on the server's disk cut to its last name (`'/srv/photos/2024/a.jpg'`
/// becomes `'a.jpg'`), so that a failure tells a person which file, never
/// where the server keeps it.
///
/// ```swift
/// PathFreeMessage.of("the original at '/srv/photos/a.jpg' is missing")  // "the original at 'a.jpg' is missing"
/// ```
public enum PathFreeMessage {
    /// `message` with every absolute path (quoted, or up to the next space) cut to its last name.
    public static func of(_ message: String) -> String {
        var result = message
        for pattern in [quoted, bare] {
            let matches = pattern.matches(in: result, range: NSRange(result.startIndex..., in: result)).reversed()
            for match in matches {
                guard let range = Range(match.range(at: 1), in: result) else { continue }
                let path = result[range]
                let name = path.split(separator: "/").last.map(String.init) ?? ""
                result.replaceSubrange(range, with: name)
            }
        }
        return result
    }

    /// A path in quotes, spaces and all: `'/a b/c.jpg'`.
    private static let quoted = try! NSRegularExpression(pattern: "'(/[^'/][^']*)'")
    /// A path standing alone, up to a space or the end: `/a/b.jpg`.
    private static let bare = try! NSRegularExpression(pattern: "(?<![\\w.'/])(/[^\\s']+)")
}
