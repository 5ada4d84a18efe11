/// The page's files, embedded at build time from the `Page` folder (the
/// EmbedPage plugin generates `embeddedFiles`).
enum PageFiles {
    /// The file's text and its content type, by file name.
    static func file(named name: String) -> (text: String, contentType: String)? {
        byName[name].map { ($0, contentType(of: name)) }
    }

    private static let byName = Dictionary(uniqueKeysWithValues: embeddedFiles.map { ($0.fileName, $0.text) })

    private static func contentType(of name: String) -> String {
        switch name.split(separator: ".").last {
        case "html": "text/html; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "json": "application/json"
        case "svg": "image/svg+xml"
        default: "application/octet-stream"
        }
    }
}
