import AlbumsPersistence
import AlbumsTestSupport
import AlbumsTransfer
import Foundation
import Testing

@testable import AlbumsImporting

/// A loader that answers from a script, after a chosen delay, so tests
/// decide the order in which loads complete.
struct ScriptedLoader: PhotoLoader {
    var delays: [String: Duration] = [:]
    var failures: [String: LoadFailure] = [:]
    /// Runs when a load of this source starts, before its delay.
    var onStart: (@Sendable (String) async throws -> Void)?

    func load(_ source: String) async throws -> PhotoContent {
        try await onStart?(source)
        try await Task.sleep(for: delays[source] ?? .zero)
        if let failure = failures[source] { throw failure }
        return Self.content(source)
    }

    static func content(_ source: String) -> PhotoContent {
        .madeUp(source)
    }
}

@Suite("Loads through placeholders")
struct LoadTests {
    let fixture: LibraryFixture
    let session: TransferSession

    init() throws {
        fixture = try LibraryFixture()
        session = TransferSession(library: fixture.library)
        try session.library.write { writer in
            let trip = try writer.createAlbum(named: "Trip").id
            try writer.insertPhotos(try writer.addTestPhotos(count: 3), into: trip)
        }
    }

    func names(_ album: String = "Trip") throws -> [String?] {
        try session.library.read { reader in
            try reader.items(in: try reader.album(named: album).id).map { item in
                try reader.photo(shownBy: item)?.content.originalName
            }
        }
    }

    @Test("placeholders appear at once, in order, before any bytes are read")
    func placeholdersFirst() throws {
        let loads = try LoadRunner(session: session, loader: ScriptedLoader()).begin(["a", "b", "c"], at: .at(1, in: "Trip"))
        #expect(loads.map(\.source) == ["a", "b", "c"])
        let album = try session.library.read { try $0.album(named: "Trip") }
        #expect(album.itemCount == 6 && album.placeholderCount == 3 && album.hasUncommittedUpdates)
        #expect(try names().map { $0 == nil } == [false, true, true, true, false, false])
    }

    @Test("loads completing in reverse or random order still give the placeholders' order", arguments: [
        ["a": 40, "b": 30, "c": 20, "d": 10, "e": 0],
        ["a": 0, "b": 35, "c": 5, "d": 25, "e": 15],
    ])
    func completionOrder(_ delays: [String: Int]) async throws {
        let loader = ScriptedLoader(delays: delays.mapValues { .milliseconds($0) })
        let report = try await LoadRunner(session: session, loader: loader, jobs: 5).load(["a", "b", "c", "d", "e"], at: .at(0, in: "Trip"))
        #expect(report.committed.count == 5 && report.succeeded)
        #expect(try names().prefix(5) == ["a", "b", "c", "d", "e"])
        await #expect(try session.library.read { try $0.album(named: "Trip").placeholderCount } == 0)
    }

    @Test("a load commits where its placeholder stands now, whatever moved meanwhile")
    func commitAfterConcurrentReorders() async throws {
        let session = self.session
        let gate = AsyncGate()
        let loader = ScriptedLoader(onStart: { _ in await gate.wait() })
        let runner = LoadRunner(session: session, loader: loader, jobs: 2)
        let loads = try await runner.begin(["x", "y"], at: .at(1, in: "Trip"))  // Trip: p1 X Y p2 p3
        let running = Task { await runner.run(loads) }
        // While the loads wait, the user rearranges the photos around the placeholders.
        try await session.perform(.move([.position(0, in: "Trip")], to: .into("Trip")))  // X Y p2 p3 p1
        try await session.perform(.move([.position(3, in: "Trip")], to: .at(1, in: "Trip")))  // X p3 Y p2 p1
        try await session.perform(.remove([.position(3, in: "Trip")]))  // X p3 Y p1
        await gate.open()
        let report = await running.value
        #expect(report.committed.map(\.source) == ["x", "y"])
        let names = try names()
        #expect(names[0] == "x" && names[2] == "y" && names.count == 4)
    }

    @Test("a failed load deletes its placeholder and nothing else; a skipped one too, knowingly")
    func failures() async throws {
        let loader = ScriptedLoader(failures: ["bad": .failed("damaged JPEG: cut short"), "notes": .skipped("not an image")])
        let before = try names()
        let report = try await LoadRunner(session: session, loader: loader).load(["ok", "bad", "notes"], at: .into("Trip"))
        #expect(report.failed.map(\.source) == ["bad"] && report.failed[0].reason == "damaged JPEG: cut short")
        #expect(report.skipped.map(\.source) == ["notes"])
        #expect(!report.succeeded)
        #expect(try names() == before + ["ok"])
        #expect(try session.library.violations() == [])
    }

    @Test("observers see placeholders inserted, then updated or removed, and each change set replays")
    func changeSets() async throws {
        let stream = try await session.changes(pollingInterval: 0.05)
        let before = try await session.library.read { try $0.items(in: try $0.album(named: "Trip").id).map(\.id) }
        let loader = ScriptedLoader(failures: ["bad": .failed("broken")])
        _ = try await LoadRunner(session: session, loader: loader, jobs: 1).load(["a", "bad", "c"], at: .at(1, in: "Trip"))
        let changes = await first(4, of: stream).flatMap(\.changeSets)
        #expect(changes.first?.inserted == [1, 2, 3])
        #expect(changes.dropFirst().map(\.updated) == [[1], [], [2]])
        #expect(changes.dropFirst().map(\.removed) == [[], [2], []])
        // Replaying every change set over the first order gives the last.
        var order = before
        let final = try await session.library.read { try $0.items(in: try $0.album(named: "Trip").id).map(\.id) }
        var inserted = try await session.library.read { _ in [AlbumItemID]() }
        for change in changes {
            inserted = change.inserted.map { _ in AlbumItemID(rawValue: -1) }
            order = change.applied(to: order, inserting: { _ in inserted.removeFirst() }) ?? []
        }
        #expect(order.filter { $0.rawValue > 0 }.count == before.count)
        #expect(order.count == final.count)
    }

    @Test("cancelling keeps finished loads committed and deletes the placeholders still pending")
    func cancellation() async throws {
        let loader = ScriptedLoader(delays: ["fast": .zero, "slow1": .seconds(3600), "slow2": .seconds(3600), "later": .zero])
        let runner = LoadRunner(session: session, loader: loader, jobs: 3)
        let task = Task { try await runner.load(["fast", "slow1", "slow2", "later"], at: .into("Trip")) }
        // Cancel once "fast" has committed (the slow ones would take an hour); the
        // bound only guards against a hang, however loaded the machine.
        for _ in 0..<30_000 where try names().contains("fast") == false {
            try await Task.sleep(for: .milliseconds(10))
        }
        task.cancel()
        let report = try await task.value
        #expect(report.committed.first?.source == "fast")
        #expect(report.committed.count <= 2)
        #expect(Set(report.cancelled).isSuperset(of: ["slow1", "slow2"]))
        let album = try await session.library.read { try $0.album(named: "Trip") }
        #expect(album.placeholderCount == 0)
        #expect(try session.library.violations() == [])
    }

    @Test("the same bytes twice: one photo; an album that has it reports it and drops the placeholder")
    func duplicates() async throws {
        let runner = LoadRunner(session: session, loader: ScriptedLoader(), jobs: 1)
        let first = try await runner.load(["same", "same"], at: .into("Trip"))
        #expect(first.committed.count == 1 && first.alreadyInAlbum.count == 1)
        #expect(first.succeeded)
        try await session.library.write { try $0.createAlbum(named: "Other") }
        let second = try await runner.load(["same"], at: .into("Other"))
        #expect(second.committed.count == 1 && second.committed[0].isNewPhoto == false)
        #expect(second.committed[0].photo == first.committed[0].photo)
    }

    @Test("the same bytes twice in one import: the first given keeps its slot and name, however late it ends", arguments: [true, false])
    func duplicatesEndingOutOfOrder(itemizing: Bool) async throws {
        /// first.jpg, copy.jpg and third.jpg are the same bytes; first.jpg ends after every other load has committed.
        struct LateFirst: PhotoLoader {
            let gate: AsyncGate
            func load(_ source: String) async throws -> PhotoContent {
                if source == "first.jpg" { await gate.wait() }
                var content = ScriptedLoader.content(source.hasPrefix("other") ? source : "same")
                content.originalName = source
                return content
            }
        }
        let gate = AsyncGate()
        let runner = LoadRunner(session: session, loader: LateFirst(gate: gate), jobs: 5)
        let sources = ["first.jpg", "other-1.jpg", "copy.jpg", "other-2.jpg", "third.jpg"]
        let loads = try await runner.begin(sources, at: .at(0, in: "Trip"))
        let report = await runner.run(loads, itemizing: itemizing) { progress in
            if progress.finished == sources.count - 1 { Task { await gate.open() } }
        }
        #expect(try names().prefix(3) == ["first.jpg", "other-1.jpg", "other-2.jpg"])
        let total = report.total
        #expect(total.committed == 3 && total.alreadyInAlbum == 2 && total.alreadyInLibrary == 0 && report.succeeded)
        if itemizing {
            #expect(report.committed.map(\.source) == ["first.jpg", "other-1.jpg", "other-2.jpg"])
            #expect(report.committed.allSatisfy { $0.isNewPhoto })
            #expect(report.alreadyInAlbum.map(\.source) == ["copy.jpg", "third.jpg"])
        } else {
            #expect(report.committed.isEmpty && report.alreadyInAlbum.isEmpty)
        }
        #expect(try session.library.violations() == [])
        // The import's undo takes out what it brought, and its redo puts it back in its order.
        let before = try names().suffix(3)
        try await session.library.write { _ = try $0.undo() }
        #expect(try names() == Array(before))
        try await session.library.write { _ = try $0.redo() }
        #expect(try names().prefix(3) == ["first.jpg", "other-1.jpg", "other-2.jpg"])
        #expect(try session.library.violations() == [])
    }

    @Test("the same bytes under another name keep that name in their album, through copies, undo and redo; the photo keeps its own")
    func namesOfTheSameBytes() async throws {
        /// Every source the same bytes, named as the source.
        struct SameBytes: PhotoLoader {
            func load(_ source: String) async throws -> PhotoContent {
                var content = ScriptedLoader.content("same")
                content.originalName = source
                content.sourcePath = "/in/\(source)"
                return content
            }
        }
        let runner = LoadRunner(session: session, loader: SameBytes(), jobs: 1)
        try await session.library.write { writer in
            for name in ["Other", "Third"] { try writer.createAlbum(named: name) }
        }
        let first = try await runner.load(["first.jpg"], at: .into("Trip"))
        let again = try await runner.load(["mine.jpg"], at: .into("Other"))
        let photo = try #require(first.committed.first?.photo)
        #expect(again.committed.first?.photo == photo && again.committed.first?.isNewPhoto == false)
        #expect(try names().last == "first.jpg" && names("Other") == ["mine.jpg"])
        await #expect(try session.library.read { try $0.photo(photo).content.originalName } == "first.jpg")

        // A copy carries the item's name; a photo copied by id comes as its reader sees it (the holder: its own name).
        try await session.library.write { try $0.perform(.copy([.position(0, in: "Other")], to: .into("Third"))) }
        #expect(try names("Third") == ["mine.jpg"])
        try await session.library.write { try $0.perform(.remove([.position(0, in: "Third")])) }
        try await session.library.write { try $0.perform(.copy([.photo(photo, in: nil)], to: .into("Third"))) }
        #expect(try names("Third") == ["first.jpg"])

        // Undo and redo put the item back with its name.
        try await session.library.write { _ = try $0.undo() }
        try await session.library.write { _ = try $0.undo() }
        #expect(try names("Third") == ["mine.jpg"])
        try await session.library.write { _ = try $0.redo() }
        #expect(try names("Third") == [])
        try await session.library.write { _ = try $0.undo() }
        #expect(try names("Third") == ["mine.jpg"])
        #expect(try session.library.violations() == [])
    }

    @Test("stale placeholders are those whose owner is gone, on this host")
    func staleness() throws {
        let host = ProcessInfo.processInfo.hostName
        let finished = Process()
        finished.executableURL = URL(fileURLWithPath: "/bin/true")
        try finished.run()
        finished.waitUntilExit()
        let gone = LoadOwner(host: host, processID: finished.processIdentifier, processStartedAt: nil)
        let me = LoadOwner.current
        let reused = LoadOwner(host: host, processID: me.processID, processStartedAt: "another-boot:1")
        let elsewhere = LoadOwner(host: "some-other-host", processID: 1, processStartedAt: nil)
        #expect(gone.isGone)
        #expect(!me.isGone)
        #expect(reused.isGone == (me.processStartedAt != nil))
        #expect(!elsewhere.isGone)
    }

    @Test("after a crash, stale placeholders are listed and resumed from their recorded source")
    func resumeAfterCrash() async throws {
        // A crashed importer's leftovers: placeholders owned by a process that is gone.
        let folder = fixture.folder
        let photo = folder.path("saved.jpg")
        try FileManager.default.copyItem(at: ExamplePhotos.folder.appending(path: "01-harbour.jpg"), to: URL(fileURLWithPath: photo))
        let dead = LoadOwner(host: ProcessInfo.processInfo.hostName, processID: Int32.max - 7, processStartedAt: nil)
        let vanished = folder.path("vanished.jpg")
        try await session.library.write { writer in
            try writer.insertPlaceholders(
                [PendingLoad(source: photo, owner: dead, createdAt: Timestamp.date("2026-11-21T00:00:00.000Z")),
                 PendingLoad(source: vanished, owner: dead, createdAt: Timestamp.date("2026-11-21T00:00:00.000Z"))],
                into: try writer.album(named: "Trip").id, at: 1)
        }
        let pending = try await session.library.read { try $0.pendingPlaceholders() }
        #expect(pending.map(\.index) == [1, 2] && pending.allSatisfy(\.isStale))
        #expect(try session.library.violations() == [])  // stale placeholders are a normal state
        let report = try await LoadRunner(session: session).resume(pending)
        #expect(report.committed.map(\.source) == [photo])
        #expect(report.failed.map(\.reason) == ["no such file"])
        #expect(try names()[1] == "saved.jpg")
        await #expect(try session.library.read { try $0.pendingPlaceholders() }.isEmpty)
    }
}

/// Holds loads back until a test opens it.
actor AsyncGate {
    private var isOpen = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        if isOpen { return }
        await withCheckedContinuation { waiting.append($0) }
    }

    func open() {
        isOpen = true
        waiting.forEach { $0.resume() }
        waiting = []
    }
}
