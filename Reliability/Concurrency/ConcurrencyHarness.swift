import AlbumsTestSupport
import Foundation
import Synchronization

/// Several albums processes on one library at once, for a bounded time.
/// No lock error may reach a user; afterwards the file passes `check` and
/// holds exactly the photos imported.
struct ConcurrencyHarness {
    let executable: String
    let work: String
    let seed: UInt64
    let seconds: Double

    /// What one kind of worker does in a loop.
    enum Role: String, CaseIterable {
        case importer = "import"
        case mover = "move, remove, apply"
        case reorderer = "reorder, swap, sort"
        case copier = "copy"
        case inspector = "inspect, list, check"

        /// How many processes of this role run side by side.
        var workers: Int { self == .importer ? 2 : 1 }
    }

    /// The runs of one role.
    struct Tally {
        var succeeded = 0
        var refused = 0
        var slowestSeconds = 0.0
        var failures: [String] = []
    }

    struct Report {
        var tallies: [Role: Tally]
        var photos: Int
        var processes: Int { tallies.values.reduce(0) { $0 + $1.succeeded + $1.refused + $1.failures.count } }
        var failures: [String] { tallies.values.flatMap(\.failures) }
    }

    private var library: String { "\(work)/concurrency.albums" }
    static let albums = ["Summer 2026", "Photo book", "Trip: Rome"]

    func run() throws -> Report {
        let setup = AlbumsRunner(executable: executable, scratch: work)
        var seedFiles = try PhotoFactory(folder: "\(work)/seed", template: CrashHarness.template, tag: "seed")
        try setup.succeed(["--library", library, "init"])
        var expected = Set<String>()
        for album in Self.albums {
            try setup.succeed(["--library", library, "album", "create", album])
            let files = try seedFiles.make(30)
            try setup.succeed(["--library", library, "import"] + files.map(\.path) + ["--to", album])
            expected.formUnion(files.map(\.sha256))
        }

        let deadline = ContinuousClock.now + .seconds(seconds)
        let tallies = Mutex<[Role: Tally]>([:])
        let imported = Mutex<Set<String>>([])
        let group = DispatchGroup()
        var index = 0
        for role in Role.allCases {
            for _ in 0..<role.workers {
                index += 1
                let scratch = "\(work)/worker-\(index)"
                try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
                let worker = Worker(
                    role: role, runner: AlbumsRunner(executable: executable, scratch: scratch),
                    library: library, random: SplitMix64(seed: seed &+ UInt64(index)),
                    files: try PhotoFactory(folder: "\(work)/inbox", template: CrashHarness.template, tag: "worker\(index)"))
                group.enter()
                Thread {
                    var worker = worker
                    let (tally, shas) = worker.loop(until: deadline)
                    tallies.withLock { all in
                        var merged = all[role] ?? Tally()
                        merged.succeeded += tally.succeeded
                        merged.refused += tally.refused
                        merged.slowestSeconds = max(merged.slowestSeconds, tally.slowestSeconds)
                        merged.failures += tally.failures
                        all[role] = merged
                    }
                    imported.withLock { $0.formUnion(shas) }
                    group.leave()
                }.start()
            }
        }
        group.wait()

        var report = Report(tallies: tallies.withLock { $0 }, photos: 0)
        let check = try setup.run(["--library", library, "check"])
        if check.status != 0 {
            report.tallies[.inspector, default: Tally()].failures.append("final check: \(check.stdout)\(check.stderr)")
        }
        expected.formUnion(imported.withLock { $0 })
        let photos = try ObservedLibrary.read(library).photos
        report.photos = photos.count
        if photos != expected {
            report.tallies[.importer, default: Tally()].failures.append(
                "the library holds \(photos.count) photos, \(photos.subtracting(expected).count) unexpected; "
                    + "\(expected.count) were imported, \(expected.subtracting(photos).count) missing")
        }
        return report
    }
}

/// One process slot: runs albums commands of its role, one after another.
private struct Worker: Sendable {
    let role: ConcurrencyHarness.Role
    let runner: AlbumsRunner
    let library: String
    var random: SplitMix64
    var files: PhotoFactory

    mutating func loop(until deadline: ContinuousClock.Instant) -> (ConcurrencyHarness.Tally, Set<String>) {
        var tally = ConcurrencyHarness.Tally()
        var imported = Set<String>()
        while ContinuousClock.now < deadline {
            do {
                let (arguments, mayBeRefused, newFiles) = try nextCommand()
                let run = try runner.run(["--library", library] + arguments)
                tally.slowestSeconds = max(tally.slowestSeconds, run.seconds)
                if role == .importer {
                    try account(import: run, files: newFiles, tally: &tally, imported: &imported)
                } else if let failure = Self.failure(of: run, mayBeRefused: mayBeRefused) {
                    tally.failures.append(failure)
                } else if run.status == 0 {
                    tally.succeeded += 1
                } else {
                    tally.refused += 1
                }
            } catch {
                tally.failures.append("\(error)")
            }
        }
        return (tally, imported)
    }

    /// An import succeeds, or is cut short by another process removing its
    /// placeholders (a remove cancels their loads): exit 1 with only
    /// cancellations, never a failure. Either way, what it reports imported
    /// must be in the library at the end.
    private func account(import run: CompletedRun, files: [PhotoFile], tally: inout ConcurrencyHarness.Tally, imported: inout Set<String>) throws {
        if let failure = Self.failure(of: run, mayBeRefused: true) {
            tally.failures.append(failure)
            return
        }
        guard let report = try? JSONDecoder().decode(ImportReport.self, from: Data(run.stdout.utf8)) else {
            tally.failures.append("`\(run.commandLine)` ended with \(run.termination) and no JSON report: stdout \(run.stdout.debugDescription), stderr \(run.stderr.debugDescription)")
            return
        }
        let shaOf = Dictionary(uniqueKeysWithValues: files.map { ($0.path, $0.sha256) })
        imported.formUnion(report.imported.compactMap { shaOf[$0.source] })
        if run.status == 0 && report.cancelled.isEmpty {
            tally.succeeded += 1
        } else if run.status == 1 && report.failed.isEmpty && !report.cancelled.isEmpty {
            tally.refused += 1
        } else {
            tally.failures.append("`\(run.commandLine)` ended with \(run.termination): \(run.stdout) \(run.stderr)")
        }
    }

    private struct ImportReport: Decodable {
        struct Imported: Decodable { let source: String }
        let imported: [Imported]
        let failed: [[String: String]]
        let cancelled: [String]
    }

    /// A lock error, a crash or an unexpected status, described; nil for an outcome the contract allows.
    static func failure(of run: CompletedRun, mayBeRefused: Bool) -> String? {
        let lockWords = ["busy", "database is locked", "sqlite_locked"]
        if run.status == 75 || lockWords.contains(where: run.stderr.lowercased().contains) {
            return "lock error after \(String(format: "%.2f", run.seconds)) s: `\(run.commandLine)`: \(run.stderr)"
        }
        switch run.status {
        case 0: return nil
        case 1 where mayBeRefused: return nil
        default:
            // inspect and check say what they found on stdout, not stderr.
            return "`\(run.commandLine)` ended with \(run.termination): \(run.stderr)\(run.stdout.prefix(2_000))"
        }
    }

    /// The next command, whether a refusal is a normal outcome for it (a
    /// position may be gone by the time it runs), and the files it imports.
    mutating func nextCommand() throws -> ([String], Bool, [PhotoFile]) {
        let albums = ConcurrencyHarness.albums
        let album = albums.randomElement(using: &random)!
        let other = albums.filter { $0 != album }.randomElement(using: &random)!
        let position = Int.random(in: 1...25, using: &random)
        let roll = Int.random(in: 0..<10, using: &random)
        switch role {
        case .importer:
            let new = try files.make(Int.random(in: 1...4, using: &random))
            return (["--json", "import"] + new.map(\.path) + ["--to", album, "--at", "1", "--jobs", "2"], false, new)
        case .mover:
            if roll < 2 { return (["remove", "\(album):\(position)"], true, []) }
            if roll < 4 {
                let batch = "\(runner.scratch)/batch.jsonl"
                let lines = (0..<10).map { _ in
                    #"{"op": "move", "items": ["\#(album):\#(Int.random(in: 1...25, using: &random))"], "to": "\#(other)", "at": 1}"#
                }
                try lines.joined(separator: "\n").write(toFile: batch, atomically: false, encoding: .utf8)
                return (["apply", batch], true, [])
            }
            return (["move", "\(album):\(position)", "--to", other, "--at", "\(Int.random(in: 1...5, using: &random))"], true, [])
        case .reorderer:
            if roll < 2 { return (["album", "sort", album, "--by", "name"] + (Bool.random(using: &random) ? ["--descending"] : []), true, []) }
            if roll < 5 { return (["swap", "\(album):\(position)", "\(album):\(Int.random(in: 1...25, using: &random))"], true, []) }
            return (["move", "\(album):\(position)-\(position + 3)", "--to", album, "--at", "\(Int.random(in: 1...20, using: &random))"], true, [])
        case .copier:
            return (["copy", "\(album):\(position)", "--to", other], true, [])
        case .inspector:
            switch roll {
            case 0..<3: return (["inspect"], false, [])
            case 3..<6: return (["--json", "list", album], false, [])
            case 6..<8: return (["--json", "album", "list"], false, [])
            default: return (["check"], false, [])
            }
        }
    }
}
