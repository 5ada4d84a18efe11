/// The page's files, embedded at build time from the `Page` folder (the
/// EmbedPage plugin generates `embeddedFiles`).
///
/// The HTML pages name the other files under `/page/VERSION/`, VERSION
/// a hash of every file: a build's files never change under that name,
/// so a browser keeps them (`immutable`) and opens the page again without
/// asking for its twenty-odd modules; the next build's pages name new ones.
enum PageFiles {
    /// The file's text, its content type and its entity tag, by file name.
    static func file(named name: String) -> (text: String, contentType: String, tag: String)? {
        byName[name].map { ($0.text, contentType(of: name), $0.tag) }
    }

    /// What this build's files go by: a hash of all of them.
    static let version: String = {
        let tags = embeddedFiles.map { tag(of: $0.text) }.sorted().joined()
        return String(tag(of: tags).dropFirst().dropLast())
    }()

    /// `path` without a version segment: `/page/VERSION/app.js` → `/page/app.js`.
    static func unversioned(_ path: String) -> String {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0].isEmpty, parts[1] == "page" else { return path }
        return "/page/" + parts[3]
    }

    /// Each file with a tag of its bytes: a browser that has the file asks
    /// again with it and is answered 304, without the file. A page's links
    /// to the others carry the version.
    private static let byName = Dictionary(uniqueKeysWithValues: embeddedFiles.map { file in
        let text = file.fileName.hasSuffix(".html") ? file.text.replacingOccurrences(of: "\"/page/", with: "\"/page/\(version)/") : file.text
        return (file.fileName, (text: text, tag: tag(of: text)))
    })

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
