import GRDB

/// One way in which a library file breaks the rules this module keeps.
public struct InvariantViolation: Hashable, Sendable, CustomStringConvertible {
    /// What kind of rule is broken, as a stable `snake_case` code.
    public let code: String
    /// The facts, in one line.
    public let message: String

    /// A broken invariant: its stable code and what is wrong, in words.
    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }
}

/// What `albums check` reports: broken invariants, and notes on normal
/// states that want attention (stale placeholders).
public struct IntegrityReport: Hashable, Sendable {
    /// Every invariant found broken.
    public let violations: [InvariantViolation]
    /// What was checked and is worth saying, though not wrong.
    public let notes: [String]

    /// Whether no invariant is broken.
    public var isSound: Bool { violations.isEmpty }
}

extension LibraryReader {
    /// SQLite's own check of the file (`quick_check`, or `integrity_check`
    /// when `thorough`), then every invariant of ``invariantViolations()``,
    /// and stale placeholders as notes.
    public func integrityReport(thorough: Bool = false) throws -> IntegrityReport {
        var violations = try String.fetchAll(db, sql: thorough ? "PRAGMA integrity_check" : "PRAGMA quick_check")
            .filter { $0 != "ok" }.map { InvariantViolation(code: "integrity", message: $0) }
        violations += try invariantViolations()
        let notes = try pendingPlaceholders().filter(\.isStale).map {
            "stale placeholder \($0.id) at \($0.albumName):\($0.index + 1), loading \($0.load.source), whose load can be resumed or cancelled"
        }
        return IntegrityReport(violations: violations, notes: notes)
    }

    /// Every broken invariant of the library: counters that disagree with
    /// the rows, segments that are overfull, order keys out of
    /// range, items in another album than their segment, dangling
    /// references; in the tree, folders inside themselves, and an album and
    /// a folder of one parent sharing a key or a name.
    ///
    /// Schema constraints (unique names, a photo once per album, …) are kept
    /// by SQLite itself; this finds what only this module's code keeps.
    /// The ids of the folders reached from the top level: every folder, unless some are in a cycle.
    static let foldersReachedFromTheTop = """
        WITH RECURSIVE reached(id) AS (
            SELECT id FROM folder WHERE parent_id IS NULL
            UNION SELECT f.id FROM folder f JOIN reached r ON f.parent_id = r.id
        ) SELECT id FROM reached
        """

    /// The photos made apart (``Photo/isApart``) whose bytes no photo
    /// not made apart has: what an import of those bytes would join is gone.
    static let photosApartAlone = """
        SELECT a.id, a.sha256 FROM photo a WHERE a.is_apart = 1
            AND NOT EXISTS (SELECT 1 FROM photo p WHERE p.sha256 = a.sha256 AND p.is_apart = 0)
        """

    /// Each album whose count of videos (kept by migration 0029's triggers)
    /// is not the videos it holds: its id, name, count and `videos`.
    static let albumVideoCountsAmiss = """
        SELECT a.id, a.name, a.video_count,
            (SELECT count(*) FROM album_item i JOIN photo p ON p.id = i.photo_id WHERE i.album_id = a.id AND p.media_type GLOB 'video/?*') AS videos
        FROM album a WHERE videos != a.video_count
        """

    /// Every invariant the library breaks; none in a sound library (what `albums check` reports).
    public func invariantViolations() throws -> [InvariantViolation] {
        var violations: [InvariantViolation] = []
        func collect(_ code: String, _ sql: String, _ message: (Row) -> String) throws {
            for row in try Row.fetchAll(db, sql: sql) {
                violations.append(InvariantViolation(code: code, message: message(row)))
            }
        }
        try collect(
            "album_count_mismatch",
            """
            SELECT a.name, a.item_count, a.placeholder_count,
                (SELECT count(*) FROM album_item i WHERE i.album_id = a.id) AS items,
                (SELECT count(*) FROM album_item i WHERE i.album_id = a.id AND i.photo_id IS NULL) AS placeholders
            FROM album a WHERE items != a.item_count OR placeholders != a.placeholder_count
            """
        ) { "album '\($0["name"] as String)' counts \($0["item_count"] as Int) items and \($0["placeholder_count"] as Int) placeholders but holds \($0["items"] as Int) and \($0["placeholders"] as Int)" }
        try collect("album_video_count_mismatch", Self.albumVideoCountsAmiss) {
            "album '\($0["name"] as String)' counts \($0["video_count"] as Int) videos but holds \($0["videos"] as Int)"
        }
        try collect(
            "segment_count_mismatch",
            """
            SELECT s.id, s.item_count, (SELECT count(*) FROM album_item i WHERE i.segment_id = s.id) AS items
            FROM album_segment s WHERE items != s.item_count
            """
        ) { "segment \($0["id"] as Int64) counts \($0["item_count"] as Int) items but holds \($0["items"] as Int)" }
        // An empty segment is no violation: a failed load leaves its segment
        // for the history to find (LibraryWriter.executeRemoval); repair drops it.
        try collect(
            "overfull_segment", "SELECT id, item_count FROM album_segment WHERE item_count > \(AlbumOrder.maximumSegmentItemCount)"
        ) { "segment \($0["id"] as Int64) holds \($0["item_count"] as Int) items, more than \(AlbumOrder.maximumSegmentItemCount)" }
        try collect(
            "item_album_mismatch",
            "SELECT i.id, i.album_id, s.album_id AS segment_album FROM album_item i JOIN album_segment s ON s.id = i.segment_id WHERE s.album_id != i.album_id"
        ) { "item \($0["id"] as Int64) is in album \($0["album_id"] as Int64) but its segment in album \($0["segment_album"] as Int64)" }
        try collect(
            "order_key_out_of_range", "SELECT id, order_key FROM album_item WHERE order_key >= \(OrderKeySpace.items.limit)"
        ) { "item \($0["id"] as Int64) has order key \($0["order_key"] as Int64), not below \(OrderKeySpace.items.limit)" }
        try collect(
            "order_key_out_of_range",
            """
            SELECT 'segment' AS kind, id, order_key FROM album_segment WHERE order_key >= \(OrderKeySpace.segments.limit)
            UNION ALL SELECT 'album', id, order_key FROM album WHERE order_key >= \(OrderKeySpace.segments.limit)
            UNION ALL SELECT 'folder', id, order_key FROM folder WHERE order_key >= \(OrderKeySpace.segments.limit)
            """
        ) { "\($0["kind"] as String) \($0["id"] as Int64) has order key \($0["order_key"] as Int64), not below \(OrderKeySpace.segments.limit)" }
        try collect("folder_cycle", "SELECT id, name FROM folder WHERE id NOT IN (\(Self.foldersReachedFromTheTop))") {
            "folder \($0["id"] as Int64) '\($0["name"] as String)' is inside itself: it cannot be reached from the top level"
        }
        try collect(
            "sibling_key_shared",
            "SELECT a.name AS album, f.name AS folder FROM album a JOIN folder f ON coalesce(f.parent_id, 0) = coalesce(a.parent_id, 0) AND f.order_key = a.order_key"
        ) { "album '\($0["album"] as String)' and folder '\($0["folder"] as String)' share an order key in their folder" }
        try collect(
            "sibling_name_shared",
            "SELECT a.name FROM album a JOIN folder f ON coalesce(f.parent_id, 0) = coalesce(a.parent_id, 0) AND f.name = a.name"
        ) { "an album and a folder in the same folder are both named '\($0["name"] as String)'" }
        try collect(
            "smart_album_holds_items",
            "SELECT a.name, (SELECT count(*) FROM album_item i WHERE i.album_id = a.id) AS items FROM album a WHERE a.search IS NOT NULL AND items > 0"
        ) { "smart album '\($0["name"] as String)' holds \($0["items"] as Int) items; a smart album holds none" }
        try collect(
            "photo_apart_alone",
            """
            \(Self.photosApartAlone)
            """
        ) { "photo id:\($0["id"] as Int64) was made apart from the photo of its bytes, and there is none" }
        for row in try Row.fetchAll(db, sql: "SELECT name, search FROM album WHERE search IS NOT NULL") where PhotoSearch(storedJSON: row["search"]) == nil {
            violations.append(InvariantViolation(code: "smart_album_search_unreadable", message: "smart album '\(row["name"] as String)' keeps a search albums cannot read: it shows nothing"))
        }
        try collect(
            "cover_not_in_album",
            """
            SELECT a.name, a.cover_photo_id FROM album a
            WHERE a.cover_photo_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM album_item i WHERE i.album_id = a.id AND i.photo_id = a.cover_photo_id)
            """
        ) { "album '\($0["name"] as String)' has photo id:\($0["cover_photo_id"] as Int64) as its cover, which it does not hold" }
        try collect("dangling_reference", "PRAGMA foreign_key_check") {
            "a row of \($0[0] as String) refers to a missing row of \($0[2] as String)"
        }
        return violations
    }
}
