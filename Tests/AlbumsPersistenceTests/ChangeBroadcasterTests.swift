import AlbumsTestSupport
import Foundation
import Testing

@testable import AlbumsPersistence

/// The change stream's fan-out: one poller per library however many
/// streams open, and a bounded wait for a stream nobody reads.
@Suite("Change streams: one poller, bounded buffers")
struct ChangeBroadcasterTests {
    static func change(_ sequence: Int64) -> CommittedChange {
        CommittedChange(sequence: sequence, committedAt: Date(timeIntervalSince1970: 0), operations: [])
    }

    @Test("streams opened together start one poller, and a new one starts only after the last stream ends")
    func onePoller() async throws {
        let fixture = try LibraryFixture()
        let library = fixture.library
        let streams = try await withThrowingTaskGroup(of: AsyncStream<CommittedChange>.self) { group in
            for _ in 0..<16 { group.addTask { try await library.changes() } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(streams.count == 16)
        #expect(library.broadcaster.pollersStarted.load(ordering: .relaxed) == 1)
        // Each stream ends when it is dropped; the last one stops the poller.
        _ = consume streams
        #expect(library.broadcaster.watchedSequence == nil)
        _ = try await library.changes()
        #expect(library.broadcaster.pollersStarted.load(ordering: .relaxed) == 2)
    }

    @Test("a write to the watched file is heard as it happens; writes to files beside it wake nothing; a file made again is heard", .timeLimit(.minutes(1)))
    func writesHeard() async throws {
        let folder = try TemporaryFolder()
        let log = folder.url.appending(path: "library.albums-wal")
        let beside = folder.url.appending(path: "library.albums")
        try Data("a".utf8).write(to: log)
        try Data("a".utf8).write(to: beside)
        func append(_ text: String, to file: URL) throws {
            let handle = try FileHandle(forWritingTo: file)
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(text.utf8))
            try handle.close()
        }
        // A tick of an hour: only a write heard wakes the reader.
        let watch = try #require(FileWriteWatch(file: log.path, tick: 3600), "Linux tells of writes (inotify)")
        defer { watch.stop() }
        var wakeUps = watch.wakeUps.makeAsyncIterator()
        // A busy neighbour (the kernel reports events in order: these come before the log's).
        for index in 0..<20 { try append("write \(index)", to: beside) }
        try append("frame", to: log)
        #expect(await wakeUps.next() != nil)
        #expect(watch.takeHeard())
        #expect(!watch.takeHeard(), "heard once")
        #expect(watch.othersHeard.load(ordering: .relaxed) == 0, "a neighbour's writes are not even read")

        // Removed and made again (as a log is once its last connection closes): heard, and its writes too.
        try FileManager.default.removeItem(at: log)
        try Data("b".utf8).write(to: log)
        #expect(await wakeUps.next() != nil)
        #expect(watch.takeHeard())
        try append("frame", to: log)
        #expect(await wakeUps.next() != nil)
        #expect(watch.takeHeard())
    }

    @Test("a wake-up asked of the watch comes with nothing written; the last asked replaces the one before", .timeLimit(.minutes(1)))
    func wakeUpAsked() async throws {
        let folder = try TemporaryFolder()
        let log = folder.url.appending(path: "library.albums-wal")
        try Data("a".utf8).write(to: log)
        let watch = try #require(FileWriteWatch(file: log.path, tick: 3600), "Linux tells of writes (inotify)")
        defer { watch.stop() }
        var wakeUps = watch.wakeUps.makeAsyncIterator()
        // An hour's wake-up replaced by one at once: only the second can come within the test's minute.
        watch.wake(after: 3600)
        watch.wake(after: 0.001)
        #expect(await wakeUps.next() != nil)
        #expect(!watch.takeHeard(), "nothing was written")
    }

    @Test("any polling interval an app passes is one timers and clocks take: infinity, NaN, zero and the negative among them")
    func pollingIntervalsHeld() async throws {
        #expect(ChangeBroadcaster.pollingInterval(0.25) == 0.25)
        #expect(ChangeBroadcaster.pollingInterval(0) == 0.001 && ChangeBroadcaster.pollingInterval(-5) == 0.001)
        #expect(ChangeBroadcaster.pollingInterval(.infinity) == 365 * 86_400 && ChangeBroadcaster.pollingInterval(.nan) == 365 * 86_400)
        let fixture = try LibraryFixture()
        for interval in [Double.infinity, .nan, 1e300, -1, 0] {
            // Opened, heard from its own write, ended: nothing traps.
            var changes = try await fixture.library.changes(pollingInterval: interval).makeAsyncIterator()
            try await fixture.library.write { _ = try $0.createAlbum(named: "Album \(UUID().uuidString)") }
            #expect(await changes.next() != nil, "\(interval)")
        }
    }

    @Test("a stream that is not read holds at most its limit; the next change it takes says it follows a gap")
    func boundedBuffer() async throws {
        let broadcaster = ChangeBroadcaster(bufferLimit: 4)
        let stream = broadcaster.subscribe(startingAfter: 0, watching: "/nonexistent", pollingInterval: 3600) { _ in [] }
        broadcaster.deliver((1...10).map(Self.change))
        var iterator = stream.makeAsyncIterator()
        var taken: [CommittedChange] = []
        for _ in 0..<4 { taken.append(try #require(await iterator.next())) }
        #expect(taken.map(\.sequence) == [1, 2, 3, 4] && taken.allSatisfy { !$0.followsAGap })
        broadcaster.deliver([Self.change(11), Self.change(12)])
        let afterGap = try #require(await iterator.next())
        #expect(afterGap.sequence == 11 && afterGap.followsAGap)
        let next = try #require(await iterator.next())
        #expect(next.sequence == 12 && !next.followsAGap)
    }
}
