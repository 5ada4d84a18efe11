import AlbumsImageFacts
import AlbumsPersistence
import Foundation

/// What an import of another organizer's catalog brings in: its albums and
/// folders as a tree (see ``TreeImport``), each album's photos in that
/// organizer's order, and what the catalog holds that albums does not carry.
public struct CatalogImport: Sendable {
    /// The organizer.
    public let kind: CatalogKind
    /// What the library remembers the imports of this catalog by: its kind
    /// and its absolute path (`shotwell:/home/ana/.local/share/shotwell/data/photo.db`).
    public let source: String
    /// The albums and folders, in the organizer's order.
    public private(set) var root: SourceFolder
    /// Whether the order was inferred (from capture times) where the catalog keeps none.
    public let orderInferred: Bool
    /// What the catalog holds that is not carried across, counted: "ratings", "tags", …
    public let notCarried: [(what: String, count: Int)]
    /// Capture dates the catalog knows, by photo path: a photo whose file records none takes its catalog's.
    public let capturedAt: [String: CaptureDate]
    /// How the organizer showed each photo, by path, where it keeps that in
    /// its catalog (a turn made there, not written into the file): the
    /// photo is shown so.
    public let orientations: [String: PhotoOrientation]
    /// The photos in no album (a Takeout's year folders, a Photos library's
    /// photos no album holds), by path: they come into the library in no
    /// album, as they stood in the organizer, unless the import is of albums only.
    public private(set) var loose: [String]
    /// The photos the organizer hid or its owner threw away (hidden,
    /// trashed, rejected), by path: left out of the albums, brought in
    /// only on request (``SetAsideImport``).
    public let setAside: [String]
    /// The folders the catalog keeps its originals under, as they lie here
    /// (after the path map); empty where the catalog names none.
    public let roots: [String]
    /// Why the organizer itself may not have a photo's file where it says,
    /// by path ("kept only in iCloud"), for the photos where it knows.
    public let whyMissing: [String: MissingOriginal]
    /// What people wrote on each photo in the organizer (titles, captions,
    /// favourites, ratings, keywords), by path: its item carries them, and
    /// what the file itself carries fills what the catalog leaves empty.
    public let marks: [String: ItemMarks]

    /// The contents of the catalog at `catalog` (a file or a folder), as a reader found them.
    public init(
        kind: CatalogKind, catalog: String, root: SourceFolder, orderInferred: Bool, notCarried: [(what: String, count: Int)],
        capturedAt: [String: CaptureDate] = [:], orientations: [String: PhotoOrientation] = [:], loose: [String] = [], setAside: [String] = [],
        roots: [String] = [],
        whyMissing: [String: MissingOriginal] = [:], marks: [String: ItemMarks] = [:]
    ) {
        self.kind = kind
        source = "\(kind.rawValue):\(URL(fileURLWithPath: catalog).standardizedFileURL.path)"
        // A still and its motion are one item: the catalog's listing of the motion goes.
        self.root = root.withoutLivePhotoMotions()
        self.orderInferred = orderInferred
        self.notCarried = notCarried.filter { $0.count > 0 }
        self.capturedAt = capturedAt
        self.orientations = orientations
        var seen = Set<String>()
        self.loose = LivePhotoMotion.withoutMotions(loose).filter { seen.insert($0).inserted }
        self.setAside = setAside.filter { seen.insert($0).inserted }
        self.roots = roots
        self.whyMissing = whyMissing
        self.marks = marks.filter { !$0.value.isEmpty }
    }

    /// The catalog with each Live Photo's motion left out once its files
    /// can be read: a Takeout's archives list both files, and which movie is
    /// a still's motion is known only from their bytes, after extraction.
    public func leavingOutMotions() -> CatalogImport {
        var catalog = self
        catalog.root = root.withoutLivePhotoMotions()
        catalog.loose = LivePhotoMotion.withoutMotions(loose)
        return catalog
    }

    /// Loads ``loose`` into the library, in no album, as they stood in the
    /// organizer; a photo the library holds already is found, not added twice.
    public func loadLoose(with runner: LoadRunner, progress: @escaping @Sendable (LoadProgress) -> Void = { _ in }) async -> LoadReport {
        await runner.loadIntoLibrary(loose, progress: progress)
    }

    /// `loader`, with the catalog's capture dates for files that record
    /// none, its orientations, and its words and marks.
    public func loader(over loader: any PhotoLoader = FileLoader()) -> any PhotoLoader {
        capturedAt.isEmpty && orientations.isEmpty && marks.isEmpty
            ? loader : CatalogFactsLoader(base: loader, dates: capturedAt, orientations: orientations, marks: marks)
    }
}

/// What a catalog keeps of the words people wrote, gathered table by table,
/// by its photos' ids.
struct CatalogWords {
    var titles: [Int64: String] = [:]
    var captions: [Int64: String] = [:]
    var ratings: [Int64: Int] = [:]
    var keywords: [Int64: [String]] = [:]
    var favourites = Set<Int64>()

    /// Each photo's marks, tidied as a file's are.
    var marks: [Int64: ItemMarks] {
        var marks: [Int64: ItemMarks] = [:]
        for photo in Set(titles.keys).union(captions.keys).union(ratings.keys).union(keywords.keys).union(favourites) {
            marks[photo] = ItemMarks(
                foundTitle: titles[photo], caption: captions[photo], isFavorite: favourites.contains(photo), rating: ratings[photo],
                keywords: keywords[photo] ?? [])
        }
        return marks
    }
}

extension ForeignDatabaseFile {
    /// The tables and columns, once each `needed` table has its columns;
    /// otherwise the file is not a `kind` catalog, and says which it lacks.
    func columns(requiring needed: KeyValuePairs<String, [String]>, of kind: String) throws -> [String: Set<String>] {
        let columns = try columns()
        for (table, wanted) in needed where !(columns[table] ?? []).isSuperset(of: wanted) {
            throw CatalogFailure.notACatalog(path: path, kind: kind, reason: "it has no \(table) with \(wanted.joined(separator: ", "))")
        }
        return columns
    }

    /// What `sql` counts (its one row's column `n`), named `what`, where the
    /// catalog's `table` has the `needed` columns; nil where its schema has
    /// no such thing, as an older version's may not.
    func counted(_ what: String, _ sql: String, needs table: String, _ needed: Set<String> = [], in columns: [String: Set<String>]) throws
        -> (what: String, count: Int)?
    {
        guard let have = columns[table], have.isSuperset(of: needed) else { return nil }
        return (what, Int(try rows(sql).first?.integer("n") ?? 0))
    }
}

/// Why an organizer itself may not have a photo's original where it says.
public enum MissingOriginal: Hashable, Sendable, CustomStringConvertible {
    /// Only the organizer's cloud keeps it (Photos' "Optimize Mac Storage"):
    /// no folder is missing, and no path map brings it.
    case onlyInCloud
    /// It is a file the organizer refers to where it was imported from, on
    /// a volume of that name, which this machine may not have.
    case referenced(volume: String)

    public var description: String {
        switch self {
        case .onlyInCloud: "kept only in iCloud: Photos has not downloaded the original to this Mac"
        case .referenced(let volume): "a file Photos refers to where it was imported from, on the volume '\(volume)'"
        }
    }
}

/// Loads as its base does, then gives a photo whose file records no capture
/// date the one its catalog knows (a Takeout sidecar's), shows it as
/// the catalog's orientation says, and gives it the words and marks the
/// catalog holds, over those of its file.
struct CatalogFactsLoader: PhotoLoader {
    let base: any PhotoLoader
    let dates: [String: CaptureDate]
    let orientations: [String: PhotoOrientation]
    let marks: [String: ItemMarks]

    func load(_ source: String) async throws -> PhotoContent {
        try await loadWithBytes(source).content
    }

    func loadWithBytes(_ source: String) async throws -> (content: PhotoContent, bytes: Data?) {
        var (content, bytes) = try await base.loadWithBytes(source)
        if content.capturedAt == nil, let date = dates[source] { content.capturedAt = date }
        if let shown = orientations[source] { content.show(as: shown) }
        if let written = marks[source] { content.marks = written.filled(from: content.marks) }
        return (content, bytes)
    }
}

/// Why a catalog cannot be imported at all.
public enum CatalogFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file is not the kind of catalog it was said to be.
    case notACatalog(path: String, kind: String, reason: String)
    /// The file cannot be read: missing, not SQLite, damaged.
    case unreadable(ForeignDatabaseFile.Failure)
    /// A photo could not be written where an archive's photos are extracted.
    case extraction(path: String, detail: String)

    /// The error's stable code.
    public var code: String {
        switch self {
        case .notACatalog: "not_a_catalog"
        case .unreadable: "unreadable_catalog"
        case .extraction: "extraction_failed"
        }
    }

    public var description: String {
        switch self {
        case .notACatalog(let path, let kind, let reason): "\(path) is not a \(kind) catalog: \(reason)"
        case .unreadable(let failure): failure.description
        case .extraction(let path, let detail): "cannot extract \(path): \(detail)"
        }
    }

    /// Opens the SQLite file at `path` to read and reads a catalog from it
    /// with `body`, whatever fails said as a catalog's failure.
    static func reading(_ path: String, _ body: (ForeignDatabaseFile) throws -> CatalogImport) throws(CatalogFailure) -> CatalogImport {
        let file: ForeignDatabaseFile
        do { file = try ForeignDatabaseFile(path: path) } catch { throw .unreadable(error) }
        do {
            return try body(file)
        } catch let failure as ForeignDatabaseFile.Failure {
            throw .unreadable(failure)
        } catch let failure as CatalogFailure {
            throw failure
        } catch {
            throw .unreadable(.unreadable(path: path, detail: "\(error)"))
        }
    }
}
