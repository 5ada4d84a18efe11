import AlbumsImageFacts
import Foundation

/// A Google Takeout of Google Photos, unzipped (the `Takeout` folder, or its
/// `Google Photos` folder): each album folder becomes an album named by its
/// `metadata.json` title (the folder's name where there is none), inside a
/// folder "Google Photos".
///
/// Takeout keeps no order, so each album is in capture-time order (the
/// report says the order was inferred), from each photo's JSON sidecar
/// (`photoTakenTime`), which also gives the capture time of a photo whose
/// file records none. Sidecars are found as Takeout names them: the
/// photo's name plus `.json` or `.supplemental-metadata.json`, cut to 51
/// characters, with a duplicate's number moved to the end
/// (`IMG_1(1).jpg` → `IMG_1.jpg(1).json`), else by the `title` inside.
///
/// The year folders (`Photos from 2024`) hold every photo again; those in
/// no album are counted, not imported.
public enum GoogleTakeout {
    /// Reads the Takeout at `path`.
    ///
    /// - Throws: ``CatalogFailure``.
    public static func read(_ path: String) throws(CatalogFailure) -> CatalogImport {
        let manager = FileManager.default
        let candidates = [path, (path as NSString).appendingPathComponent("Google Photos"), (path as NSString).appendingPathComponent("Takeout/Google Photos")]
        guard let photos = candidates.first(where: { ($0 as NSString).lastPathComponent == "Google Photos" && isFolder($0) }) else {
            if !isFolder(path) {
                throw .unreadable(.missing(path: path))
            }
            throw .notACatalog(path: path, kind: "Google Takeout", reason: "it has no 'Google Photos' folder (archives are read once unzipped)")
        }
        let folders = ((try? manager.contentsOfDirectory(atPath: photos)) ?? []).filter { !$0.hasPrefix(".") }
            .sorted { $0.localizedStandardCompare($1) == .orderedAscending }
        var root = SourceFolder(name: "Google Photos", path: photos, key: "takeout")
        var dates: [String: CaptureDate] = [:]
        var inAlbums = Set<String>()
        var yearFolders: [String] = []
        var videos = 0
        for name in folders {
            let folder = (photos as NSString).appendingPathComponent(name)
            guard isFolder(folder) else { continue }
            if name.wholeMatch(of: /Photos from \d{4}/) != nil {
                yearFolders.append(folder)
                continue
            }
            let title = metadataTitle(in: folder) ?? name
            var album = SourceFolder(name: title, path: folder, key: "album/\(name)")
            let (media, names, others) = contents(of: folder)
            videos += others
            var sidecars = Sidecars(folder: folder, names: names)
            var timed: [(time: Int64?, path: String)] = []
            for file in media {
                let path = (folder as NSString).appendingPathComponent(file)
                let time = sidecars.sidecar(for: file).flatMap { Sidecars.takenTime(in: $0) }
                if let time, let date = CaptureDate(utcSeconds: time) { dates[path] = date }
                timed.append((time, path))
                inAlbums.insert(file)
            }
            album.photos = timed.sorted { ($0.time ?? .max, $0.path) < ($1.time ?? .max, $1.path) }.map(\.path)
            root.folders.append(album)
        }
        var noAlbum = 0
        for folder in yearFolders {
            let (media, _, others) = contents(of: folder)
            videos += others
            noAlbum += media.filter { !inAlbums.contains($0) }.count
        }
        return CatalogImport(
            kind: .takeout, catalog: photos, root: root, orderInferred: true,
            notCarried: [("photos in no album", noAlbum), ("videos and other files", videos)], capturedAt: dates)
    }

    private static func isFolder(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// A folder's photos (told by their first bytes), its JSON files, and how many other files it holds.
    private static func contents(of folder: String) -> (media: [String], sidecars: Set<String>, others: Int) {
        var media: [String] = []
        var sidecars = Set<String>()
        var others = 0
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where !name.hasPrefix(".") {
            let path = (folder as NSString).appendingPathComponent(name)
            if name.lowercased().hasSuffix(".json") {
                sidecars.insert(name)
            } else if ImageSignature(ofFileAt: path) != nil {
                media.append(name)
            } else if !isFolder(path) {
                others += 1
            }
        }
        return (media.sorted(), sidecars, others)
    }

    /// The album's title in its `metadata.json`.
    private static func metadataTitle(in folder: String) -> String? {
        let path = (folder as NSString).appendingPathComponent("metadata.json")
        guard let data = FileManager.default.contents(atPath: path),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let title = (object["title"] as? String)?.trimmingCharacters(in: .whitespacesAndNewlines), !title.isEmpty
        else { return nil }
        return title
    }

}

/// A folder's JSON sidecars, and how Takeout names them.
struct Sidecars {
    let folder: String
    /// The folder's `.json` files, by name.
    let names: Set<String>
    /// Sidecars by the `title` inside them: read once, the first time a photo's name does not find its sidecar.
    private var byTitle: [String: String]?

    init(folder: String, names: Set<String>) {
        self.folder = folder
        self.names = names
    }

    /// How long Takeout lets a sidecar's name be, `.json` included.
    private static let longestName = 51

    /// The sidecar of `file`: by the names Takeout gives sidecars, else by the title inside one.
    mutating func sidecar(for file: String) -> String? {
        var stem = file
        var number = ""
        // A duplicate's number moves to the sidecar's end: IMG_1(1).jpg → IMG_1.jpg(1).json.
        if let match = file.firstMatch(of: /^(.*)(\(\d+\))(\.[^.]*)$/) {
            stem = String(match.1) + String(match.3)
            number = String(match.2)
        }
        for suffix in [".supplemental-metadata", ""] {
            let full = stem + suffix
            let room = Self.longestName - ".json".count - number.count
            for name in [full + number + ".json", String(full.prefix(room)) + number + ".json"] where names.contains(name) {
                return (folder as NSString).appendingPathComponent(name)
            }
        }
        // Edited copies share the original's sidecar.
        if let match = file.firstMatch(of: /^(.*)-edited(\.[^.]*)$/) {
            return sidecar(for: String(match.1) + String(match.2))
        }
        if byTitle == nil {
            var titles: [String: String] = [:]
            for name in names.sorted() where name != "metadata.json" {
                let path = (folder as NSString).appendingPathComponent(name)
                if let title = Self.object(at: path)?["title"] as? String, titles[title] == nil { titles[title] = path }
            }
            byTitle = titles
        }
        return byTitle?[file]
    }

    /// The sidecar's `photoTakenTime.timestamp`: seconds since 1970, UTC.
    static func takenTime(in sidecar: String) -> Int64? {
        guard let taken = object(at: sidecar)?["photoTakenTime"] as? [String: Any] else { return nil }
        if let text = taken["timestamp"] as? String { return Int64(text) }
        return (taken["timestamp"] as? NSNumber)?.int64Value
    }

    private static func object(at path: String) -> [String: Any]? {
        FileManager.default.contents(atPath: path).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
    }
}

extension CaptureDate {
    /// The capture date of an instant given in seconds since 1970, in UTC (`2024-07-14T12:00:00+00:00`).
    init?(utcSeconds: Int64) {
        // ISO 8601 in UTC ends in "Z"; a capture date writes the offset.
        let text = Date(timeIntervalSince1970: TimeInterval(utcSeconds)).formatted(Date.ISO8601FormatStyle())
        self.init(text.dropLast() + "+00:00")
    }
}
