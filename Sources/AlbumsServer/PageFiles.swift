/// The page's files, embedded at build time from the `Page` folder (the
/// EmbedPage plugin generates ``embedded``).
enum PageFiles {
    /// The file's text and its content type, by file name.
    static func file(named name: String) -> (text: String, contentType: String)? {
        embedded[name].map { ($0, contentType(of: name)) }
    }

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
