import AlbumsImageFacts
import AlbumsPersistence
import Foundation

/// Shotwell's catalog (`~/.local/share/shotwell/data/photo.db`): its events
/// become albums, newest first as Shotwell lists them, each in
/// exposure-time order (Shotwell's own), inside a folder "Shotwell";
/// photos in no event go to an album "No Event", as Shotwell shows them.
/// An unnamed event is named by its day or span of days, as Shotwell
/// shows it. Hidden, trashed and rejected photos stay
/// out, counted. Each photo's title, comment, rating and tags come along
/// on its item, and an event's comment becomes its album's description.
///
/// Read from the tables Shotwell creates (`src/db/PhotoTable.vala` and
/// `EventTable.vala` in its sources): `PhotoTable (id, filename,
/// exposure_time, event_id, …)` and `EventTable (id, name, …)`, whose
/// columns have grown over the years (ratings, titles, edits); only the
/// ones every version has are needed.
public enum ShotwellCatalog {
    /// Reads the catalog at `path`, its originals' paths mapped by `map`.
    ///
    /// - Throws: ``CatalogFailure``.
    public static func read(_ path: String, map: PathMap = .none) throws(CatalogFailure) -> CatalogImport {
        try CatalogFailure.reading(path) { file in try read(file, map: map) }
    }

    /// An unnamed event's name, as Shotwell names it by its dates: its
    /// day (`2024-07-15`), or the span of days its photos were taken over
    /// (`2024-07-15 – 2024-07-17`), in ISO form rather than Shotwell's
    /// words of the computer's language.
    private static func dateName(from first: Int64?, to last: Int64?, day: DateFormatter) -> String? {
        guard let first, let last else { return nil }
        let (start, end) = (day.string(from: Date(timeIntervalSince1970: TimeInterval(first))), day.string(from: Date(timeIntervalSince1970: TimeInterval(last))))
        return start == end ? start : "\(start) – \(end)"
    }

    /// `PhotoTable.flags` bits (`LibraryPhoto` in Shotwell's `src/Photo.vala`).
    private static let hiddenFlag = 0x1
    private static let trashFlag = 0x4
    /// `PhotoTable.rating` of a rejected photo (Shotwell's `Rating.REJECTED`).
    private static let rejected = -1

    private static func read(_ file: ForeignDatabaseFile, map: PathMap) throws -> CatalogImport {
        let columns = try file.columns(
            requiring: ["PhotoTable": ["id", "filename", "exposure_time", "event_id"], "EventTable": ["id", "name"]], of: "Shotwell")
        // Every event, and the names of those that have one.
        var known = Set<Int64>()
        var names: [Int64: String] = [:]
        var comments: [Int64: String] = [:]
        let comment = (columns["EventTable"] ?? []).contains("comment") ? "comment" : "NULL"
        for row in try file.rows("SELECT id, name, \(comment) AS comment FROM EventTable") {
            guard let id = row.integer("id") else { continue }
            known.insert(id)
            if let name = row.text("name")?.trimmingCharacters(in: .whitespacesAndNewlines), !name.isEmpty { names[id] = name }
            comments[id] = row.text("comment")
        }

        struct Photo {
            let path: String
            let time: Int64?
        }
        // What Shotwell shows in an event: not hidden (LibraryPhoto's flag
        // 0x1), not in its trash (0x4), not rejected (rating -1, which its
        // default filter leaves out). What it hides stays out, counted.
        let photoColumns = columns["PhotoTable"] ?? []
        var shown: [String] = []
        if photoColumns.contains("flags") { shown.append("(coalesce(flags, 0) & \(hiddenFlag | trashFlag)) = 0") }
        if photoColumns.contains("rating") { shown.append("coalesce(rating, 0) != \(rejected)") }
        // A raw file Shotwell imported with its camera's JPEG (RAW+JPEG) keeps
        // that JPEG as a backing photo (develop_camera_id): it comes as that JPEG,
        // since albums reads no raw file.
        var pairs: [String: String] = [:]
        // Only a raw photo has a camera-developed backing (Shotwell's RawDeveloper.CAMERA).
        if photoColumns.contains("develop_camera_id"), (columns["BackingPhotoTable"] ?? []).isSuperset(of: ["id", "filepath"]) {
            try file.forEachRow("""
                SELECT p.filename AS raw, b.filepath AS jpeg FROM PhotoTable p JOIN BackingPhotoTable b ON b.id = p.develop_camera_id
                WHERE p.develop_camera_id >= 0
                """) { row in
                if let raw = row.text("raw"), let jpeg = row.text("jpeg"), !jpeg.isEmpty { pairs[raw] = jpeg }
            }
        }
        func local(_ filename: String) -> String { map.local(pairs[filename] ?? filename) }
        var events: [Int64: [Photo]] = [:]
        try file.forEachRow("SELECT filename, exposure_time, event_id FROM PhotoTable\(shown.isEmpty ? "" : " WHERE " + shown.joined(separator: " AND "))") { row in
            guard let filename = row.text("filename") else { return }
            let event = row.integer("event_id").flatMap { known.contains($0) ? $0 : nil } ?? -1
            // 0 is Shotwell's "unknown"; a time before 1970 is negative, and a time.
            let time = row.integer("exposure_time").flatMap { $0 != 0 ? $0 : nil }
            events[event, default: []].append(Photo(path: local(filename), time: time))
        }
        var setAside: [String] = []
        if !shown.isEmpty {
            try file.forEachRow("SELECT filename FROM PhotoTable WHERE NOT (\(shown.joined(separator: " AND "))) ORDER BY id") { row in
                if let filename = row.text("filename") { setAside.append(local(filename)) }
            }
        }
        // Videos stand in their events beside the photos (VideoTable, src/db/VideoTable.vala),
        // shown and hidden by the same flags and rating.
        let videoColumns = columns["VideoTable"] ?? []
        if videoColumns.isSuperset(of: ["filename", "event_id"]) {
            var shownVideos: [String] = []
            if videoColumns.contains("flags") { shownVideos.append("(coalesce(flags, 0) & \(hiddenFlag | trashFlag)) = 0") }
            if videoColumns.contains("rating") { shownVideos.append("coalesce(rating, 0) != \(rejected)") }
            let exposure = videoColumns.contains("exposure_time") ? "exposure_time" : "NULL"
            let condition = shownVideos.isEmpty ? "1" : shownVideos.joined(separator: " AND ")
            try file.forEachRow("SELECT filename, \(exposure) AS exposure_time, event_id, (\(condition)) AS shown FROM VideoTable ORDER BY id") { row in
                guard let filename = row.text("filename") else { return }
                guard row.integer("shown") == 1 else {
                    setAside.append(map.local(filename))
                    return
                }
                let event = row.integer("event_id").flatMap { known.contains($0) ? $0 : nil } ?? -1
                let time = row.integer("exposure_time").flatMap { $0 != 0 ? $0 : nil }
                events[event, default: []].append(Photo(path: map.local(filename), time: time))
            }
        }
        // How Shotwell shows each photo: its orientation (EXIF's numbers), which
        // a turn made in Shotwell changes in the catalog, not in the file (unless
        // its "write metadata to files" is on).
        var orientations: [String: PhotoOrientation] = [:]
        if photoColumns.contains("orientation") {
            try file.forEachRow("SELECT filename, orientation FROM PhotoTable WHERE orientation BETWEEN 1 AND 8") { row in
                if let filename = row.text("filename"), let value = row.integer("orientation"), let orientation = PhotoOrientation(rawValue: Int(value)) {
                    orientations[local(filename)] = orientation
                }
            }
        }
        let marks = try Self.marks(file, photoColumns: photoColumns, videoColumns: videoColumns, tags: columns["TagTable"] ?? [], local: local)
        // Shotwell's order: by exposure time, photos without one first; ties by file name.
        func precedes(_ a: Photo, _ b: Photo) -> Bool {
            (a.time ?? .min, a.path) < (b.time ?? .min, b.path)
        }
        let day = DateFormatter()
        day.locale = Locale(identifier: "en_US_POSIX")
        day.dateFormat = "yyyy-MM-dd"
        var albums: [(first: Int64?, folder: SourceFolder)] = []
        for (event, photos) in events {
            let ordered = photos.sorted(by: precedes)
            let times = ordered.compactMap(\.time)
            var album = SourceFolder(
                name: event == -1 ? "No Event" : names[event] ?? Self.dateName(from: times.min(), to: times.max(), day: day) ?? "Event \(event)",
                path: event == -1 ? "photos in no event" : "event \(event)", key: event == -1 ? "no-event" : "event/\(event)")
            album.photos = ordered.map(\.path)
            album.description = comments[event]
            albums.append((event == -1 ? nil : times.min(), album))
        }
        // As Shotwell's Events list shows them by default: newest first (its
        // events-sort-ascending setting is off); events with no time, then
        // the photos in no event, last.
        var root = SourceFolder(name: "Shotwell", path: file.path, key: "catalog")
        root.folders = albums.sorted { a, b in
            let (x, y) = (a.folder.key == "no-event" ? Int64.min : a.first ?? Int64.min + 1, b.folder.key == "no-event" ? Int64.min : b.first ?? Int64.min + 1)
            return x != y ? x > y : a.folder.key < b.folder.key
        }.map(\.folder)
        let notCarried: [(what: String, count: Int)] = [
            try file.counted("photos in the trash", "SELECT count(*) AS n FROM PhotoTable WHERE (flags & \(trashFlag)) != 0", needs: "PhotoTable", ["flags"], in: columns),
            try file.counted(
                "hidden photos", "SELECT count(*) AS n FROM PhotoTable WHERE (flags & \(trashFlag)) = 0 AND (flags & \(hiddenFlag)) != 0",
                needs: "PhotoTable", ["flags"], in: columns),
            try file.counted(
                "rejected photos", "SELECT count(*) AS n FROM PhotoTable WHERE (coalesce(flags, 0) & \(hiddenFlag | trashFlag)) = 0 AND rating = \(rejected)",
                needs: "PhotoTable", ["flags", "rating"], in: columns),
            // Shotwell keeps a photo's edits as a key file, a group per kind (src/Photo.vala).
            try file.counted(
                "crops", "SELECT count(*) AS n FROM PhotoTable WHERE instr(transformations, '[crop]') > 0", needs: "PhotoTable", ["transformations"], in: columns),
            try file.counted(
                "straightenings", "SELECT count(*) AS n FROM PhotoTable WHERE instr(transformations, '[straighten]') > 0", needs: "PhotoTable",
                ["transformations"], in: columns),
            try file.counted(
                "colour adjustments", "SELECT count(*) AS n FROM PhotoTable WHERE instr(transformations, '[adjustments]') > 0", needs: "PhotoTable",
                ["transformations"], in: columns),
            try file.counted(
                "hidden, trashed or rejected videos",
                "SELECT count(*) AS n FROM VideoTable WHERE (coalesce(flags, 0) & \(hiddenFlag | trashFlag)) != 0 OR coalesce(rating, 0) = \(rejected)",
                needs: "VideoTable", ["flags", "rating"], in: columns),
            try file.counted(
                "red-eye fixes", "SELECT count(*) AS n FROM PhotoTable WHERE instr(transformations, '[redeye]') > 0", needs: "PhotoTable",
                ["transformations"], in: columns),
        ].compactMap { $0 }
        return CatalogImport(
            kind: .shotwell, catalog: file.path, root: root, orderInferred: false, notCarried: notCarried, orientations: orientations, setAside: setAside,
            marks: marks)
    }

    /// What people wrote on each photo and video in Shotwell, by path: its title and
    /// comment, its rating (1–5, -1 rejected) and its tags. A tag lists its
    /// photos (`TagTable.photo_id_list`: `thumb` and the id in 16 hex digits,
    /// comma-ended; a video's are `video-…`); a nested tag is named with
    /// its parents (`/Trips/Lisbon`), and is its last part here.
    private static func marks(
        _ file: ForeignDatabaseFile, photoColumns: Set<String>, videoColumns: Set<String>, tags tagColumns: Set<String>, local: (String) -> String
    ) throws -> [String: ItemMarks] {
        var tagged: [Int64: [String]] = [:]
        var taggedVideos: [Int64: [String]] = [:]
        if tagColumns.isSuperset(of: ["name", "photo_id_list"]) {
            try file.forEachRow("SELECT name, photo_id_list FROM TagTable ORDER BY id") { row in
                guard let name = row.text("name"), let list = row.text("photo_id_list") else { return }
                let leaf = name.split(separator: "/").last.map(String.init) ?? name
                for entry in list.split(separator: ",") {
                    if entry.hasPrefix("thumb"), let id = Int64(entry.dropFirst(5), radix: 16) { tagged[id, default: []].append(leaf) }
                    if entry.hasPrefix("video-"), let id = Int64(entry.dropFirst(6), radix: 16) { taggedVideos[id, default: []].append(leaf) }
                }
            }
        }
        func column(_ name: String) -> String { photoColumns.contains(name) ? name : "NULL" }
        var marks: [String: ItemMarks] = [:]
        try file.forEachRow("SELECT id, filename, \(column("title")) AS title, \(column("comment")) AS comment, \(column("rating")) AS rating FROM PhotoTable") { row in
            guard let id = row.integer("id"), let filename = row.text("filename") else { return }
            let rating = row.integer("rating").map(Int.init)
            let found = ItemMarks(foundTitle: row.text("title"), caption: row.text("comment"), rating: rating, keywords: tagged[id] ?? [])
            if !found.isEmpty { marks[local(filename)] = found }
        }
        guard videoColumns.isSuperset(of: ["id", "filename"]) else { return marks }
        func videoColumn(_ name: String) -> String { videoColumns.contains(name) ? name : "NULL" }
        try file.forEachRow(
            "SELECT id, filename, \(videoColumn("title")) AS title, \(videoColumn("comment")) AS comment, \(videoColumn("rating")) AS rating FROM VideoTable"
        ) { row in
            guard let id = row.integer("id"), let filename = row.text("filename") else { return }
            let found = ItemMarks(
                foundTitle: row.text("title"), caption: row.text("comment"), rating: row.integer("rating").map(Int.init), keywords: taggedVideos[id] ?? [])
            if !found.isEmpty { marks[local(filename)] = found }
        }
        return marks
    }
}
