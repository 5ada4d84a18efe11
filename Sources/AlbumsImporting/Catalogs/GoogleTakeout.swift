import AlbumsImageFacts
import AlbumsPersistence
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
/// no album come into the library in no album (``CatalogImport/loose``).
/// The trash (its folder, and any photo whose sidecar says `trashed`)
/// stays out, counted. A sidecar's `description` becomes its item's
/// caption, and `favorited` its favourite mark; an album's own
/// `description` the album's.
public enum GoogleTakeout {
    /// Reads the unzipped Takeout at `path`.
    ///
    /// - Throws: ``CatalogFailure``.
    public static func read(_ path: String) throws(CatalogFailure) -> CatalogImport {
        let candidates = [path] + photosFolderNames.sorted().flatMap { name in
            [(path as NSString).appendingPathComponent(name), (path as NSString).appendingPathComponent("Takeout/" + name)]
        }
        guard let photos = candidates.first(where: { isPhotosFolder(($0 as NSString).lastPathComponent) && isFolder($0) }) else {
            if !isFolder(path) {
                throw .unreadable(.missing(path: path))
            }
            throw .notACatalog(path: path, kind: "Google Takeout", reason: "it has no 'Google Photos' folder")
        }
        return read(TakeoutFolder(path: photos))
    }

    /// Reads a Takeout's `Google Photos` folder, wherever it is: on disk, or in archives.
    static func read(_ contents: some TakeoutContents) -> CatalogImport {
        let photos = contents.path
        var root = SourceFolder(name: "Google Photos", path: photos, key: "takeout")
        var dates: [String: CaptureDate] = [:]
        var marks: [String: ItemMarks] = [:]
        var inAlbums = Set<String>()
        var yearFolders: [String] = []
        var otherFiles = 0
        var trashed: [String] = []
        for name in contents.folders().sorted(by: { $0.localizedStandardCompare($1) == .orderedAscending }) {
            let folder = (photos as NSString).appendingPathComponent(name)
            let listing = contents.files(in: name)
            let metadata = albumMetadata(among: listing.sidecars, media: listing.media) { contents.json($0, in: name) }
            if isYearFolder(name, hasAlbumMetadata: metadata != nil) {
                yearFolders.append(name)
                continue
            }
            let title = metadata.flatMap { contents.json($0, in: name)?.title }
            var album = SourceFolder(name: title ?? name, path: folder, key: "album/\(name)")
            album.description = metadata.flatMap { contents.json($0, in: name)?.description }
            var sidecars = Sidecars(names: listing.sidecars.subtracting(metadata.map { [$0] } ?? [])) { contents.json($0, in: name) }
            var timed: [(time: Int64?, path: String)] = []
            var thrownAway: [String] = []
            for file in Self.withoutEditedOriginals(listing.media) {
                let path = (folder as NSString).appendingPathComponent(file)
                let sidecar = sidecars.sidecar(for: file).flatMap { contents.json($0, in: name) }
                // A photo its owner put in the trash is marked so in its sidecar, in any album.
                if sidecar?.trashed == true {
                    thrownAway.append(path)
                    continue
                }
                if let time = sidecar?.takenTime, let date = CaptureDate(utcSeconds: time) { dates[path] = date }
                if let written = sidecar?.marks { marks[path] = written }
                timed.append((sidecar?.takenTime, path))
                inAlbums.insert(file)
            }
            trashed += thrownAway
            // The trash itself is no album: by its name where it has no album's
            // metadata.json (an album of that name has one), or, in any language,
            // a folder whose every photo was thrown away.
            if (Self.trashNames.contains(name) && title == nil) || (timed.isEmpty && !thrownAway.isEmpty) {
                trashed += timed.map(\.path)
                continue
            }
            otherFiles += listing.others
            album.photos = timed.sorted { ($0.time ?? .max, $0.path) < ($1.time ?? .max, $1.path) }.map(\.path)
            root.folders.append(album)
        }
        // The year folders hold every photo again: those no album holds are the library's own.
        var loose: [String] = []
        var taken = Set<String>()
        for name in yearFolders {
            let listing = contents.files(in: name)
            var sidecars = Sidecars(names: listing.sidecars) { contents.json($0, in: name) }
            for file in Self.withoutEditedOriginals(listing.media) where !inAlbums.contains(file) && taken.insert(file).inserted {
                let sidecar = sidecars.sidecar(for: file).flatMap { contents.json($0, in: name) }
                let path = ((photos as NSString).appendingPathComponent(name) as NSString).appendingPathComponent(file)
                if sidecar?.trashed == true {
                    trashed.append(path)
                    continue
                }
                if let time = sidecar?.takenTime, let date = CaptureDate(utcSeconds: time) { dates[path] = date }
                if let written = sidecar?.marks { marks[path] = written }
                loose.append(path)
            }
        }
        return CatalogImport(
            kind: .takeout, catalog: photos, root: root, orderInferred: true,
            notCarried: [("photos in the trash", trashed.count), ("other files", otherFiles)], capturedAt: dates, loose: loose,
            setAside: trashed, marks: marks)
    }

    /// The names Takeout gives an album's own JSON file, in the languages
    /// it is known in (NFC).
    static let albumMetadataNames = ["metadata.json", "Metadaten.json", "métadonnées.json", "metadatos.json", "metadati.json", "metadados.json"]

    /// An album folder's own JSON file (its title, its date): by its name
    /// in a language Takeout is known to use, else, in any language, the
    /// JSON file that says nothing of a photo (no `photoTakenTime`, no
    /// `creationTime`, as every photo's sidecar has) and is titled by no
    /// file of the folder.
    static func albumMetadata(among names: Set<String>, media: [String], read: (String) -> TakeoutJSON?) -> String? {
        let normalized = Dictionary(names.map { ($0.precomposedStringWithCanonicalMapping, $0) }) { first, _ in first }
        if let known = albumMetadataNames.lazy.compactMap({ normalized[$0] }).first { return known }
        let files = Set(media)
        return names.sorted().first { name in
            guard let json = read(name), !json.describesAPhoto, json.title != nil else { return false }
            return json.title.map { !files.contains($0) } ?? false
        }
    }

    /// The words Takeout adds to an edited copy's name (`IMG_1-edited.jpg`),
    /// in the languages it is known in.
    static let editedSuffixes = ["edited", "bearbeitet", "modifié", "editado", "modificato", "bewerkt", "redigeret", "muokattu"]

    /// The parts of an edited copy's name (`IMG_1-bearbeitet.jpg`): the
    /// original's name (`IMG_1.jpg`); nil for any other name.
    static func originalName(ofEdited file: String) -> String? {
        guard let dash = file.lastIndex(of: "-") else { return nil }
        let rest = file[file.index(after: dash)...]
        let dot = rest.lastIndex(of: ".") ?? rest.endIndex
        guard editedSuffixes.contains(String(rest[..<dot]).precomposedStringWithCanonicalMapping) else { return nil }
        return String(file[..<dash]) + String(rest[dot...])
    }

    /// `files` with each edited copy's original left out: they are one
    /// photo, shown as its owner last saw it (edited). The original is the
    /// file of the same name before its extension, which an edit may change
    /// (`IMG_2.png` saved as `IMG_2-edited.jpg`).
    static func withoutEditedOriginals(_ files: [String]) -> [String] {
        func stem(_ name: String) -> String { (name as NSString).deletingPathExtension }
        let originals = Set(files.compactMap(originalName(ofEdited:)).map(stem))
        return files.filter { originalName(ofEdited: $0) != nil || !originals.contains(stem($0)) }
    }

    /// The names Takeout gives the trash's folder in the languages it is known in.
    static let trashNames: Set<String> = ["Trash", "Bin", "Papierkorb", "Corbeille", "Papelera", "Cestino", "Lixeira", "Prullenbak"]

    /// What Takeout names the Google Photos folder, in the languages it is
    /// known in (NFC): a German, Spanish or Dutch export's is "Google Fotos".
    static let photosFolderNames: Set<String> = ["Google Photos", "Google Fotos", "Google Foto", "Google Zdjęcia", "Google Фото", "Google フォト"]

    /// Whether a folder named `name` is a Takeout's Google Photos folder.
    static func isPhotosFolder(_ name: String) -> Bool {
        photosFolderNames.contains(name.precomposedStringWithCanonicalMapping)
    }

    /// Whether the folder `name` of `contents` is one of the year folders.
    static func isYearFolder(_ name: String, of contents: some TakeoutContents) -> Bool {
        let listing = contents.files(in: name)
        return isYearFolder(name, hasAlbumMetadata: albumMetadata(among: listing.sidecars, media: listing.media) { contents.json($0, in: name) } != nil)
    }

    /// Whether `name` is one of the year folders that hold every photo
    /// again: `Photos from 2024`, and in other languages (`Fotos von 2024`,
    /// `Photos de 2024`, `Foto del 2024`) a name ending in a year, which an
    /// album's folder is only when its own JSON file (`hasAlbumMetadata`) says it is one.
    static func isYearFolder(_ name: String, hasAlbumMetadata: Bool = false) -> Bool {
        if name.wholeMatch(of: /Photos from [0-9]{4}/) != nil { return true }
        return !hasAlbumMetadata && name.wholeMatch(of: /[^0-9]+ (1[89]|2[0-9])[0-9]{2}/) != nil
    }

    static func isFolder(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}

/// What the Takeout reader reads of a `Google Photos` folder: its folders,
/// their files, and what the JSON files among them say.
protocol TakeoutContents {
    /// Where the `Google Photos` folder is (or will be, once extracted) on this machine.
    var path: String { get }
    /// The names of the album and year folders.
    func folders() -> [String]
    /// A folder's photos (told by their first bytes), the names of its JSON
    /// files, and how many other files it holds.
    func files(in folder: String) -> TakeoutFolderListing
    /// What the JSON file `name` in `folder` says; nil if it is not JSON.
    func json(_ name: String, in folder: String) -> TakeoutJSON?
}

/// One folder's files, as ``TakeoutContents`` lists them.
struct TakeoutFolderListing {
    var media: [String] = []
    var sidecars: Set<String> = []
    /// Files that are neither photos, videos nor JSON.
    var others = 0
}

/// What albums reads of a Takeout JSON file: an album's `metadata.json` or a photo's sidecar.
struct TakeoutJSON: Hashable, Sendable {
    /// The album's or the photo's `title`.
    var title: String?
    /// The sidecar's `photoTakenTime.timestamp`: seconds since 1970, UTC.
    var takenTime: Int64?
    /// Whether the sidecar says the photo is in the trash (`"trashed": true`).
    var trashed = false
    /// The photo's (or the album's) description, as its owner wrote it in Google Photos.
    var description: String?
    /// Whether its owner starred it (`"favorited": true`).
    var favorited = false
    /// Whether it is a photo's sidecar (it says when the photo was taken
    /// or made), not an album's own file.
    var describesAPhoto = false

    /// What its owner wrote on the photo: its description and star, as a caption and a favourite.
    var marks: ItemMarks { ItemMarks(foundTitle: nil, caption: description, isFavorite: favorited, rating: nil, keywords: []) }

    init?(_ data: Data) {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        let title = (object["title"] as? String)?.trimmingCharacters(in: .whitespacesAndNewlines)
        self.title = title?.isEmpty == false ? title : nil
        trashed = object["trashed"] as? Bool == true
        description = object["description"] as? String
        favorited = object["favorited"] as? Bool == true
        describesAPhoto = object["photoTakenTime"] != nil || object["creationTime"] != nil
        if let taken = object["photoTakenTime"] as? [String: Any] {
            let seconds = (taken["timestamp"] as? String).flatMap { Int64($0) } ?? (taken["timestamp"] as? NSNumber)?.int64Value
            // "0" is Takeout's word for a photo it knows no date of, not 1 January 1970.
            takenTime = seconds == 0 ? nil : seconds
        }
    }
}

/// An unzipped Takeout's `Google Photos` folder, read from disk.
struct TakeoutFolder: TakeoutContents {
    let path: String

    func folders() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [])
            .filter { !$0.hasPrefix(".") && GoogleTakeout.isFolder((path as NSString).appendingPathComponent($0)) }
    }

    func files(in folder: String) -> TakeoutFolderListing {
        let folder = (path as NSString).appendingPathComponent(folder)
        var listing = TakeoutFolderListing()
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        // A Live Photo's motion (IMG_1.MP4 beside IMG_1.HEIC) is read with its still.
        let motions = LivePhotoMotion.motions(among: names, in: folder)
        for name in names where !name.hasPrefix(".") && !motions.contains(name) {
            let path = (folder as NSString).appendingPathComponent(name)
            if name.lowercased().hasSuffix(".json") {
                listing.sidecars.insert(name)
            } else {
                switch MediaKind(ofFileAt: path) {
                case .photo, .video: listing.media.append(name)
                case .cameraRaw, nil: if !GoogleTakeout.isFolder(path) { listing.others += 1 }
                }
            }
        }
        listing.media.sort()
        return listing
    }

    func json(_ name: String, in folder: String) -> TakeoutJSON? {
        let file = ((path as NSString).appendingPathComponent(folder) as NSString).appendingPathComponent(name)
        return FileManager.default.contents(atPath: file).flatMap(TakeoutJSON.init)
    }
}

/// A folder's JSON sidecars, and how Takeout names them.
struct Sidecars {
    /// The folder's `.json` files, by name.
    let names: Set<String>
    /// What a JSON file of the folder says, by its name.
    let read: (String) -> TakeoutJSON?
    /// Sidecars by the `title` inside them: read once, the first time a photo's name does not find its sidecar.
    private var byTitle: [String: String]?

    init(names: Set<String>, read: @escaping (String) -> TakeoutJSON?) {
        self.names = names
        self.read = read
    }

    /// How long Takeout lets a sidecar's name be, `.json` included.
    private static let longestName = 51

    /// The name of `file`'s sidecar: by the names Takeout gives sidecars, else by the title inside one.
    mutating func sidecar(for file: String) -> String? {
        var stem = file
        var number = ""
        // A duplicate's number moves to the sidecar's end: IMG_1(1).jpg → IMG_1.jpg(1).json.
        if let match = file.firstMatch(of: /^(.*)(\([0-9]+\))(\.[^.]*)$/) {
            stem = String(match.1) + String(match.3)
            number = String(match.2)
        }
        for suffix in [".supplemental-metadata", ""] {
            let full = stem + suffix
            let room = Self.longestName - ".json".count - number.count
            for name in [full + number + ".json", String(full.prefix(room)) + number + ".json"] where names.contains(name) {
                return name
            }
        }
        // Edited copies share the original's sidecar.
        if let original = GoogleTakeout.originalName(ofEdited: file) {
            return sidecar(for: original)
        }
        if byTitle == nil {
            var titles: [String: String] = [:]
            for name in names.sorted() {
                if let title = read(name)?.title, titles[title] == nil { titles[title] = name }
            }
            byTitle = titles
        }
        return byTitle?[file]
    }
}
