/// The page's files, embedded at build time from the `Page` folder (the
/// EmbedPage plugin generates `embeddedFiles`).
enum PageFiles {
    /// The file's text, its content type and its entity tag, by file name.
    static func file(named name: String) -> (text: String, contentType: String, tag: String)? {
        byName[name].map { ($0.text, contentType(of: name), $0.tag) }
    }

    /// Each file with a tag of its bytes: a browser that has the file asks
    /// again with it and is answered 304, without the file.
    private static let byName = Dictionary(uniqueKeysWithValues: embeddedFiles.map { ($0.fileName, (text: $0.text, tag: tag(of: $0.text))) })

    /// A quoted FNV-1a hash of the text: it changes whenever the file does, which is all a tag needs.
    private static func tag(of text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return "\"\(String(hash, radix: 16))\""
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
