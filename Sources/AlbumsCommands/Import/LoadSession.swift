import AlbumsImporting
import AlbumsPersistence
import AlbumsTransfer
import AlbumsWire
import ArgumentParser
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs loads for a command: a progress line on a terminal, Ctrl-C
/// cancelling cleanly, and the report printed as text or JSON.
struct LoadSession {
    let library: Library
    let console: Console
    /// How many times Ctrl-C was pressed during the loads.
    private let interrupts = Interrupts()

    /// The status a command stopped by Ctrl-C ends with, as shells and
    /// scripts expect of SIGINT (128 + 2).
    static let interruptedStatus: Int32 = 130

    init(library: Library, console: Console) {
        self.library = library
        self.console = console
    }

    private final class Interrupts: Sendable {
        let count = Mutex(0)
    }

    /// Runs `work`, cancelling it on Ctrl-C, and returns its report.
    func run(_ work: @escaping @Sendable (@escaping @Sendable (LoadProgress) -> Void) async throws -> LoadReport) async throws -> LoadReport {
        let console = self.console
        let progress: @Sendable (LoadProgress) -> Void = { progress in
            let width = 24
            let done = progress.total == 0 ? width : width * progress.finished / progress.total
            let bar = String(repeating: "#", count: done) + String(repeating: ".", count: width - done)
            console.progress("[\(bar)] \(progress.finished)/\(progress.total) \((progress.source as NSString).lastPathComponent)")
        }
        // Ctrl-C cancels the work: finished loads stay, pending placeholders go.
        // A load stuck in a read cannot notice; a second Ctrl-C stops at once,
        // leaving placeholders that `albums pending resume` recovers. Set up
        // before the work starts, so that no early Ctrl-C is lost.
        let running = Mutex<Task<LoadReport, any Error>?>(nil)
        let interrupts = self.interrupts
        // The path, not the library: a handler holding the library would keep it open past the command.
        let path = library.path
        signal(SIGINT, SIG_IGN)
        let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        interrupt.setEventHandler {
            let count = interrupts.count.withLock { count in
                count += 1
                return count
            }
            if count == 1 {
                console.note("albums: stopping after the loads under way (Ctrl-C again stops at once); running the same import again finishes it")
                running.withLock { $0?.cancel() }
            } else {
                let owner = LoadOwner.current
                let left = (try? Library.open(at: path, options: Library.Options(allowsConcurrentReads: false, access: .existing)).read { reader in
                    try reader.pendingPlaceholders().filter { $0.load.owner.host == owner.host && $0.load.owner.processID == owner.processID }.count
                }) ?? 0
                console.note(
                    "albums: stopped; \(LibraryError.counted(left, "placeholder")) left pending, holding \(left == 1 ? "its slot" : "their slots"): "
                        + "running the same import again, or albums pending resume, finishes the import")
                exit(Self.interruptedStatus)
            }
        }
        interrupt.resume()
        defer {
            interrupt.cancel()
            signal(SIGINT, SIG_DFL)
        }
        let task = Task { try await work(progress) }
        running.withLock { $0 = task }
        if interrupts.count.withLock({ $0 }) > 0 { task.cancel() }
        let report = try await task.value
        console.endProgress()
        return report
    }

    /// Prints the report; throws the exit status when a load failed or was
    /// cancelled (130 when Ctrl-C stopped the loads).
    func print(_ report: LoadReport, album: String?, verb: String) throws {
        // Positions as they stand now. Another process may have moved an
        // imported item out of the album or removed it since it committed:
        // then it has none, and the import still succeeded.
        let positions = try library.read { reader in
            let albumID = album.flatMap { try? reader.album(named: $0).id }
            return report.committed.map { committed -> Int? in
                guard let id = committed.item, let item = try? reader.item(id), item.albumID == albumID else { return nil }
                return item.index + 1
            }
        }
        if console.json {
            var changes: [ChangeJSON] = []
            if let album, let current = try? library.read({ try $0.album(named: album) }) {
                // The net change: the placeholders came and went; the photos stayed.
                var net = AlbumChangeSet(albumID: current.id, albumName: current.name, revision: current.revision)
                for (committed, position) in zip(report.committed, positions) {
                    if let position, let item = committed.item { net.recordInsertion(at: position - 1, of: item) }
                }
                changes = [ChangeJSON(net)]
            }
            try console.result(json: LoadReportJSON(
                album: album,
                imported: zip(report.committed, positions).map {
                    .init(source: $0.source, photoID: $0.photo.rawValue, position: $1, newPhoto: $0.isNewPhoto)
                },
                alreadyInAlbum: report.alreadyInAlbum.map { .init(source: $0.source, photoID: $0.photo.rawValue) },
                skipped: report.skipped.map { .init(source: $0.source, reason: $0.reason) },
                failed: report.failed.map { .init(source: $0.source, reason: $0.reason) },
                cancelled: report.cancelled,
                waiting: report.waiting.map { .init(source: $0.source, reason: $0.reason) },
                changes: changes))
        } else {
            let into = album.map { " into \(LibraryError.quoted($0))" } ?? " into the library"
            var parts = ["\(verb) \(report.committed.count) file\(report.committed.count == 1 ? "" : "s")\(into)"]
            let placed = positions.compactMap { $0 }
            if let first = placed.min(), let last = placed.max() {
                parts[0] += first == last ? " at position \(first)" : " at positions \(first)–\(last)"
            }
            let reused = report.committed.filter { !$0.isNewPhoto }.count
            if reused > 0 { parts.append("\(reused) of them already in the library") }
            if !report.alreadyInAlbum.isEmpty { parts.append("\(report.alreadyInAlbum.count) already in the album") }
            if !report.skipped.isEmpty { parts.append("\(report.skipped.count) skipped") }
            if !report.failed.isEmpty { parts.append("\(report.failed.count) failed") }
            if !report.cancelled.isEmpty { parts.append("\(report.cancelled.count) cancelled") }
            if !report.waiting.isEmpty { parts.append("\(report.waiting.count) waiting for the place the copies go") }
            console.result(parts.joined(separator: ", "))
            for duplicate in report.alreadyInAlbum {
                console.result("  already in the album  \(duplicate.source) (id:\(duplicate.photo))")
            }
            for skipped in report.skipped { console.result("  skipped  \(skipped.source): \(skipped.reason)") }
            for failed in report.failed { console.note("  failed   \(failed.source): \(failed.reason)") }
            if !report.cancelled.isEmpty {
                console.note("  cancelled \(report.cancelled.count) load\(report.cancelled.count == 1 ? "" : "s") that had not finished; their placeholders were removed")
            }
            Self.noteWaiting(report, on: console)
        }
        try finish(report)
    }

    /// Says which loads wait for the place their copies go, and how they finish.
    static func noteWaiting(_ report: LoadReport, on console: Console) {
        guard let first = report.waiting.first else { return }
        console.note(
            "  waiting  \(LibraryError.counted(report.waiting.count, "placeholder")) keep their slots: \(first.reason); "
                + "once it answers, albums pending resume finishes them")
    }

    /// Throws the exit status of loads that were stopped by Ctrl-C (130),
    /// or of which one failed or was cancelled (1).
    func finish(_ report: LoadReport) throws {
        if interrupts.count.withLock({ $0 }) > 0 { throw ExitCode(Self.interruptedStatus) }
        if !report.succeeded { throw ExitCode(ExitStatus.refused) }
    }
}
