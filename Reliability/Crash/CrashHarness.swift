import AlbumsPersistence
import AlbumsTestSupport
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Runs commands in a child process and SIGKILLs it at random instants;
/// after each kill, checks the file against the model.
struct CrashHarness {
    let runner: AlbumsRunner
    let work: String
    let seed: UInt64
    let kills: Int

    /// What happened to the commands of one kind.
    struct Tally {
        var completed = 0
        var killedUntouched = 0
        var killedApplied = 0
        var killedPartway = 0
        var killed: Int { killedUntouched + killedApplied + killedPartway }
        /// Typical run time of the command when not killed, to aim the kills.
        var typicalSeconds = 0.08
    }

    private var library: String { "\(work)/crash.albums" }

    func run() throws -> [CrashStep.Kind: Tally] {
        var random = SplitMix64(seed: seed)
        var tallies: [CrashStep.Kind: Tally] = [:]
        var model = try setUp()
        var workload = CrashWorkload(
            random: SplitMix64(seed: seed ^ 0x9E37_79B9_7F4A_7C15),
            factory: try PhotoFactory(folder: "\(work)/inbox", template: Self.template, tag: "import"),
            library: library, batchFile: "\(work)/batch.jsonl")
        var killed = 0
        var step = 0
        var kept = KeptStates()
        while killed < kills {
            step += 1
            let roll = Int.random(in: 0..<100, using: &random)
            let plan: CrashStep
            if roll < 10, let target = kept.undo.last {
                plan = CrashStep(kind: .undo, arguments: ["--library", library, "undo"], expectedStatus: 0, completed: target, placed: nil, files: [])
            } else if roll < 20, let target = kept.redo.last {
                plan = CrashStep(kind: .redo, arguments: ["--library", library, "redo"], expectedStatus: 0, completed: target, placed: nil, files: [])
            } else {
                plan = try workload.next(model)
            }
            var tally = tallies[plan.kind] ?? Tally()
            let typical = tally.typicalSeconds
            let delay = Self.killDelay(for: tally, using: &random)
            let context = "seed \(seed), step \(step), \(plan.kind.rawValue), " + (delay.map { "killed after \(Int($0 * 1000)) ms" } ?? "not killed")
            do {
                if plan.kind == .initialize {
                    try initialize(killingAfter: delay, tally: &tally)
                } else {
                    let previous = model
                    let (before, after) = try perform(plan, killingAfter: delay, model: &model, tally: &tally)
                    // An undo goes back to an older model: keep what is known about files since.
                    model.contentOf.merge(previous.contentOf) { current, _ in current }
                    model.nameOf.merge(previous.nameOf) { current, _ in current }
                    kept.follow(plan.kind, from: previous, before: before, after: after)
                }
            } catch let failure as HarnessFailure {
                throw HarnessFailure("\(context): \(failure.description)\n  command: \(plan.arguments.joined(separator: " ").prefix(300))\n  library kept in \(work)")
            }
            let killedNow = tally.killed - (tallies[plan.kind]?.killed ?? 0)
            // Killed late: the run may be longer than the typical one the
            // completed runs suggest (long runs are the ones killed), so aim later.
            if killedNow > 0, let delay, delay >= typical * 0.9 { tally.typicalSeconds *= 1.03 }
            killed += killedNow
            tallies[plan.kind] = tally
            if step % 50 == 0 {
                print("crash: step \(step), \(killed) kills survived", to: &standardError)
            }
        }
        return tallies
    }

    /// When to kill, in seconds: never on the first run of a kind, which is
    /// timed; then half the kills anywhere in a typical run, half in its last
    /// stretch, where the commit, the checkpoint and the close happen.
    private static func killDelay(for tally: Tally, using random: inout SplitMix64) -> Double? {
        if tally.completed == 0 && tally.killed == 0 { return nil }
        let typical = tally.typicalSeconds
        return Bool.random(using: &random)
            ? Double.random(in: 0...(typical * 1.25), using: &random)
            : Double.random(in: (typical * 0.7)...(typical * 1.1), using: &random)
    }

    /// A library with four albums of photos, and the model of it.
    private func setUp() throws -> LibraryModel {
        try? FileManager.default.removeItem(atPath: library)
        try runner.succeed(["--library", library, "init"])
        var factory = try PhotoFactory(folder: "\(work)/seed", template: Self.template, tag: "seed")
        var nameOf: [String: String] = [:]
        for album in Self.albums {
            try runner.succeed(["--library", library, "album", "create", album])
            let files = try factory.make(150)
            try runner.succeed(["--library", library, "import"] + files.map(\.path) + ["--to", album])
            for file in files { nameOf[file.sha256] = file.name }
        }
        // People for the sharing steps, made through the library (their
        // passwords are not what is tested here).
        let people = try Library.open(at: library)
        let hash = try PasswordHash(password: "crash harness", cost: 4)
        try people.write { writer in
            for name in CrashWorkload.people { try writer.addPerson(named: name, password: hash) }
        }
        try people.close()
        var model = LibraryModel(try ObservedLibrary.read(library))
        model.nameOf = nameOf
        return model
    }

    /// Runs one step, maybe killed; checks what must hold, and returns the library before and after it.
    @discardableResult
    private func perform(
        _ plan: CrashStep, killingAfter delay: Double?, model: inout LibraryModel, tally: inout Tally
    ) throws -> (before: ObservedLibrary, after: ObservedLibrary) {
        let before = try ObservedLibrary.read(library)
        let child = try runner.start(plan.arguments)
        let termination = try kill(child, after: delay)
        let run = runner.collect(child, plan.arguments, termination: termination)

        try requireCheckPasses()
        let after = try ObservedLibrary.read(library)
        try requirePhotosKept(before: before, after: after, files: plan.files)
        // Who may do what changes only by a sharing step, as a whole or not at all.
        let sharingNow = plan.sharing ?? before.sharing
        let sharingAllowed: [[String]] = if case .signaled = termination { [before.sharing, sharingNow] } else { [sharingNow] }
        guard sharingAllowed.contains(after.sharing) else {
            throw HarnessFailure("who may do what is \(after.sharing), expected \(sharingAllowed.map { "\($0)" }.joined(separator: " or "))")
        }

        switch termination {
        case .signaled(SIGKILL):
            if plan.kind == .sharing, matches(after, model) {
                // The albums stay; the sharing was checked above to be as before or as asked.
                if after.sharing == plan.sharing && after.sharing != before.sharing { tally.killedApplied += 1 } else { tally.killedUntouched += 1 }
            } else if matches(after, model) {
                tally.killedUntouched += 1
            } else if matches(after, plan.completed) {
                tally.killedApplied += 1
            } else if let placed = plan.placed, isPartway(after, placed: placed, completed: plan.completed) {
                tally.killedPartway += 1
            } else {
                throw HarnessFailure("killed, the file is neither as before nor as requested: \(after.difference(from: observed(plan.completed, photos: after.photos)))")
            }
        case .exited(plan.expectedStatus):
            guard matches(after, plan.completed) else {
                throw HarnessFailure("completed, but the file is not as requested: \(after.difference(from: observed(plan.completed, photos: after.photos)))")
            }
            tally.completed += 1
            tally.typicalSeconds = tally.completed == 1 ? run.seconds : tally.typicalSeconds * 0.8 + run.seconds * 0.2
        default:
            throw HarnessFailure("ended with \(termination), expected exit status \(plan.expectedStatus): \(run.stderr)")
        }
        try requirePlaceholdersResumable(after)
        model = plan.completed
        model.adopt(after)
        return (before, after)
    }

    /// Kills `albums init` of a new file: afterwards there is no library (no
    /// file, or one `init` can still use) or a whole one.
    private func initialize(killingAfter delay: Double?, tally: inout Tally) throws {
        let fresh = "\(work)/fresh.albums"
        for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: fresh + suffix) }
        let arguments = ["--library", fresh, "init"]
        let child = try runner.start(arguments)
        let termination = try kill(child, after: delay)
        let run = runner.collect(child, arguments, termination: termination)
        if case .exited(let status) = termination, status != 0 {
            throw HarnessFailure("init failed: \(run.stderr)")
        }
        // All migrations commit in one transaction: killed before it, the
        // file is missing or holds no library (reads say so, exit 74, and
        // init then makes one); killed after it, the library is whole.
        var exists = FileManager.default.fileExists(atPath: fresh)
        if exists {
            let check = try runner.run(["--library", fresh, "check"])
            if check.status == 74 && check.stderr.contains("no library") {
                exists = false
                try runner.succeed(["--library", fresh, "init"])
                try runner.succeed(["--library", fresh, "check"])
            } else if check.status != 0 {
                throw HarnessFailure("after a killed init, check says: \(check.stdout)\(check.stderr)")
            }
            try runner.succeed(["--library", fresh, "album", "create", "After the kill"])
        }
        switch termination {
        case .signaled:
            if exists { tally.killedApplied += 1 } else { tally.killedUntouched += 1 }
        case .exited:
            tally.completed += 1
            tally.typicalSeconds = tally.completed == 1 ? run.seconds : tally.typicalSeconds * 0.8 + run.seconds * 0.2
        }
    }

    /// SIGKILLs the child after `delay` seconds (if it still runs), and reaps it.
    private func kill(_ child: ChildProcess, after delay: Double?) throws -> Termination {
        if let delay {
            usleep(useconds_t(delay * 1_000_000))
            child.kill(SIGKILL)
        }
        return try child.wait()
    }

    // MARK: What must hold after every kill

    private func requireCheckPasses() throws {
        let check = try runner.run(["--library", library, "check"])
        guard check.status == 0 else {
            throw HarnessFailure("`albums check` ended with \(check.termination): \(check.stdout)\(check.stderr)")
        }
    }

    /// Every photo that was there is still there, and the only new ones are this step's.
    private func requirePhotosKept(before: ObservedLibrary, after: ObservedLibrary, files: [PhotoFile]) throws {
        let lost = before.photos.subtracting(after.photos)
        guard lost.isEmpty else { throw HarnessFailure("\(lost.count) photos lost: \(lost.prefix(3))") }
        let unexpected = after.photos.subtracting(before.photos).subtracting(files.map(\.sha256))
        guard unexpected.isEmpty else { throw HarnessFailure("\(unexpected.count) photos from nowhere") }
        // A photo row enters with the slot it fills, in one transaction.
        let placedNow = Set(after.albums.values.flatMap { $0 }.compactMap { if case .photo(let sha) = $0 { sha } else { nil } })
        let orphans = after.photos.subtracting(before.photos).subtracting(placedNow)
        guard orphans.isEmpty else { throw HarnessFailure("\(orphans.count) new photos in no album: a load committed halfway") }
    }

    /// Every placeholder left is listed as stale, so `pending resume` picks it up.
    private func requirePlaceholdersResumable(_ after: ObservedLibrary) throws {
        let placeholders = after.placeholders
        guard !placeholders.isEmpty else { return }
        let pending = try runner.succeed(["--library", library, "--json", "pending", "list"])
        let listed = try JSONDecoder().decode(PendingList.self, from: Data(pending.stdout.utf8)).pending
        let stale = Set(listed.filter(\.stale).map(\.source))
        let notResumable = placeholders.filter { !stale.contains($0) }
        guard notResumable.isEmpty, listed.count == placeholders.count else {
            throw HarnessFailure("placeholders not listed as stale: \(notResumable.prefix(3)); \(listed.count) listed of \(placeholders.count)")
        }
    }

    private struct PendingList: Decodable {
        struct Entry: Decodable {
            let source: String
            let stale: Bool
        }
        let pending: [Entry]
    }

    // MARK: Comparing with the model

    private func matches(_ observed: ObservedLibrary, _ model: LibraryModel) -> Bool {
        observed.children == model.children && observed.albumOrder == model.albumOrder && observed.albums == model.albums
    }

    /// A load killed partway: every other slot as requested, each of the
    /// load's slots either still a placeholder or committed.
    private func isPartway(_ observed: ObservedLibrary, placed: LibraryModel, completed: LibraryModel) -> Bool {
        guard observed.children == completed.children, observed.albumOrder == completed.albumOrder else { return false }
        return completed.albumOrder.allSatisfy { name in
            let slots = observed.albums[name]!, done = completed.albums[name]!, waiting = placed.albums[name]!
            return slots.count == done.count && slots.indices.allSatisfy { slots[$0] == done[$0] || slots[$0] == waiting[$0] }
        }
    }

    private func observed(_ model: LibraryModel, photos: Set<String>) -> ObservedLibrary {
        ObservedLibrary(albums: model.albums, albumOrder: model.albumOrder, children: model.children, photos: photos)
    }

    static let albums = ["Summer 2026", "Photo book", "Été à Paris", "Trip: Rome"]
    static var template: String { "\(packageRoot)/Examples/Photos/01-harbour.jpg" }
}
