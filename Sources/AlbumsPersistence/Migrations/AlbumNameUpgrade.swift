import GRDB

/// The Swift half of migration 0004: albums named before names had to look
/// like what they are get a name that does (NFC; bidirectional controls
/// removed; "Untitled album" for an invisible name; "id (album)" for `id`),
/// made unique with " (2)", " (3)", … Their contents and places stay; the
/// revision grows, as for any rename; a note says what was renamed.
enum AlbumNameUpgrade {
    static let migrationVersion = 4

    static func run(_ db: Database) throws {
        let albums = try Row.fetchAll(db, sql: "SELECT id, name FROM album ORDER BY order_key").map { (id: $0[0] as Int64, name: $0[1] as String) }
        var taken = Set<String>()
        var renames: [(id: Int64, old: String, new: String)] = []
        // Names already valid keep theirs; the others are renamed around them.
        var invalid: [(id: Int64, name: String)] = []
        for album in albums {
            if isNFC(album.name), (try? AlbumName.validate(album.name)) != nil, !taken.contains(album.name) {
                taken.insert(album.name)
            } else {
                invalid.append(album)
            }
        }
        for album in invalid {
            let candidate = cleaned(album.name)
            var name = candidate
            var number = 2
            while taken.contains(name) {
                name = "\(candidate) (\(number))"
                number += 1
            }
            taken.insert(name)
            renames.append((album.id, album.name, name))
        }
        // A new name never equals an old invalid one (new names are NFC,
        // visible, without controls, not "id"; SQLite compares bytes), so
        // the renames cannot collide with each other.
        for rename in renames {
            try db.execute(sql: "UPDATE album SET name = ?, revision = revision + 1 WHERE id = ?", arguments: [rename.new, rename.id])
            try db.execute(
                sql: "INSERT INTO upgrade_note (note) VALUES (?)",
                arguments: ["renamed album \(LibraryError.quoted(rename.old)) to \(LibraryError.quoted(rename.new)): \(reason(rename.old))"])
        }
    }

    /// Whether `name` is stored in NFC. Swift's == would say yes for any
    /// canonically equivalent form: compare the scalars.
    private static func isNFC(_ name: String) -> Bool {
        AlbumName.normalized(name).unicodeScalars.elementsEqual(name.unicodeScalars)
    }

    /// The name with what made it invalid taken out.
    private static func cleaned(_ name: String) -> String {
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: AlbumName.normalized(name).unicodeScalars.filter { !$0.properties.isBidiControl && !$0.isControlCharacter })
        let cleaned = String(scalars)
        if cleaned.unicodeScalars.allSatisfy(\.isInvisible) { return "Untitled album" }
        if cleaned == "id" { return "id (album)" }
        return String(cleaned.prefix(AlbumName.maximumLength - 6))
    }

    private static func reason(_ name: String) -> String {
        do {
            try AlbumName.validate(AlbumName.normalized(name))
            return isNFC(name) ? "another album has the same name" : "names are now stored in Unicode NFC, and another album looks the same"
        } catch {
            if case .invalidAlbumName(_, let reason) = error { return reason }
            return "\(error)"
        }
    }
}
