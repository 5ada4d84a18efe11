import AlbumsPersistence
import AlbumsTestSupport
import Foundation
import GRDB
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Litestream replicating a library to a file replica, or to a bucket of
/// an S3-compatible service, while several albums processes write it
/// (RELIABILITY.md, promise 7).
///
/// 1. Litestream is SIGKILLed while the writers go on; the replica restored
///    then must check clean and hold exactly a prefix of the library's
///    committed changes: the change journal's first rows, byte for byte.
/// 2. Litestream is started again (it finds the log grown under it), the
///    writers go on and are then SIGKILLed mid-command; once Litestream has
///    caught up, the restored replica must equal the library: the same
///    albums, order, photos and history, and the same journal.
///
/// Every commit a writer was told of (the album revisions in its `--json`
/// output) is looked up in the journals: in the library always, in each
/// replica when at or before its last position.
struct ReplicaHarness {
    /// Where Litestream keeps the replica.
    enum Target {
        /// A folder of the harness's work folder.
        case folder
        /// A bucket of an S3-compatible service, addressed by path (MinIO, Ceph, OpenStack Swift's s3api).
        case s3(endpoint: String, bucket: String, accessKey: String, secretKey: String, region: String)
    }

    let executable: String
    let litestream: String
    let work: String
    let seed: UInt64
    let seconds: Double
    var target: Target = .folder

    private var library: String { "\(work)/library.albums" }
    private var replica: String { "\(work)/replica" }
    private var configuration: String { "\(work)/litestream.yml" }
    static let albums = ["Summer 2026", "Photo book", "Trip: Rome"]
    static let writers = 4

    /// What one restore of the replica held.
    struct Restore {
        let name: String
        /// The newest change-journal row restored, and the library's then.
        let lastChange: Int64
        let libraryLastChange: Int64
        /// Commits the writers were told of, and how many the replica holds.
        let toldCommits: Int
        let heldCommits: Int
        let equalsLibrary: Bool?
    }

    struct Report {
        var restores: [Restore] = []
        var writerRuns = 0
        var writersKilled = 0
        var failures: [String] = []
    }

    func run() throws -> Report {
        let setup = AlbumsRunner(executable: executable, scratch: work)
        var seedFiles = try PhotoFactory(folder: "\(work)/seed", template: CrashHarness.template, tag: "seed")
        try setup.succeed(["--library", library, "init"])
        try setup.succeed(["--library", library, "checkpoints", "external"])
        for album in Self.albums {
            try setup.succeed(["--library", library, "album", "create", album])
            let files = try seedFiles.make(20)
            try setup.succeed(["--library", library, "import"] + files.map(\.path) + ["--to", album])
        }

        var report = Report()
        let told = CommitLog()
        let stop = Atomic<Bool>(false)
        let group = DispatchGroup()
        let tallies = Mutex<(runs: Int, killed: Int, failures: [String])>((0, 0, []))
        for index in 1...Self.writers {
            let scratch = "\(work)/writer-\(index)"
            try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
            let writer = ReplicaWriter(
                runner: AlbumsRunner(executable: executable, scratch: scratch), library: library,
                random: SplitMix64(seed: seed &+ UInt64(index)),
                files: try PhotoFactory(folder: "\(work)/inbox", template: CrashHarness.template, tag: "writer\(index)"))
            group.enter()
            Thread {
                var writer = writer
                let outcome = writer.loop(until: stop, telling: told)
                tallies.withLock { $0.runs += outcome.runs; $0.killed += outcome.killed; $0.failures += outcome.failures }
                group.leave()
            }.start()
        }

        // Phase 1: Litestream killed while the writers write.
        var replicator = try startLitestream(log: "litestream-1.log")
        Thread.sleep(forTimeInterval: seconds * 0.4)
        replicator.kill(SIGKILL)
        _ = try replicator.wait()
        Thread.sleep(forTimeInterval: seconds * 0.1)
        let first = try restore(as: "replica after Litestream was killed", told: told.commits, expectEqual: false, report: &report)
        report.restores.append(first)

        // Phase 2: Litestream back; the writers killed mid-command; Litestream catches up.
        replicator = try startLitestream(log: "litestream-2.log")
        Thread.sleep(forTimeInterval: seconds * 0.5)
        stop.store(true, ordering: .sequentiallyConsistent)
        group.wait()
        let outcome = tallies.withLock { $0 }
        report.writerRuns = outcome.runs
        report.writersKilled = outcome.killed
        report.failures += outcome.failures
        let target = try journal(of: library).last?.id ?? 0
        try waitForReplica(toReach: target)
        replicator.kill(SIGTERM)
        _ = try replicator.wait()
        let last = try restore(as: "replica after the writers were killed", told: told.commits, expectEqual: true, report: &report)
        report.restores.append(last)

        let check = try setup.run(["--library", library, "check"])
        if check.status != 0 { report.failures.append("the library itself fails check: \(check.stdout)\(check.stderr)") }
        return report
    }

    private func startLitestream(log: String) throws -> ChildProcess {
        try ChildProcess.spawn(litestream, ["replicate"] + (try replicaArguments()), stdout: "\(work)/\(log)", stderr: "\(work)/\(log)")
    }

    /// How Litestream is told of the library and its replica: a folder's URL
    /// on its command line, or a bucket in a configuration file (its
    /// endpoint and keys have no place in a URL).
    private func replicaArguments() throws -> [String] {
        switch target {
        case .folder:
            return [library, "file://\(replica)"]
        case .s3(let endpoint, let bucket, let accessKey, let secretKey, let region):
            func quoted(_ text: String) -> String { "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
            let yaml = """
                dbs:
                  - path: \(quoted(library))
                    replica:
                      type: s3
                      bucket: \(quoted(bucket))
                      path: library
                      endpoint: \(quoted(endpoint))
                      region: \(quoted(region))
                      force-path-style: true
                      access-key-id: \(quoted(accessKey))
                      secret-access-key: \(quoted(secretKey))
                      sync-interval: 1s

                """
            try Data(yaml.utf8).write(to: URL(fileURLWithPath: configuration))
            return ["-config", configuration]
        }
    }

    /// Restores the replica to a new file and compares it with the library.
    private func restore(as name: String, told: Set<Commit>, expectEqual: Bool, report: inout Report) throws -> Restore {
        let path = "\(work)/restored-\(report.restores.count + 1).albums"
        try restoreReplica(to: path)
        let check = try AlbumsRunner(executable: executable, scratch: work).run(["--library", path, "check"])
        if check.status != 0 {
            report.failures.append("\(name): albums check says \(check.termination): \(check.stdout)\(check.stderr)")
        }
        let restored = try journal(of: path)
        let source = try journal(of: library)
        let lastChange = restored.last?.id ?? 0
        // The replica holds a prefix: every row at or before its last one, byte for byte.
        let expected = source.filter { $0.id <= lastChange && $0.id >= (restored.first?.id ?? 1) }
        if restored != expected {
            report.failures.append("\(name): its change journal (\(restored.count) rows up to \(lastChange)) is not the library's first rows")
        }
        let inLibrary = Set(source.flatMap(\.commits))
        let missing = told.subtracting(inLibrary)
        if !missing.isEmpty {
            report.failures.append("\(missing.count) commits the writers were told of are not in the library's journal, e.g. \(missing.first!)")
        }
        let position = Dictionary(source.flatMap { row in row.commits.map { ($0, row.id) } }, uniquingKeysWith: max)
        let heldCommits = Set(restored.flatMap(\.commits))
        let due = told.filter { (position[$0] ?? .max) <= lastChange }
        if !due.isSubset(of: heldCommits) {
            report.failures.append("\(name): \(due.subtracting(heldCommits).count) commits before its last position are missing")
        }
        var equal: Bool?
        if expectEqual {
            equal = try ObservedLibrary.read(path) == ObservedLibrary.read(library) && lastChange == source.last?.id
            if equal != true { report.failures.append("\(name): the restored library differs from the library (\(lastChange) vs \(source.last?.id ?? 0))") }
        }
        return Restore(
            name: name, lastChange: lastChange, libraryLastChange: source.last?.id ?? 0,
            toldCommits: told.count, heldCommits: due.count, equalsLibrary: equal)
    }

    private func restoreReplica(to path: String) throws {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        let log = "\(work)/restore.log"
        let source = try replicaArguments()
        let arguments = if case .folder = target { ["restore", "-o", path, source[1]] } else { ["restore", "-o", path] + source + [library] }
        let child = try ChildProcess.spawn(litestream, arguments, stdout: log, stderr: log)
        guard try child.wait() == .exited(0) else {
            throw HarnessFailure("litestream restore failed: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        }
    }

    /// Restores until the replica holds `sequence`: Litestream syncs each second.
    private func waitForReplica(toReach sequence: Int64) throws {
        let deadline = ContinuousClock.now + .seconds(60)
        let probe = "\(work)/probe.albums"
        while ContinuousClock.now < deadline {
            try restoreReplica(to: probe)
            if try journal(of: probe).last?.id ?? 0 >= sequence { return }
            Thread.sleep(forTimeInterval: 0.5)
        }
        throw HarnessFailure("Litestream did not replicate change \(sequence) within 60 s; see \(work)/litestream-2.log")
    }

    /// The change journal's rows, read with plain SQL on a read-only connection.
    private func journal(of path: String) throws -> [JournalRow] {
        let queue = try observerQueue(path)
        defer { try? queue.close() }
        return try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT id, committed_at, changes FROM change_journal ORDER BY id").map { row in
                let bytes: Data = row[2]
                let operations = ChangeJournal.decode(bytes)?.operations ?? []
                return JournalRow(
                    id: row[0], committedAt: row[1], bytes: bytes,
                    commits: Set(operations.flatMap { $0.map { Commit(album: $0.albumID.rawValue, revision: $0.revision) } }))
            }
        }
    }
}

/// The commits the writers were told of, as they are told.
private final class CommitLog: Sendable {
    private let told = Mutex<Set<Commit>>([])
    var commits: Set<Commit> { told.withLock { $0 } }
    func add(_ commits: some Sequence<Commit>) { told.withLock { $0.formUnion(commits) } }
}

/// One album's revision after a commit: what a writer's `--json` output
/// reports, and what a change-journal row records.
struct Commit: Hashable, Sendable, CustomStringConvertible {
    let album: Int64
    let revision: Int64
    var description: String { "album \(album) revision \(revision)" }
}

private struct JournalRow: Equatable {
    let id: Int64
    let committedAt: String
    let bytes: Data
    let commits: Set<Commit>
}

/// One writer: moves, reorders, swaps and imports in a loop, each an albums
/// process, until told to stop; the one running then is SIGKILLed.
private struct ReplicaWriter: Sendable {
    let runner: AlbumsRunner
    let library: String
    var random: SplitMix64
    var files: PhotoFactory

    struct Outcome {
        var runs = 0
        var killed = 0
        var failures: [String] = []
    }

    mutating func loop(until stop: borrowing Atomic<Bool>, telling log: CommitLog) -> Outcome {
        var outcome = Outcome()
        while !stop.load(ordering: .sequentiallyConsistent) {
            do {
                let arguments = ["--library", library, "--json"] + (try nextCommand())
                let child = try runner.start(arguments)
                var status: Int32 = 0
                var killed = false
                while waitpid(child.pid, &status, WNOHANG) == 0 {
                    if !killed && stop.load(ordering: .sequentiallyConsistent) {
                        child.kill(SIGKILL)
                        killed = true
                    }
                    usleep(500)
                }
                outcome.runs += 1
                if killed { outcome.killed += 1; continue }
                let signal = status & 0x7F
                let run = runner.collect(child, arguments, termination: signal == 0 ? .exited((status >> 8) & 0xFF) : .signaled(signal))
                switch run.status {
                case 0:
                    let printed = try JSONDecoder().decode(Printed.self, from: Data(run.stdout.utf8))
                    log.add(printed.changes.map { Commit(album: $0.album_id, revision: $0.revision) })
                case 1:
                    break  // a position gone, a photo already there: refused, nothing written
                default:
                    outcome.failures.append("`\(run.commandLine)` ended with \(run.termination): \(run.stderr)")
                }
            } catch {
                outcome.failures.append("\(error)")
            }
        }
        return outcome
    }

    private struct Printed: Decodable {
        struct Change: Decodable {
            let album_id: Int64
            let revision: Int64
        }
        let changes: [Change]
    }

    mutating func nextCommand() throws -> [String] {
        let albums = ReplicaHarness.albums
        let album = albums.randomElement(using: &random)!
        let other = albums.filter { $0 != album }.randomElement(using: &random)!
        let from = Int.random(in: 1...20, using: &random)
        let to = (from + Int.random(in: 0...18, using: &random)) % 20 + 1  // never `from`
        switch Int.random(in: 0..<10, using: &random) {
        case 0..<4: return ["move", "\(album):\(from)", "--to", other, "--at", "\(to)"]
        case 4..<7: return ["move", "\(album):\(from)", "--to", album, "--at", "\(to)"]
        case 7..<9: return ["swap", "\(album):\(from)", "\(album):\(to)"]
        default: return ["import"] + (try files.make(Int.random(in: 1...2, using: &random))).map(\.path) + ["--to", album, "--at", "1"]
        }
    }
}
