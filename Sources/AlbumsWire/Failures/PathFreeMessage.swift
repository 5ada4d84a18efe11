import Foundation

/// A message as someone other than the file's holder may read it: every
/// path on the server's disk cut to its last name (`'/srv/photos/2024/a.jpg'`
/// becomes `'a.jpg'`), so that a failure tells a person which file, never
/// where the server keeps it.
///
/// ```swift
/// PathFreeMessage.of("the original at '/srv/photos/a.jpg' is missing")  // "the original at 'a.jpg' is missing"
/// ```
package enum PathFreeMessage {
    /// `message` with every absolute path (quoted, or up to the next space) cut to its last name.
    package static func of(_ message: String) -> String {
        // A path in quotes, spaces and all: `'/a b/c.jpg'`.
        let quoted = message.replacing(/'(\/[^'\/][^']*)'/) { match in "'\(lastName(match.1))'" }
        // A path standing alone, up to a space or the end, not inside a word or a path: `/a/b.jpg`.
        return quoted.replacing(/(^|[^\w.'\/])(\/[^\s']+)/) { match in "\(match.1)\(lastName(match.2))" }
    }

    private static func lastName(_ path: Substring) -> Substring {
        path.split(separator: "/").last ?? ""
    }
}
