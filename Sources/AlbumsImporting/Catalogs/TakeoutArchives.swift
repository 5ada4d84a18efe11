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
        return TakeoutArchiveImport(archives: self, index: index, catalog: GoogleTakeout.read(index))
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

    /// The photos extraction writes, or found already there (same size).
    public var photoCount: Int { toExtract.count }

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

    /// What an import extracts: the album folders' photos, and the year
    /// folders' photos among `loose` (those in no album; the year folders'
    /// copies of album photos stay in the archives).
    func toExtract(loose: Set<String>) -> [Member] {
        contents.flatMap { folder, contents in
            GoogleTakeout.isYearFolder(folder, of: self) ? contents.media.values.filter { loose.contains($0.target) } : Array(contents.media.values)
        }
    }

    // TakeoutContents
    var path: String { photosPath ?? extractionFolder }
    func folders() -> [String] { Array(contents.keys) }
    func files(in folder: String) -> TakeoutFolderListing {
        guard let contents = contents[folder] else { return TakeoutFolderListing() }
        return TakeoutFolderListing(media: contents.media.keys.sorted(), sidecars: Set(contents.json.keys).union(contents.otherJSON), others: contents.others)
    }
    func json(_ name: String, in folder: String) -> TakeoutJSON? { contents[folder]?.json[name] }
}
