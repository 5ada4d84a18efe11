import ArgumentParser
import Foundation

/// The reliability harnesses of albums (RELIABILITY.md). `scripts/reliability` builds and runs them.
struct ReliabilityCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "albums-reliability",
        abstract: "Kill albums at random instants, or run many albums processes at once, and check nothing is lost.",
        subcommands: [Crash.self, Concurrency.self, Replica.self])

    struct Common: ParsableArguments {
        @Option(help: "The albums binary to test.") var albums: String
        @Option(help: "A scratch folder (emptied first).") var work: String
        @Option(help: "Seed of the random choices.") var seed: UInt64 = 20261121

        func prepareWork() throws {
            try? FileManager.default.removeItem(atPath: work)
            try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        }
    }

    struct Crash: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "SIGKILL transfers, imports, resumes and inits at random instants.")
        @OptionGroup var common: Common
        @Option(help: "How many kills to survive.") var kills = 300

        func run() throws {
            try common.prepareWork()
            let started = ContinuousClock.now
            let harness = CrashHarness(
                runner: AlbumsRunner(executable: common.albums, scratch: common.work),
                work: common.work, seed: common.seed, kills: kills)
            let tallies = try harness.run()
            let seconds = (ContinuousClock.now - started) / .seconds(1)
            let rows = CrashStep.Kind.allCases.compactMap { kind -> [String]? in
                guard let tally = tallies[kind] else { return nil }
                return [kind.rawValue, "\(tally.killed)", "\(tally.killedUntouched)", "\(tally.killedApplied)", "\(tally.killedPartway)", "\(tally.completed)"]
            }
            let total = tallies.values.reduce(0) { $0 + $1.killed }
            print(markdownTable(["command", "killed", "left as before", "fully applied", "load partway (resumable)", "ran to the end"], rows))
            print("\n\(total) kills survived, nothing lost (seed \(common.seed), \(String(format: "%.0f", seconds)) s)")
        }
    }
}

extension ReliabilityCommand {
    struct Concurrency: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Run imports, moves, reorders, copies and inspections at once on one library.")
        @OptionGroup var common: Common
        @Option(help: "How long the processes run, in seconds.") var seconds = 20.0

        func run() throws {
            try common.prepareWork()
            let harness = ConcurrencyHarness(executable: common.albums, work: common.work, seed: common.seed, seconds: seconds)
            let report = try harness.run()
            let rows = ConcurrencyHarness.Role.allCases.map { role -> [String] in
                let tally = report.tallies[role] ?? .init()
                return [role.rawValue, "\(role.workers)", "\(tally.succeeded)", "\(tally.refused)", "\(tally.failures.count)", String(format: "%.2f s", tally.slowestSeconds)]
            }
            print(markdownTable(["commands", "processes", "succeeded", "refused (position gone, photo already there; import: placeholder removed)", "failed", "slowest"], rows))
            for failure in report.failures.prefix(20) { print("FAILED: \(failure)", to: &standardError) }
            guard report.failures.isEmpty else {
                throw HarnessFailure("\(report.failures.count) of \(report.processes) processes failed; library kept in \(common.work)")
            }
            print("\n\(report.processes) processes in \(Int(seconds)) s, no lock error; check passes; \(report.photos) photos, exactly those imported (seed \(common.seed))")
        }
    }
}

extension ReliabilityCommand {
    struct Replica: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Replicate a library with Litestream while albums processes write; kill Litestream, then the writers; restore and compare.")
        @OptionGroup var common: Common
        @Option(help: "The litestream binary.") var litestream: String
        @Option(help: "How long the writers write, in seconds.") var seconds = 20.0
        @Option(help: ArgumentHelp(
            "Replicate to this bucket of the S3-compatible service ALBUMS_TEST_S3_ENDPOINT names (keys: ALBUMS_TEST_S3_ACCESS_KEY, ALBUMS_TEST_S3_SECRET_KEY) rather than to a folder.",
            valueName: "BUCKET"))
        var s3Bucket: String?

        func run() throws {
            try common.prepareWork()
            var harness = ReplicaHarness(executable: common.albums, litestream: litestream, work: common.work, seed: common.seed, seconds: seconds)
            if let s3Bucket {
                let environment = ProcessInfo.processInfo.environment
                guard let endpoint = environment["ALBUMS_TEST_S3_ENDPOINT"], let key = environment["ALBUMS_TEST_S3_ACCESS_KEY"],
                    let secret = environment["ALBUMS_TEST_S3_SECRET_KEY"]
                else { throw HarnessFailure("--s3-bucket needs ALBUMS_TEST_S3_ENDPOINT, _ACCESS_KEY and _SECRET_KEY: eval \"$(scripts/object-storage env)\"") }
                harness.target = .s3(
                    endpoint: endpoint, bucket: s3Bucket, accessKey: key, secretKey: secret, region: environment["ALBUMS_TEST_S3_REGION"] ?? "us-east-1")
                print("replica: bucket \(s3Bucket) at \(endpoint)")
            }
            let report = try harness.run()
            let rows = report.restores.map { restore -> [String] in
                [restore.name, "\(restore.lastChange) of \(restore.libraryLastChange)", "\(restore.heldCommits) of \(restore.toldCommits)",
                 restore.equalsLibrary.map { $0 ? "yes" : "NO" } ?? "(a prefix)"]
            }
            print(markdownTable(["restored", "last change held (library's)", "writers' commits held (told so far)", "equals the library"], rows))
            for failure in report.failures.prefix(20) { print("FAILED: \(failure)", to: &standardError) }
            guard report.failures.isEmpty else {
                throw HarnessFailure("\(report.failures.count) failures; files kept in \(common.work)")
            }
            print("\n\(report.writerRuns) albums processes by \(ReplicaHarness.writers) writers in \(Int(seconds)) s, \(report.writersKilled) killed mid-command; "
                + "every restored replica checks clean and holds every commit before its last position (seed \(common.seed))")
        }
    }
}

ReliabilityCommand.main()
