import Foundation
import GRDB
import Synchronization

import AlbumsPersistence

/// A folder of its own for one test, removed when the test is done.
public final class TemporaryFolder: Sendable {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory.appending(path: "albums-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    public func path(_ name: String) -> String {
        url.appending(path: name).path
    }

    /// The names of the files in the folder, sorted.
    public func fileNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    }
}

extension PhotoSearch {
    /// A search with every filter set but which albums it looks in, for
    /// the tests that carry a search whole: through the file, as the API says it.
    public static func everyFilter() throws -> PhotoSearch {
        var search = PhotoSearch()
        search.taken = try CaptureRange("2025-07-01..2025-08-15")
        search.name = "IMG \"quoted\""
        search.format = "heic"
        search.shape = .square
        search.minimumMegapixels = 12.5
        search.camera = "X100V"
        search.lens = "XF23"
        search.hasLocation = false
        search.text = "harbour"
        search.keyword = "family"
        search.isFavorite = true
        search.minimumRating = 4
        search.isRejected = false
        return search
    }
}

/// A new library file in a new temporary folder.
public struct LibraryFixture: Sendable {
    public let folder: TemporaryFolder
    public let library: Library

    public init(options: Library.Options = Library.Options()) throws {
        folder = try TemporaryFolder()
        library = try Library.open(at: folder.path("library.albums"), options: options)
    }
}

extension LibraryWriter {
    /// Adds `count` photos (or other media: `video/mp4`) with random
    /// digests, fast (one statement), and returns their ids.
    public func addTestPhotos(count: Int, mediaType: String = "image/jpeg") throws -> [PhotoID] {
        let before = try Int64.fetchOne(database, sql: "SELECT coalesce(max(id), 0) FROM photo") ?? 0
        try database.execute(
            sql: """
                WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < ?)
                INSERT INTO photo (sha256, byte_count, media_type, original_name, source_path)
                SELECT randomblob(32), x, ?, 'photo' || x || '.jpg', '/photos/photo' || x || '.jpg' FROM n
                """,
            arguments: [count, mediaType])
        return try PhotoID.fetchAll(database, sql: "SELECT id FROM photo WHERE id > ? ORDER BY id", arguments: [before])
    }

    /// Rows of albums, segments and items inserted, updated or deleted while
    /// `body` runs; the history's notes of them are counted apart (``historyStepsWritten(_:)``).
    public func rowsWritten(_ body: () throws -> Void) throws -> Int {
        let before = database.totalChangesCount
        let steps = try historyStepsWritten(body)
        return database.totalChangesCount - before - steps
    }

    /// The history steps (one per row change to undo) written while `body` runs.
    public func historyStepsWritten(_ body: () throws -> Void) throws -> Int {
        let newestStep = "SELECT coalesce(max(id), 0) FROM history_step"
        let before = try Int.fetchOne(database, sql: newestStep) ?? 0
        try body()
        return (try Int.fetchOne(database, sql: newestStep) ?? 0) - before
    }
}

extension Library {
    /// The photo ids of an album, in order (placeholders as nil).
    public func photoOrder(of album: AlbumID) throws -> [PhotoID?] {
        try read { try $0.items(in: album).map(\.photoID) }
    }

    public func violations() throws -> [InvariantViolation] {
        try read { try $0.invariantViolations() }
    }
}

/// The seed and length of the random-sequence tests: fixed in CI, and set
/// with ALBUMS_TEST_SEED and ALBUMS_TEST_STEPS to run longer by hand.
public func randomTestSettings(defaultSteps: Int) -> (seed: UInt64, steps: Int) {
    let environment = ProcessInfo.processInfo.environment
    return (UInt64(environment["ALBUMS_TEST_SEED"] ?? "") ?? 20_261_121, Int(environment["ALBUMS_TEST_STEPS"] ?? "") ?? defaultSteps)
}

/// A small, fast, seedable random generator, so failures reproduce.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

public func fileBytes(_ path: String) throws -> Data {
    try Data(contentsOf: URL(fileURLWithPath: path))
}

public let testOwner = LoadOwner(host: "test-host", processID: 4242, processStartedAt: nil)

public func testLoad(_ source: String) -> PendingLoad {
    PendingLoad(source: source, owner: testOwner, createdAt: Timestamp.date("2026-11-21T00:00:00.000Z"))
}

/// The first `count` elements of `stream`, or those heard before `timeout`
/// passes. The timeout only keeps a broken test from hanging (CI runs every
/// suite at once on a busy machine): a test that hears its elements
/// returns at once, so it is long.
public func first<Stream: AsyncSequence & Sendable>(
    _ count: Int, of stream: Stream, timeout: Duration = .seconds(600)
) async -> [Stream.Element] where Stream.Element: Sendable, Stream.Failure == Never {
    let collected = Heard<Stream.Element>()
    await withTaskGroup(of: Void.self) { group in
        group.addTask {
            for await element in stream {
                let isEnough = collected.elements.withLock { heard in
                    heard.append(element)
                    return heard.count == count
                }
                if isEnough { return }
            }
        }
        group.addTask {
            try? await Task.sleep(for: timeout)
        }
        await group.next()
        group.cancelAll()
    }
    return collected.elements.withLock { $0 }
}

/// What `first(_:of:timeout:)` has heard so far, shared with its reading task.
private final class Heard<Element: Sendable>: Sendable {
    let elements = Mutex<[Element]>([])
}

/// The example photos committed with the project (Examples/Photos).
public enum ExamplePhotos {
    public static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "Examples/Photos")

    public static func path(_ name: String) -> String {
        folder.appending(path: name).path
    }

    /// A photo of the example as `manifest.json` describes it (what the
    /// encoder wrote, independent of albums' readers).
    /// Reads the manifest's snake_case keys into the entries' camelCase names.
    static var manifestDecoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }

    public struct Entry: Decodable, Sendable {
        public let file: String
        public let mediaType: String
        public let pixelWidth: Int
        public let pixelHeight: Int
        public let capturedAt: String?
    }

    /// Every photo `manifest.json` lists.
    public static let manifest: [Entry] = {
        guard let data = try? Data(contentsOf: folder.appending(path: "manifest.json")),
            let entries = try? Self.manifestDecoder.decode([Entry].self, from: data)
        else { return [] }
        return entries
    }()
}

/// A clock that stands still until a test moves it, for code that takes
/// its time from an injected closure: a window then never depends on how
/// fast the machine runs the test.
public final class HeldClock: Sendable {
    private let time: Mutex<Date>

    public init(at start: Date = Date(timeIntervalSinceReferenceDate: 800_000_000)) {
        time = Mutex(start)
    }

    public var now: Date { time.withLock { $0 } }

    public func advance(by seconds: TimeInterval) {
        time.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}

extension PhotoContent {
    /// The content of a photo no file holds, named by `source`: its digest
    /// is the name's bytes, so two sources never share content.
    public static func madeUp(_ source: String) -> PhotoContent {
        var digest = Data(source.utf8.prefix(32))
        digest.append(Data(repeating: 0, count: 32 - digest.count))
        return PhotoContent(sha256: digest, byteCount: 1, mediaType: "image/jpeg", originalName: source, sourcePath: "/in/\(source)")
    }
}
