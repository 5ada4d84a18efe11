import AlbumsPersistence
import AlbumsTestSupport
import AlbumsTransfer
import Crypto
import Foundation
import Testing

@testable import AlbumsImporting

/// Copies the library keeps of its originals in a folder it manages:
/// written verified by a load before it commits, resumed as loads are,
/// read first, checked, restored, and moved between places.
@Suite("Kept originals in a managed folder")
struct KeptOriginalsTests {
    let fixture: LibraryFixture
    let session: TransferSession
    let inbox: String
    let photos = ["01-harbour.jpg", "02-market.png", "03-cliffs.webp"]

    init() throws {
        fixture = try LibraryFixture()
        session = TransferSession(library: fixture.library)
        try session.library.write { try $0.createAlbum(named: "Trip") }
        inbox = fixture.folder.path("inbox")
        try FileManager.default.createDirectory(atPath: inbox, withIntermediateDirectories: true)
        for name in photos { try FileManager.default.copyItem(atPath: ExamplePhotos.path(name), toPath: inbox + "/" + name) }
    }

    var sources: [String] { photos.map { inbox + "/" + $0 } }

    /// The library read or written synchronously, from async tests too.
    func read<T>(_ body: (LibraryReader) throws -> T) throws -> T { try fixture.library.read(body) }
    func write<T>(_ body: (LibraryWriter) throws -> T) throws -> T { try fixture.library.write(body) }

    /// The files under `folder`, relative to it, sorted.
    func files(under folder: String) -> [String] {
        let found = FileManager.default.enumerator(atPath: folder)?.allObjects.compactMap { $0 as? String } ?? []
        return found.filter { path in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: folder + "/" + path, isDirectory: &isFolder) && !isFolder.boolValue
        }.sorted()
    }

    func importKept() async throws -> (any OriginalKeeper, LoadReport) {
        let keeper = try fixture.library.keeperForCopies()
        let report = try await LoadRunner(session: session, keeper: keeper, jobs: 2).load(sources, at: .into("Trip"))
        return (keeper, report)
    }

    @Test("import --copy keeps each file under its content's name, byte for byte, and the photo reads from there")
    func importKeeps() async throws {
        let (keeper, report) = try await importKept()
        #expect(report.committed.count == 3 && report.succeeded)
        let folder = fixture.library.defaultOriginalsFolder
        #expect(keeper.place.kind == .folder(folder))
        #expect(folder == URL(fileURLWithPath: fixture.library.path).standardizedFileURL.deletingPathExtension().path + "-originals")
        let kept = files(under: folder)
        #expect(kept.count == 3 && kept.allSatisfy { !$0.contains(".part") })
        for source in sources {
            let bytes = try fileBytes(source)
            let photo = try #require(try read { try $0.photo(sha256: Data(SHA256.hash(data: bytes))) })
            #expect(photo.content.keptIn == keeper.place.id)
            let location = try fixture.library.originalLocation(of: photo)
            let path = try #require(location.filePath)
            #expect(path.hasPrefix(folder + "/" + photo.content.sha256Hex.prefix(2) + "/"))
            #expect(try fileBytes(path) == bytes)
        }
        // The sources can go: every original is still whole where the library keeps it.
        for source in sources { try FileManager.default.removeItem(atPath: source) }
        #expect(try fixture.library.checkSources().isEmpty)
        let export = try read { try AlbumExport(album: .named("Trip"), in: $0) }
        #expect(export.entries.allSatisfy { $0.source.hasPrefix(folder) })
    }

    @Test("a copy read a part at a time: the parts join to its bytes or the range's; a copy that is not there fails before any part")
    func partsAtATime() async throws {
        let (keeper, _) = try await importKept()
        let bytes = try fileBytes(sources[0])
        let photo = try #require(try read { try $0.photo(sha256: Data(SHA256.hash(data: bytes))) })
        #expect(Data(try await fixture.library.originalParts(of: photo).reduce(into: []) { $0.append($1) }.joined()) == bytes)
        #expect(Data(try await keeper.parts(of: photo.content, in: 10...99).reduce(into: []) { $0.append($1) }.joined()) == bytes[10...99])

        // Past one part: each asked for when the one before is taken.
        let large = Data((0..<(9 << 20)).map { UInt8(truncatingIfNeeded: $0 >> 3) })
        let asked = AskedRanges()
        let parts = try await KeptBytes.asking(for: nil, of: Int64(large.count), place: "test") { range throws(KeepingFailure) in
            await asked.add(range)
            return large[Int(range.lowerBound)...Int(range.upperBound)]
        }
        #expect(await asked.ranges.count == 1, "the first part is read before the parts are returned")
        var read: [Data] = []
        for try await part in parts { read.append(part) }
        #expect(read.map(\.count) == [4 << 20, 4 << 20, 1 << 20] && Data(read.joined()) == large)
        await #expect(throws: KeepingFailure.missing(place: "test", name: "x")) {
            _ = try await KeptBytes.asking(for: nil, of: 10, place: "test") { _ throws(KeepingFailure) in throw .missing(place: "test", name: "x") }
        }
        try FileManager.default.removeItem(atPath: try #require(fixture.library.originalLocation(of: photo).filePath))
        await #expect(throws: KeepingFailure.self) { _ = try await keeper.parts(of: photo.content, in: nil) }
    }

    actor AskedRanges {
        var ranges: [ClosedRange<Int64>] = []
        func add(_ range: ClosedRange<Int64>) { ranges.append(range) }
    }

    @Test("a file that changes between its load and its copy fails its load: no photo, no copy, the placeholder gone")
    func changedWhileCopied() async throws {
        let keeper = try fixture.library.keeperForCopies()
        // The loader read one set of bytes; the file now holds others.
        struct Stale: PhotoLoader {
            func load(_ source: String) async throws -> PhotoContent {
                var content = try await FileLoader().load(source)
                try Data("other bytes".utf8).write(to: URL(fileURLWithPath: source))
                content.byteCount = 11
                return content
            }
        }
        let report = try await LoadRunner(session: session, loader: Stale(), keeper: keeper, jobs: 1).load([sources[0]], at: .into("Trip"))
        #expect(report.committed.isEmpty && report.failed.count == 1)
        #expect(report.failed.first?.reason.contains("changed while it was copied") == true)
        #expect(files(under: fixture.library.defaultOriginalsFolder).isEmpty, "no copy, and no temporary file left")
        #expect(try read { try $0.album(named: "Trip").itemCount + $0.album(named: "Trip").placeholderCount } == 0)
    }

    @Test("a place that cannot be written keeps the placeholders in their slots; once it can, resuming finishes them there")
    func waitingForThePlace() async throws {
        // A folder whose parent is a file cannot be made: as a full or missing disk, for now.
        let blocker = fixture.folder.path("disk")
        try Data("not a folder".utf8).write(to: URL(fileURLWithPath: blocker))
        try write { writer in
            _ = try writer.chooseStoragePlace(.folder(blocker + "/kept"))
            try writer.insertPhotos([try writer.addPhoto(.madeUp("first")).photo.id], into: try writer.album(named: "Trip").id)
        }
        let keeper = try #require(try fixture.library.currentKeeper())
        let report = try await LoadRunner(session: session, keeper: keeper, jobs: 2).load(sources, at: .at(0, in: "Trip"))
        #expect(report.waiting.count == 3 && report.committed.isEmpty && report.failed.isEmpty && !report.succeeded)
        #expect(report.waiting.first?.reason.contains("cannot keep a copy in folder \(blocker)/kept") == true, "\(report.waiting)")
        let waiting = try read { try $0.pendingPlaceholders() }
        #expect(waiting.map(\.index) == [0, 1, 2] && waiting.allSatisfy(\.load.keepsCopy))
        #expect(try read { try $0.photoCount() } == 1, "nothing committed")

        try FileManager.default.removeItem(atPath: blocker)
        let resumed = try await LoadRunner(session: session, keeper: try #require(try fixture.library.currentKeeper())).resume(waiting)
        #expect(resumed.committed.count == 3 && resumed.succeeded)
        #expect(files(under: blocker + "/kept").count == 3)
        let order = try read { reader in try reader.items(in: try reader.album(named: "Trip").id).map { try reader.photo(shownBy: $0)?.content.originalName } }
        #expect(order == photos + ["first"], "each in the slot its placeholder held")
    }

    @Test("a load begun with --copy and killed keeps its copy when resumed")
    func resumedLoadKeeps() async throws {
        let place = try write { try $0.chooseStoragePlace(.folder(fixture.folder.path("kept"))) }
        // A dead import's placeholders: begun to keep copies, by a process that is gone.
        try write { writer in
            let album = try writer.album(named: "Trip").id
            let loads = sources.map { PendingLoad(source: $0, owner: LoadOwner(host: "gone", processID: 1, processStartedAt: nil), createdAt: Date(), keepsCopy: true) }
            try writer.insertPlaceholders(loads, into: album)
        }
        let stale = try read { try $0.pendingPlaceholders() }
        #expect(stale.count == 3 && stale.allSatisfy(\.load.keepsCopy))
        // Without a keeper a keeping load cannot commit as a plain one.
        let refused = try await LoadRunner(session: session).resume([stale[0]])
        #expect(refused.failed.count == 1 && refused.committed.isEmpty)
        let rest = try read { try $0.pendingPlaceholders() }
        let report = try await LoadRunner(session: session, keeper: try #require(try fixture.library.currentKeeper())).resume(rest)
        #expect(report.committed.count == 2)
        let kept = try read { try $0.photos() }
        #expect(kept.count == 2 && kept.allSatisfy { $0.content.keptIn == place.id })
        #expect(files(under: fixture.folder.path("kept")).count == 2)
    }

    @Test("check reads the kept copy, not the source; relink writes a damaged copy again from a file found")
    func checkAndRestore() async throws {
        _ = try await importKept()
        let photo = try #require(try read { try $0.photos().first })
        let copy = try #require(try fixture.library.originalLocation(of: photo).filePath)
        var damaged = try fileBytes(copy)
        damaged[damaged.count / 2] ^= 0xFF
        try damaged.write(to: URL(fileURLWithPath: copy))
        let problems = try fixture.library.checkSources()
        #expect(problems.map(\.photo.id) == [photo.id] && problems.first?.isKeptCopy == true && problems.first?.issue == .changed)
        #expect(problems.first?.description.contains("kept copy") == true)

        let backup = fixture.folder.path("backup")
        try FileManager.default.createDirectory(atPath: backup, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: photo.content.sourcePath, toPath: backup + "/again.jpg")
        try FileManager.default.removeItem(atPath: photo.content.sourcePath)
        let (relinked, remaining) = try await fixture.library.relinkSources(searching: [backup], recursive: false)
        #expect(remaining.isEmpty)
        #expect(relinked.map(\.restoredCopy) == [true] && relinked.first?.oldSource == copy)
        #expect(try fileBytes(copy) == (try fileBytes(backup + "/again.jpg")))
        #expect(try read { try $0.photo(photo.id).content.sourcePath } == photo.content.sourcePath, "the source stays as it was")
        #expect(try fixture.library.checkSources().isEmpty)
    }

    @Test("a move brings every copy to the new place, verified, and deletes the old; --all keeps the sources' photos too")
    func moves() async throws {
        _ = try await importKept()
        let plain = fixture.folder.path("plain.jpg")
        try FileManager.default.copyItem(atPath: ExamplePhotos.path("11-forest.jpg"), toPath: plain)
        _ = await LoadRunner(session: session).loadIntoLibrary([plain])
        let old = fixture.library.defaultOriginalsFolder
        let new = fixture.folder.path("new")
        let place = try write { try $0.chooseStoragePlace(.folder(new)) }
        let keeper = try #require(try fixture.library.currentKeeper())
        #expect(keeper.place.id == place.id)
        // Still read where they are until moved.
        #expect(try fixture.library.checkSources().isEmpty)

        let moved = try await fixture.library.moveOriginals(to: keeper, includingSources: false)
        #expect(moved.moved.count == 3 && moved.kept.isEmpty && moved.isComplete)
        #expect(files(under: old).isEmpty && files(under: new).count == 3)
        #expect(try read { try $0.keptPhotoCounts() } == [place.id: 3, nil: 1])

        let all = try await fixture.library.moveOriginals(to: keeper, includingSources: true)
        #expect(all.moved.isEmpty && all.kept.count == 1)
        #expect(FileManager.default.fileExists(atPath: plain), "a source is never deleted")
        #expect(files(under: new).count == 4)
        #expect(try fixture.library.checkSources().isEmpty)

        // Again: nothing left to do.
        let again = try await fixture.library.moveOriginals(to: keeper, includingSources: true)
        #expect(again.moved.isEmpty && again.kept.isEmpty)
    }

    @Test("two photos of the same bytes (one made apart for a person who sees neither Trip nor its photo) move together, neither left without its copy")
    func movesSharedBytes() async throws {
        let (keeper, _) = try await importKept()
        let ana = try write { writer in
            let ana = try writer.addPerson(named: "ana", password: try PasswordHash(password: "correct horse", cost: 4))
            try writer.setRole(.editor, of: ana.id, on: .album(try writer.createAlbum(named: "Ana's").id))
            return ana
        }
        let upload = fixture.folder.path("upload.jpg")
        try FileManager.default.copyItem(atPath: ExamplePhotos.path(photos[0]), toPath: upload)
        let anas = TransferSession(library: fixture.library, acting: .person(ana))
        let report = try await LoadRunner(session: anas, keeper: keeper).load([upload], at: .into("Ana's"))
        #expect(report.committed.count == 1 && report.succeeded)
        let shared = try read { try $0.photos().filter { $0.content.originalName == photos[0] || $0.content.originalName == "upload.jpg" } }
        #expect(shared.count == 2 && shared[1].isApart && shared[0].content.sha256 == shared[1].content.sha256)
        #expect(Set(shared.map(\.content.keptIn)).count == 1 && shared[0].content.keptIn != nil)

        let place = try write { try $0.chooseStoragePlace(.folder(fixture.folder.path("new"))) }
        let moved = try await fixture.library.moveOriginals(to: try #require(try fixture.library.currentKeeper()), includingSources: false)
        #expect(moved.moved.count == 4 && moved.isComplete, "\(moved.failed)")
        #expect(try read { try $0.keptPhotoCounts() } == [place.id: 4])
        #expect(files(under: fixture.library.defaultOriginalsFolder).isEmpty && files(under: fixture.folder.path("new")).count == 3)
        #expect(try fixture.library.checkSources().isEmpty)
    }

    @Test("a move that cannot copy a photo leaves it where it was, and says why")
    func moveFailure() async throws {
        _ = try await importKept()
        let photo = try #require(try read { try $0.photos().first })
        let copy = try #require(try fixture.library.originalLocation(of: photo).filePath)
        try FileManager.default.removeItem(atPath: copy)
        try write { _ = try $0.chooseStoragePlace(.folder(fixture.folder.path("new"))) }
        let result = try await fixture.library.moveOriginals(to: try #require(try fixture.library.currentKeeper()), includingSources: false)
        #expect(result.failed.map(\.photoID) == [photo.id] && result.moved.count == 2)
        #expect(try read { try $0.photo(photo.id).content.keptIn } != (try read { try $0.currentStoragePlace() })?.id)
    }
}
