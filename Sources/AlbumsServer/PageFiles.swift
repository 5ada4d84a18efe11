/// The page's files, embedded at build time from the `Page` folder (the
/// EmbedPage plugin generates `embeddedFiles`), each named by its path
/// there: a folder per page (`organizer/`, `share/`, `signin/`) and
/// `common/` for what they share; the organizer's by layer.
///
/// The HTML pages name the other files under `/page/VERSION/`, VERSION
/// a hash of every file: a build's files never change under that name,
/// so a browser keeps them (`immutable`) and opens the page again without
/// asking for its twenty-odd modules; the next build's pages name new ones.
enum PageFiles {
    /// The file's text, its content type and its entity tag, by its path in the page (`organizer/app.js`).
    static func file(named name: String) -> (text: String, contentType: String, tag: String)? {
        byName[name].map { ($0.text, contentType(of: name), $0.tag) }
    }

    /// What this build's files go by: a hash of all of them.
    static let version: String = version(of: embeddedFiles.map(\.text))

    /// The folders of the pages anyone may open without signing in, and of
    /// what they share with the organizer: the gate lets strangers have
    /// these alone, by folder, so a new module in one needs no word to it.
    static let publicFolders = ["common/", "share/", "signin/"]

    /// Whether `name` is in one of ``publicFolders``.
    static func isPublic(_ name: String) -> Bool {
        publicFolders.contains { name.hasPrefix($0) }
    }

    /// What the public pages name their files by: a hash of those files
    /// alone. A stranger learns from it nothing they could not fetch, and
    /// nothing of the exact build (the organizer's files, which a hash of
    /// all files would tell apart).
    static let publicVersion: String = version(of: embeddedFiles.filter { isPublic($0.fileName) }.map(\.text))

    /// Whether `name` asked under `version` never changes under that name.
    static func isVersioned(_ name: String, under version: String) -> Bool {
        version == Self.version || (version == publicVersion && isPublic(name))
    }

    private static func version(of texts: [String]) -> String {
        String(tag(of: texts.map { tag(of: $0) }.sorted().joined()).dropFirst().dropLast())
    }

    /// `path` without a version segment: `/page/VERSION/organizer/app.js` →
    /// `/page/organizer/app.js`. A version is a first segment that is none of
    /// the page's own folders or files.
    static func unversioned(_ path: String) -> String {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 4, parts[0].isEmpty, parts[1] == "page", !topLevelNames.contains(String(parts[2])) else { return path }
        return "/page/" + parts[3...].joined(separator: "/")
    }

    /// The page's folders and files at its top: `common`, `organizer`, ….
    private static let topLevelNames = Set(embeddedFiles.map { String($0.fileName.split(separator: "/").first ?? "") })

    /// Each file with a tag of its bytes: a browser that has the file asks
    /// again with it and is answered 304, without the file. A page's links
    /// to the others carry the version.
    private static let byName = Dictionary(uniqueKeysWithValues: embeddedFiles.map { file in
        let named = isPublic(file.fileName) ? publicVersion : version
        let text = file.fileName.hasSuffix(".html") ? file.text.replacingOccurrences(of: "\"/page/", with: "\"/page/\(named)/") : file.text
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
