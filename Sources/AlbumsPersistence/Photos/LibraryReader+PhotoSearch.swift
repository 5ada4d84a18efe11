import Foundation
import GRDB

extension LibraryReader {
    /// The photos that match `search`, newest first by capture date (those
    /// that record none last, the last imported first), a page of at most
    /// `limit` at a time, starting after `cursor`.
    ///
    /// Only photos the principal can see are found, and each is matched
    /// and named as they see it: its name as they see it, the albums they
    /// can see. A search for photos in an album they cannot see finds that
    /// album not found; photos "in no album" are, for a person, those in no
    /// album they can see (none: they see photos only through albums).
    ///
    /// For whoever sees every photo, the order walks an index
    /// (`photo_by_time`), so a page costs what it holds, plus the photos the
    /// filters pass over on the way. For a person or a link who sees at
    /// most ``seenFirstLimit`` items, the search starts from the photos
    /// their albums hold and sorts those: it costs what they can see, and
    /// nothing hidden is walked, so its time tells nothing of what is hidden.
    ///
    /// - Throws: ``LibraryError/albumNotFound(_:)`` for ``PhotoMembership/inAlbum(_:)`` of an album not seen.
    public func photos(matching search: PhotoSearch, limit: Int = 100, after cursor: PhotoSearchCursor? = nil) throws -> PhotoSearchPage {
        let visible = try visibleAlbumIDs()
        var scope = try scope(seeing: visible)
        var (conditions, arguments, _) = try conditions(of: search, visible: visible, scope: &scope)
        let time = Self.timeKey
        if let cursor {
            conditions.append("(\(time) < ? OR (\(time) = ? AND p.id < ?))")
            arguments += [cursor.time, cursor.time, cursor.id]
        }
        let page = min(max(1, limit), Int.max - 1)  // one more is read, to know whether a next page exists
        let sql = """
            SELECT p.*, \(time) AS time_key FROM \(scope.source)
            \(conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND "))
            ORDER BY \(time) DESC, p.id DESC LIMIT \(page + 1)
            """
        let rows = try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments))
        var found: [FoundPhoto] = []
        for row in rows.prefix(page) {
            let photo = Self.photo(from: row)
            let name = try nameAsSeen(of: photo.id, among: visible) ?? photo.content.originalName
            found.append(FoundPhoto(photo: photo, name: name, albums: try albumNames(holding: photo.id, among: visible)))
        }
        let next = rows.count > page ? rows[page - 1] : nil
        return PhotoSearchPage(photos: found, next: next.map { PhotoSearchCursor(time: $0["time_key"], id: $0["id"]) })
    }

    /// How many photos `search` finds in each month of the timeline, newest
    /// month first: the months of their capture dates, as a timeline's
    /// scrubber shows them, and the month `taken` finds them in. A photo
    /// dated by its year alone counts in that year (`month` is then
    /// `1975`); the photos that record no date come last, as `month` ''.
    ///
    /// What a search starts from few photos (those a person's albums hold,
    /// a name's or words' candidates) is grouped at once. A search of what
    /// items carry (words, marks) and no dates starts from those items: it
    /// reads the items once, where asking each photo of a million for an
    /// item that carries them took 1.5 s (BENCHMARKS.md). Anything else
    /// goes month by month down the time index, which carries every
    /// filtered fact: the newest key below the months counted, then a
    /// count of its month's range. No sort: a GROUP BY of the keys' months
    /// sorted a million of them (2 s); this reads each once.
    ///
    /// - Throws: as ``photos(matching:limit:after:)``.
    public func photoMonths(matching search: PhotoSearch) throws -> [PhotoMonth] {
        let visible = try visibleAlbumIDs()
        var scope = try scope(seeing: visible)
        let (conditions, arguments, photosOfMarkedItems) = try conditions(of: search, visible: visible, scope: &scope)
        let time = Self.timeKey
        if let (source, conditions, arguments) = Self.fewToRead(scope, conditions, arguments, photosOfMarkedItems, taken: search.taken) {
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT substr(\(time), 1, 7) AS month, count(*), \(Self.videoSum) FROM \(source)
                    \(conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND "))
                    GROUP BY month ORDER BY month DESC
                    """, arguments: StatementArguments(arguments))
            return rows.map { PhotoMonth(month: $0[0], count: $0[1], videos: $0[2]) }
        }
        let filters = conditions.map { " AND " + $0 }.joined()
        var months: [PhotoMonth] = []
        var below: String?  // keys below this are still to count
        while true {
            // The first time, no bound of its own: a date filter's range is the one the index walks.
            let newest = try String.fetchOne(
                db,
                sql: "SELECT \(time) FROM photo p INDEXED BY photo_by_time WHERE \(below == nil ? "1" : "\(time) < ?")\(filters) ORDER BY \(time) DESC LIMIT 1",
                arguments: StatementArguments((below.map { [$0] } ?? []) + arguments))
            guard let newest else { return months }
            let month = String(newest.prefix(7))
            let end = PhotoMonth(month: month, count: 0).start.time
            // The undated come last, all under the key '': nothing is below them.
            let range = month.isEmpty ? "\(time) = ''" : "\(time) >= ? AND \(time) < ?"
            let counted = try Row.fetchOne(
                db,
                sql: "SELECT count(*), \(Self.videoSum) FROM photo p INDEXED BY photo_by_time WHERE \(range)\(filters)",
                arguments: StatementArguments((month.isEmpty ? [] : [month, end]) + arguments))
            months.append(PhotoMonth(month: month, count: counted?[0] ?? 0, videos: counted?[1] ?? 0))
            if month.isEmpty { return months }
            below = month
        }
    }

    /// How many photos `search` finds, as the principal sees them: counted
    /// from the same start as its months.
    ///
    /// - Throws: as ``photos(matching:limit:after:)``.
    public func photoCount(matching search: PhotoSearch) throws -> Int {
        try Int.fetchOne(try countStatement(of: "count(*)", matching: search)) ?? 0
    }

    /// How many photos `search` finds, and how many of them are videos, in
    /// one walk (the time index holds each photo's media type).
    public func photoAndVideoCount(matching search: PhotoSearch) throws -> (photos: Int, videos: Int) {
        if search.isEmpty, try visibleAlbumIDs() == nil {
            // Every photo, for one who sees them all: SQLite counts the table without walking it, and the videos by their own index.
            let videos = try Int.fetchOne(db, sql: "SELECT count(*) FROM photo WHERE media_type GLOB 'video/?*'") ?? 0
            return (try photoCount(matching: search), videos)
        }
        let row = try Row.fetchOne(try countStatement(of: "count(*), \(Self.videoSum)", matching: search))
        return (row?[0] ?? 0, row?[1] ?? 0)
    }

    /// How many of the photos counted (as `p`) are videos: the time index holds each one's media type.
    private static let videoSum = "coalesce(sum(p.media_type GLOB 'video/?*'), 0)"

    /// The statement that counts what `search` finds with `aggregates` (of the photos as `p`).
    private func countStatement(of aggregates: String, matching search: PhotoSearch) throws -> Statement {
        let visible = try visibleAlbumIDs()
        var scope = try scope(seeing: visible)
        let (conditions, arguments, photosOfMarkedItems) = try conditions(of: search, visible: visible, scope: &scope)
        let (source, counted, countedArguments) =
            Self.fewToRead(scope, conditions, arguments, photosOfMarkedItems, taken: search.taken) ?? (scope.source, conditions, arguments)
        let statement = try db.makeStatement(
            sql: "SELECT \(aggregates) FROM \(source) \(counted.isEmpty ? "" : "WHERE " + counted.joined(separator: " AND "))")
        statement.arguments = StatementArguments(countedArguments)
        return statement
    }

    /// Where a count of every photo a search finds reads fewer photos than
    /// the whole time index holds: the scope's own few, or, for a search
    /// of what items carry with no dates to walk, the photos of those
    /// items (the items read once; their photos looked up by id). Nil: walk
    /// the index. The conditions stay whole, so the count is the same either way.
    private static func fewToRead(
        _ scope: SearchScope, _ conditions: [String], _ arguments: [any DatabaseValueConvertible],
        _ photosOfMarkedItems: (sql: String, arguments: [any DatabaseValueConvertible])?, taken: CaptureRange?
    ) -> (source: String, conditions: [String], arguments: [any DatabaseValueConvertible])? {
        switch scope {
        case .seen, .candidates:
            return (scope.source, conditions, arguments)
        case .everyPhoto:
            guard taken == nil, let items = photosOfMarkedItems else { return nil }
            return ("photo p", ["p.id IN \(items.sql)"] + conditions, items.arguments + arguments)
        }
    }

    /// The key the timeline is ordered by: the capture date, '' for none,
    /// which sorts below every date, so undated photos come last (newest
    /// imported first, by id), in the "month" '' (migration 0020).
    private static let timeKey = "coalesce(p.captured_at, '')"

    /// The most items a person's albums may hold for their searches to start
    /// from them (and sort them) rather than walk the whole time index.
    /// Sorting this many costs about what a page of the walk does; past it,
    /// they walk the index as an admin does. The choice reads only the
    /// counts of albums they see.
    public static let seenFirstLimit = 20_000

    /// Where a search reads photos from.
    private enum SearchScope {
        /// Every photo, down the time index.
        case everyPhoto
        /// Every photo, starting from the few that a name's or words'
        /// trigrams name (a condition `p.id IN …`): the planner's choice.
        case candidates
        /// The photos the asker's albums hold, and nothing else: `list` is their albums as SQL.
        case seen(list: String)

        /// Whether the search may reach any photo of the library (its rights
        /// are then conditions), not only those the asker's albums hold.
        var reachesEveryPhoto: Bool {
            if case .seen = self { return false }
            return true
        }

        /// The `FROM` clause: `p` is the photo.
        var source: String {
            switch self {
            case .everyPhoto: "photo p INDEXED BY photo_by_time"
            case .candidates: "photo p"
            // CROSS JOIN keeps the albums' items the outer loop: the planner may not walk the time index instead.
            case .seen(let list):
                "(SELECT DISTINCT photo_id AS id FROM album_item WHERE album_id IN \(list) AND photo_id IS NOT NULL) seen CROSS JOIN photo p ON p.id = seen.id"
            }
        }
    }

    /// The scope for an asker who sees `visible` albums (nil: all of them).
    private func scope(seeing visible: Set<AlbumID>?) throws -> SearchScope {
        guard let visible else { return .everyPhoto }
        let list = Self.sqlList(visible)
        let items = try Int.fetchOne(db, sql: "SELECT coalesce(sum(item_count), 0) FROM album WHERE id IN \(list)") ?? 0
        return items <= searchStartsFromSeenUpTo ? .seen(list: list) : .everyPhoto
    }

    /// `ids` as a subquery SQLite reads as a list: one JSON array read by json_each.
    private static func sqlList(_ ids: Set<AlbumID>) -> String {
        "(SELECT value FROM json_each('[" + ids.map { String($0.rawValue) }.sorted().joined(separator: ",") + "]'))"
    }

    /// The SQL conditions a search's filters make (with the principal's
    /// rights), their arguments, and where the search should start
    /// (`scope`); with them, when the search asks something of items, the
    /// photos of the items that carry it (``addWordConditions(of:visibleList:scope:to:arguments:)``).
    private func conditions(of search: PhotoSearch, visible: Set<AlbumID>?, scope: inout SearchScope) throws
        -> (conditions: [String], arguments: [any DatabaseValueConvertible], photosOfMarkedItems: (sql: String, arguments: [any DatabaseValueConvertible])?)
    {
        var conditions: [String] = []
        var arguments: [any DatabaseValueConvertible] = []
        // Visible albums: a person sees photos only through them.
        let visibleList = visible.map(Self.sqlList)
        if let visibleList, scope.reachesEveryPhoto {
            conditions.append("EXISTS (SELECT 1 FROM album_item v WHERE v.photo_id = p.id AND v.album_id IN \(visibleList))")
        }
        let time = Self.timeKey
        if let taken = search.taken {
            // Said of the time key as well, which is the capture date where there is one: a range of the index.
            conditions.append("p.captured_at >= ? AND p.captured_at < ? AND \(time) >= ? AND \(time) < ?")
            arguments += [taken.start, taken.end, taken.start, taken.end]
        }
        // No name, camera or lens holds a NUL (no file system allows one in a
        // name), and SQLite's LIKE and FTS5 read a text only up to it.
        if PhotoSearch.TextFilter.allCases.contains(where: { search[text: $0]?.unicodeScalars.contains("\u{0}") == true }) {
            conditions.append("0")
        }
        if let name = search.name?.trimmingCharacters(in: .whitespaces), !name.isEmpty, !name.unicodeScalars.contains("\u{0}") {
            let pattern = "%" + Self.likeEscaped(name) + "%"
            // Starting from what the asker sees, nothing else is asked: how many hidden photos bear the name must not decide the plan.
            if scope.reachesEveryPhoto, let candidates = try nameCandidates(containing: name, pattern: pattern) {
                // Few photos have such a name: start from them, not from the newest photo.
                conditions.append("p.id IN \(candidates.sql)")
                arguments += candidates.arguments
                scope = .candidates
            }
            if let visibleList {
                conditions.append("""
                    EXISTS (SELECT 1 FROM album_item n WHERE n.photo_id = p.id AND n.album_id IN \(visibleList)
                        AND COALESCE(n.file_name, p.original_name) LIKE ? ESCAPE '\\')
                    """)
                arguments.append(pattern)
            } else {
                // The items' own names, found once (few items have one), not asked of every photo.
                conditions.append("(p.original_name LIKE ? ESCAPE '\\' OR p.id IN (SELECT photo_id FROM album_item WHERE file_name LIKE ? ESCAPE '\\'))")
                arguments += [pattern, pattern]
            }
        }
        if let format = search.format {
            let condition = PhotoSearch.mediaTypeCondition(of: format)
            conditions.append(condition.sql)
            arguments.append(condition.argument)
        }
        if let shape = search.shape {
            // As seen: orientations 5–8 turn the stored raster a quarter.
            let width = "(CASE WHEN p.orientation >= 5 THEN p.pixel_height ELSE p.pixel_width END)"
            let height = "(CASE WHEN p.orientation >= 5 THEN p.pixel_width ELSE p.pixel_height END)"
            switch shape {
            case .landscape: conditions.append("\(width) > \(height)")
            case .portrait: conditions.append("\(width) < \(height)")
            case .square: conditions.append("\(width) = \(height)")
            }
        }
        if let megapixels = search.minimumMegapixels {
            conditions.append("p.pixel_width * p.pixel_height >= ?")
            // Held below Int64's limit: a number past any photo's size (or not a number) asks for more pixels than any photo has.
            let pixels = (megapixels * 1_000_000).rounded(.up)
            arguments.append(pixels.isNaN || pixels >= 9e18 ? Int64.max : Int64(max(0, pixels)))
        }
        if let camera = search.camera?.trimmingCharacters(in: .whitespaces), !camera.isEmpty {
            conditions.append("(COALESCE(p.camera_make, '') || ' ' || COALESCE(p.camera_model, '')) LIKE ? ESCAPE '\\'")
            arguments.append("%" + Self.likeEscaped(camera) + "%")
        }
        if let lens = search.lens?.trimmingCharacters(in: .whitespaces), !lens.isEmpty {
            conditions.append("p.lens LIKE ? ESCAPE '\\'")
            arguments.append("%" + Self.likeEscaped(lens) + "%")
        }
        if let hasLocation = search.hasLocation {
            conditions.append("p.has_location = ?")
            arguments.append(hasLocation)
        }
        let photosOfMarkedItems = try addWordConditions(of: search, visibleList: visibleList, scope: &scope, to: &conditions, arguments: &arguments)
        switch search.membership {
        case .inAlbum(let id):
            let album = try album(id)  // not found when not seen
            conditions.append("EXISTS (SELECT 1 FROM album_item m WHERE m.photo_id = p.id AND m.album_id = ?)")
            arguments.append(album.id.rawValue)
        case .inNoAlbum:
            let holders = visibleList.map { "AND m.album_id IN \($0)" } ?? ""
            conditions.append("NOT EXISTS (SELECT 1 FROM album_item m WHERE m.photo_id = p.id \(holders))")
        case nil:
            break
        }
        return (conditions, arguments, photosOfMarkedItems)
    }

    /// The conditions of what is written on items: a photo passes when an
    /// item of it its asker sees carries it (words on an item they cannot
    /// see never count).
    ///
    /// - Returns: The photos of the items that carry the first of them, as
    ///   a subquery with its arguments (nil when the search asks nothing of
    ///   items): every photo the search finds is among them, so a count can
    ///   start from these items rather than ask each photo of the library.
    private func addWordConditions(
        of search: PhotoSearch, visibleList: String?, scope: inout SearchScope, to conditions: inout [String],
        arguments: inout [any DatabaseValueConvertible]
    ) throws -> (sql: String, arguments: [any DatabaseValueConvertible])? {
        var predicates: [(sql: String, arguments: [any DatabaseValueConvertible])] = []
        if let text = search.text?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty, !text.unicodeScalars.contains("\u{0}") {
            let pattern = "%" + Self.likeEscaped(AlbumName.normalized(text)) + "%"
            if scope.reachesEveryPhoto, let candidates = try wordCandidates(containing: text) {
                // Few items carry such words: start from their photos, not from the newest photo.
                conditions.append("p.id IN \(candidates.sql)")
                arguments += candidates.arguments
                scope = .candidates
            }
            // Each keyword, not the JSON array that keeps them: its quotes and commas are no words.
            predicates.append((
                """
                (w.title LIKE ? ESCAPE '\\' OR w.caption LIKE ? ESCAPE '\\'
                 OR (w.keywords IS NOT NULL AND EXISTS (SELECT 1 FROM json_each(w.keywords) k WHERE k.value LIKE ? ESCAPE '\\')))
                """, [pattern, pattern, pattern]))
        }
        if let keyword = search.keyword?.trimmingCharacters(in: .whitespacesAndNewlines), !keyword.isEmpty {
            predicates.append((
                "w.keywords IS NOT NULL AND EXISTS (SELECT 1 FROM json_each(w.keywords) k WHERE k.value = ? COLLATE NOCASE)", [AlbumName.normalized(keyword)]
            ))
        }
        if search.isFavorite == true { predicates.append(("w.is_favorite = 1", [])) }
        if let stars = search.minimumRating { predicates.append(("w.rating >= ?", [max(1, stars)])) }
        if search.isRejected == true { predicates.append(("w.rating = -1", [])) }
        let seen = visibleList.map { " AND w.album_id IN \($0)" } ?? ""
        for predicate in predicates {
            conditions.append("EXISTS (SELECT 1 FROM album_item w WHERE w.photo_id = p.id AND \(predicate.sql)\(seen))")
            arguments += predicate.arguments
        }
        return predicates.first.map { ("(SELECT w.photo_id FROM album_item w WHERE \($0.sql)\(seen))", $0.arguments) }
    }

    /// The photos an item of which might carry `text` in its words, when
    /// few items do (at most ``nameCandidateLimit``); nil when more do, or
    /// when `text` is shorter than a trigram. A superset, as name candidates are.
    private func wordCandidates(containing text: String) throws -> (sql: String, arguments: [any DatabaseValueConvertible])? {
        guard text.count >= 3 else { return nil }
        let normalized = AlbumName.normalized(text)
        var phrases = [normalized]
        // The index holds the keywords as their JSON array, where a quote or a backslash is escaped: a keyword is also looked for as written there.
        if let array = ItemMarks.keywordsJSON(of: [normalized]), case let escaped = String(array.dropFirst(2).dropLast(2)), escaped != normalized {
            phrases.append(escaped)
        }
        // FTS5 phrases: the text in double quotes, its own quotes doubled.
        let phrase = phrases.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }.joined(separator: " OR ")
        let sql = "(SELECT i.photo_id FROM item_words JOIN album_item i ON i.id = item_words.rowid WHERE item_words MATCH ?)"
        let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM (SELECT 1 FROM \(sql) LIMIT \(max(0, searchStartsFromCandidatesUpTo + 1)))", arguments: [phrase]) ?? 0
        return count <= searchStartsFromCandidatesUpTo ? (sql, [phrase]) : nil
    }

    /// How many photos a name search may start from before it is cheaper to
    /// walk the photos newest first (matches that common fill a page soon).
    static let nameCandidateLimit = 2_000

    /// The photos whose name might contain `name`, as a subquery, when there
    /// are at most ``nameCandidateLimit`` of them; nil when there are more,
    /// or when `name` is shorter than a trigram. A superset of the matches:
    /// the trigram index folds more than LIKE does, and items' own names
    /// (few) are all taken; the search's LIKE decides.
    private func nameCandidates(containing name: String, pattern: String) throws -> (sql: String, arguments: [any DatabaseValueConvertible])? {
        guard name.count >= 3 else { return nil }
        // An FTS5 phrase: the text in double quotes, its own quotes doubled; no operator is read in it.
        let phrase = "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        let sql = """
            (SELECT rowid FROM photo_name WHERE photo_name MATCH ?
             UNION SELECT photo_id FROM album_item INDEXED BY album_item_named WHERE file_name IS NOT NULL AND file_name LIKE ? ESCAPE '\\')
            """
        let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM (SELECT 1 FROM \(sql) LIMIT \(max(0, searchStartsFromCandidatesUpTo + 1)))", arguments: [phrase, pattern]) ?? 0
        return count <= searchStartsFromCandidatesUpTo ? (sql, [phrase, pattern]) : nil
    }

    /// The names of the albums holding `photo`, among `visible` (nil: all), by name.
    private func albumNames(holding photo: PhotoID, among visible: Set<AlbumID>?) throws -> [String] {
        try Row.fetchAll(
            db, cachedSQL: "SELECT DISTINCT a.id, a.name FROM album_item i JOIN album a ON a.id = i.album_id WHERE i.photo_id = ? ORDER BY a.name",
            arguments: [photo.rawValue]
        ).filter { visible?.contains(AlbumID(rawValue: $0[0])) ?? true }.map { $0[1] }
    }

    /// `text` with LIKE's wildcards and the escape character taken literally.
    private static func likeEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_")
    }
}
