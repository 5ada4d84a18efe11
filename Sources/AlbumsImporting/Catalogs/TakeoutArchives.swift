import AlbumsImageFacts
import AlbumsPersistence
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A Google Takeout still in the archives Google sends it in
/// (`takeout-20261126T101010Z-001.zip`, `-002.zip`, …, or `.tgz`), read
/// without unzipping them.
///
/// An album's photos are often spread over several parts, so every part
/// of an export is read together: naming one part names its siblings
/// beside it. The library refers to originals on disk, so the photos of
/// the albums are extracted, once, into a folder (the one the archives are
/// in, unless another is chosen), where unzipping them would have put
/// them: `Takeout/Google Photos/<album>/<file>`. Sidecars and the year
/// folders' photos stay in the archives.
public struct TakeoutArchives: Sendable {
    /// The archives, each export's parts in order.
    public let archives: [String]

    /// Whether `path` names an archive this reads: `.zip`, `.tgz` or `.tar.gz`.
    public static func isArchive(_ path: String) -> Bool {
        let name = path.lowercased()
        return name.hasSuffix(".zip") || name.hasSuffix(".tgz") || name.hasSuffix(".tar.gz")
    }

    /// The archives at `paths`, with the other parts of the same exports beside them.
    ///
    /// - Throws: ``CatalogFailure`` for a path that is not there or not an archive.
    public init(_ paths: [String]) throws(CatalogFailure) {
        var archives: [String] = []
        for path in paths.map({ URL(fileURLWithPath: $0).standardizedFileURL.path }) {
            guard FileManager.default.fileExists(atPath: path) else { throw .unreadable(.missing(path: path)) }
            guard Self.isArchive(path) else {
                throw .notACatalog(path: path, kind: "Google Takeout", reason: "it is not a .zip, .tgz or .tar.gz archive")
            }
            for part in Self.parts(of: path) where !archives.contains(part) { archives.append(part) }
        }
        self.archives = archives
    }

    /// `path` and its export's other parts beside it (`takeout-…-001.zip`, `-002.zip`, …), in order.
    static func parts(of path: String) -> [String] {
        let folder = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        guard let match = name.wholeMatch(of: /(.+)-[0-9]{3}(\.zip|\.tgz|\.tar\.gz)/) else { return [path] }
        let (stem, suffix) = (String(match.1), String(match.2))
        let siblings = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter {
            $0.hasPrefix(stem + "-") && $0.hasSuffix(suffix) && $0.dropFirst(stem.count + 1).dropLast(suffix.count).allSatisfy(\.isNumber)
        }
        return siblings.sorted().map { (folder as NSString).appendingPathComponent($0) }
    }

    /// Where the photos go unless another folder is chosen: beside the first archive.
    public var defaultExtractionFolder: String { (archives[0] as NSString).deletingLastPathComponent }

    /// Reads the archives' albums, as ``GoogleTakeout`` reads an unzipped
    /// Takeout, with each photo's path where extraction into `folder` puts
    /// it. Reads only; ``TakeoutArchiveImport/extract(progress:)`` writes.
    ///
    /// - Throws: ``CatalogFailure`` for an archive that cannot be read, or
    ///   archives with no `Google Photos` folder.
    public func read(extractingInto folder: String) throws(CatalogFailure) -> TakeoutArchiveImport {
        var index = TakeoutArchiveIndex(extractionFolder: URL(fileURLWithPath: folder).standardizedFileURL.path)
        for (number, archive) in archives.enumerated() {
            try Self.reading(archive) { file in
                try file.forEachFile { entry in try index.add(entry, of: number) }
            }
        }
        guard index.photosPath != nil else {
            throw .notACatalog(path: archives[0], kind: "Google Takeout", reason: "its archives have no 'Google Photos' folder")
        }
        try findLivePhotos(in: &index)
        return TakeoutArchiveImport(archives: self, index: index, catalog: GoogleTakeout.read(index))
    }

    /// Which movies are Live Photos' motions is known only from the bytes of
    /// the still and the movie: those that may be pairs by their names are
    /// read again, whole, in a second pass over the archives that hold them
    /// (none when no movie has a photo's name), so that what the import says
    /// it would do, before extracting anything, counts each Live Photo once.
    private func findLivePhotos(in index: inout TakeoutArchiveIndex) throws(CatalogFailure) {
        let wanted = index.possibleLivePhotos()
        guard !wanted.isEmpty else { return }
        var facts = TakeoutArchiveIndex.PairFacts()
        for (number, archive) in archives.enumerated() {
            guard let entries = wanted[number] else { continue }
            try Self.reading(archive) { file in
                try file.forEachFile { entry in
                    guard let member = entries[entry.path], entry.size <= TakeoutArchiveIndex.largestPairedFile else { return }
                    let bytes = try entry.read(limit: Int(entry.size))
                    if LivePhotoMotion.extensions.contains((member.name as NSString).pathExtension) {
                        facts.movies[member.folder, default: [:]][member.name] = try? VideoHeaderReader.read(bytes)
                    } else {
                        facts.stills[member.folder, default: [:]][member.name] = (try? ImageHeaderReader.read(bytes))?.contentIdentifier
                    }
                }
            }
        }
        index.pair(facts)
    }

    /// Opens `archive` and runs `body` on it, any failure said as the archive's.
    static func reading(_ archive: String, _ body: (any ArchiveFile) throws -> Void) throws(CatalogFailure) {
        do {
            let file: any ArchiveFile = archive.lowercased().hasSuffix(".zip") ? try ZIPArchiveFile(path: archive) : TarGzipArchiveFile(path: archive)
            try body(file)
        } catch let failure as CatalogFailure {
            throw failure
        } catch let damage as ArchiveDamage {
            throw .unreadable(.unreadable(path: archive, detail: damage.description))
        } catch {
            throw .unreadable(.unreadable(path: archive, detail: "not a readable archive (\(error))"))
        }
    }
}

/// A Takeout read from its archives: the albums to import, and the photos
/// to extract before their loads can read them.
public struct TakeoutArchiveImport: Sendable {
    /// The archives read.
    public let archives: TakeoutArchives
    let index: TakeoutArchiveIndex
    /// The albums, with each photo's path where extraction puts it.
    public let catalog: CatalogImport

    /// Where the photos are extracted: the `Google Photos` folder.
    public var extractedFolder: String { index.photosPath ?? index.extractionFolder }

    /// Whether the photos in no album are imported (and so extracted) too.
    public var includesLoose = true

    /// The photos and videos extraction writes, or found already there
    /// (same size): a Live Photo's motion, extracted beside its still, is
    /// not one of them.
    public var photoCount: Int { toExtract.count - index.motionCount(among: toExtract) }

    private var toExtract: [TakeoutArchiveIndex.Member] { index.toExtract(loose: includesLoose ? Set(catalog.loose) : []) }

    /// What an extraction did.
    public struct Extraction: Sendable, Hashable {
        /// Photos written.
        public var extracted = 0
        /// Photos already there from an earlier extraction (or unzipping), same size.
        public var alreadyThere = 0
    }

    /// Extracts the albums' photos that are not there yet, each written
    /// whole or not at all (to a partial file renamed when complete), so an
    /// extraction stopped midway is finished by the next.
    ///
    /// - Throws: ``CatalogFailure`` when an archive cannot be read or a photo cannot be written.
    public func extract(progress: (_ done: Int, _ total: Int) -> Void = { _, _ in }) throws(CatalogFailure) -> Extraction {
        var extraction = Extraction()
        var wanted: [Int: [String: TakeoutArchiveIndex.Member]] = [:]
        let all = toExtract
        for member in all {
            let target = member.target
            if let size = (try? FileManager.default.attributesOfItem(atPath: target)[.size]) as? NSNumber, size.uint64Value == member.size {
                extraction.alreadyThere += 1
                continue
            }
            wanted[member.archive, default: [:]][member.entry] = member
        }
        let total = all.count
        progress(extraction.alreadyThere, total)
        for (number, archive) in archives.archives.enumerated() {
            guard let members = wanted[number] else { continue }
            try TakeoutArchives.reading(archive) { file in
                try file.forEachFile { entry in
                    guard let member = members[entry.path] else { return }
                    let partial = member.target + ".albums-partial"
                    do {
                        try FileManager.default.createDirectory(atPath: (member.target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                        try? FileManager.default.removeItem(atPath: partial)
                        try entry.extract(to: partial)
                        // Whole or not at all: a file only ever appears under its name complete.
                        guard rename(partial, member.target) == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: member.target]) }
                    } catch let damage as ArchiveDamage {
                        try? FileManager.default.removeItem(atPath: partial)
                        throw CatalogFailure.unreadable(.unreadable(path: archive, detail: damage.description))
                    } catch {
                        try? FileManager.default.removeItem(atPath: partial)
                        throw CatalogFailure.extraction(path: member.target, detail: LibraryError.describeFileError(error))
                    }
                    extraction.extracted += 1
                    progress(extraction.extracted + extraction.alreadyThere, total)
                }
            }
        }
        return extraction
    }
}

/// What the archives hold under `Google Photos`, folder by folder, read in one pass.
struct TakeoutArchiveIndex: Sendable, TakeoutContents {
    /// A photo in an archive: where it is, and where it goes.
    struct Member: Sendable, Hashable {
        let archive: Int
        let entry: String
        let size: UInt64
        /// Where extraction writes it: under ``photosPath``, where the catalog plans its load.
        let target: String
    }

    struct Folder: Sendable {
        var media: [String: Member] = [:]
        /// Each Live Photo's motion among ``media``, by its still's name: extracted with its still, never listed.
        var motions: [String: String] = [:]
        var json: [String: TakeoutJSON] = [:]
        /// JSON files that could not be read as JSON: still sidecar names.
        var otherJSON: Set<String> = []
        var others = 0
    }

    let extractionFolder: String
    /// The `Google Photos` folder where extraction puts it; nil until an entry under one is seen.
    private(set) var photosPath: String?
    private(set) var contents: [String: Folder] = [:]

    init(extractionFolder: String) {
        self.extractionFolder = extractionFolder
    }

    /// The largest JSON file read: sidecars and album metadata are a few kilobytes.
    private static let largestJSON = 1 << 20

    mutating func add(_ entry: ArchiveEntry, of archive: Int) throws {
        let components = entry.path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        // Entries that would land outside the folder (an absolute path, "..") are never followed.
        guard let top = components.firstIndex(where: GoogleTakeout.isPhotosFolder), !components.contains(".."), !entry.path.hasPrefix("/"),
            components.count == top + 3, !components[top + 1].hasPrefix("."), !components[top + 2].hasPrefix(".")
        else { return }
        // Every photo goes under the first Google Photos folder met, where the catalog plans to load it from.
        let photosPath = self.photosPath ?? (extractionFolder as NSString).appendingPathComponent(components[...top].joined(separator: "/"))
        self.photosPath = photosPath
        let (folder, name) = (components[top + 1], components[top + 2])
        if name.lowercased().hasSuffix(".json") {
            if entry.size <= Self.largestJSON, let json = TakeoutJSON(try entry.read(limit: Self.largestJSON)) {
                contents[folder, default: Folder()].json[name] = json
            } else {
                contents[folder, default: Folder()].otherJSON.insert(name)
            }
        } else {
            switch MediaKind(prefix: try entry.read(limit: ImageSignature.length), name: name) {
            case .photo, .video:
                let target = ((photosPath as NSString).appendingPathComponent(folder) as NSString).appendingPathComponent(name)
                contents[folder, default: Folder()].media[name] = Member(archive: archive, entry: entry.path, size: entry.size, target: target)
            case .cameraRaw, nil: contents[folder, default: Folder()].others += 1
            }
        }
    }

    /// The largest file read whole to tell a Live Photo's motion: a motion
    /// runs a few seconds, a few megabytes; a still larger than this is
    /// read as carrying no identifier, and a movie is no motion.
    static let largestPairedFile: UInt64 = 64 << 20

    /// A file read again for its facts: its folder and name.
    struct PairMember: Sendable {
        let folder: String
        let name: String
    }

    /// What the second pass read: each still's content identifier, each movie's facts, by folder and name.
    struct PairFacts {
        var stills: [String: [String: String?]] = [:]
        var movies: [String: [String: VideoFacts?]] = [:]
    }

    /// The files that may be a still and its motion by their names, by
    /// archive and entry: what ``TakeoutArchives`` reads again.
    func possibleLivePhotos() -> [Int: [String: PairMember]] {
        var wanted: [Int: [String: PairMember]] = [:]
        for (folder, contents) in contents {
            for name in LivePhotoMotion.possiblePairs(among: Array(contents.media.keys)) {
                guard let member = contents.media[name] else { continue }
                wanted[member.archive, default: [:]][member.entry] = PairMember(folder: folder, name: name)
            }
        }
        return wanted
    }

    /// Marks each still's motion, from what the second pass read, by the rules a folder on disk is read by.
    mutating func pair(_ facts: PairFacts) {
        for (folder, stills) in facts.stills {
            let movies = (facts.movies[folder] ?? [:]).compactMapValues { $0 }
            for (still, identifier) in stills.sorted(by: { $0.key < $1.key }) {
                if let motion = LivePhotoMotion.motion(ofStill: still, identifier: identifier, among: movies) {
                    contents[folder]?.motions[still] = motion
                }
            }
        }
    }

    /// How many of `members` are a Live Photo's motion.
    func motionCount(among members: [Member]) -> Int {
        let motions = Set(contents.flatMap { _, folder in folder.motions.values.compactMap { folder.media[$0]?.target } })
        return members.filter { motions.contains($0.target) }.count
    }

    /// What an import extracts: the album folders' photos, and the year
    /// folders' photos among `loose` (those in no album; the year folders'
    /// copies of album photos stay in the archives).
    func toExtract(loose: Set<String>) -> [Member] {
        contents.flatMap { folder, contents in
            guard GoogleTakeout.isYearFolder(folder, of: self) else { return Array(contents.media.values) }
            // A loose Live Photo's motion goes with its still.
            let motions = contents.motions.compactMap { still, motion in contents.media[still].map { loose.contains($0.target) } == true ? motion : nil }
            return contents.media.filter { name, member in loose.contains(member.target) || motions.contains(name) }.map(\.value)
        }
    }

    // TakeoutContents
    var path: String { photosPath ?? extractionFolder }
    func folders() -> [String] { Array(contents.keys) }
    func files(in folder: String) -> TakeoutFolderListing {
        guard let contents = contents[folder] else { return TakeoutFolderListing() }
        // A Live Photo's motion is read with its still: extracted, never listed.
        let motions = Set(contents.motions.values)
        return TakeoutFolderListing(
            media: contents.media.keys.filter { !motions.contains($0) }.sorted(), sidecars: Set(contents.json.keys).union(contents.otherJSON),
            others: contents.others)
    }
    func json(_ name: String, in folder: String) -> TakeoutJSON? { contents[folder]?.json[name] }
}
