import AlbumsImporting
import AlbumsPersistence
import AlbumsTransfer
import ArgumentParser
import Foundation

struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Verify every invariant of the library; exit 1 naming each violation.",
        discussion: """
            Checks SQLite's integrity (quick_check, or integrity_check with --full),
            foreign keys, and what only albums keeps: counters, segment sizes, order
            keys. Stale placeholders are listed as notes: a normal, recoverable state
            (albums pending resume / cancel). --repair fixes what can be fixed safely
            (counters, empty or overfull segments, keys out of range), says what it
            did, and checks again. --files also reads every photo's original (the copy
            the library keeps, where it keeps one; else its source) and reports each
            one missing, unreadable, or holding other bytes than the photo's SHA-256
            (albums relink FOLDER finds moved sources).

            Examples:
              albums check
              albums check --files
              albums check --repair
            """).parsedOnItsOwn

    @OptionGroup var global: GlobalOptions
    @Flag(help: "Fix what can be fixed safely, then check again.") var repair = false
    @Flag(help: "Run integrity_check (thorough, slower) instead of quick_check.") var full = false
    @Flag(help: "With --repair: say what would be repaired, without writing.") var dryRun = false
    @Flag(help: "Also read every photo's original (its kept copy, else its source) and compare it with its SHA-256.") var files = false

    func run() async throws {
        let library = try global.openLibrary(for: repair && !dryRun ? .writing : .reading)
        let repairs = repair ? try await library.write(dryRun: dryRun) { try $0.repairInvariants() } : []
        let report = try await library.read { try $0.integrityReport(thorough: full) }
        let (violations, notes) = (report.violations, report.notes)
        let sourceProblems = files ? try await library.checkOriginals() : []
        let ok = violations.isEmpty && sourceProblems.isEmpty
        if global.json {
            var object: [String: AnyEncodable] = [
                "violations": AnyEncodable(violations.map { ["code": $0.code, "message": $0.message] }),
                "notes": AnyEncodable(notes), "repaired": AnyEncodable(repairs), "ok": AnyEncodable(ok),
            ]
            if files { object["files"] = AnyEncodable(sourceProblems.map(SourceProblemJSON.init)) }
            try global.console.result(json: object)
        } else {
            for line in repairs { global.console.result("\(dryRun ? "would repair" : "repaired ")  \(line)") }
            for note in notes { global.console.result("note      \(note)") }
            for violation in violations { global.console.note("violation \(violation.code): \(violation.message)") }
            for problem in sourceProblems {
                global.console.note("\(problem.isMotion ? "motion" : problem.isKeptCopy ? "kept  " : "source")    \(problem.issue.code): \(problem.description)")
            }
            var summary = [violations.isEmpty ? "every invariant holds" : "\(violations.count) violation\(violations.count == 1 ? "" : "s")"]
            if files {
                let kept = try await library.read { try $0.keptPhotoCounts() }.filter { $0.key != nil }.values.reduce(0, +)
                let what = kept == 0 ? "source" : "original"
                summary.append(sourceProblems.isEmpty ? "every \(what) holds its photo's bytes" + (kept == 0 ? "" : " (\(kept) kept \(kept == 1 ? "copy" : "copies"))")
                    : "\(LibraryError.counted(sourceProblems.count, what)) missing or changed")
            }
            global.console.result((ok ? "ok: " : "") + summary.joined(separator: "; "))
        }
        if !ok || (dryRun && !repairs.isEmpty) { throw ExitCode(ExitStatus.refused) }
    }
}

/// A photo whose source is missing or changed, as `check --files --json` and `relink --json` print it.
struct SourceProblemJSON: Encodable {
    let photoID: Int64
    /// What was read: the kept copy (a path, or s3://bucket/name), or the source.
    let source: String
    /// Whether it is the copy the library keeps, not a source it refers to.
    let keptCopy: Bool
    /// Whether it is a Live Photo's motion (at `source`), not the photo's file.
    let motion: Bool
    /// missing, changed or unreadable.
    let problem: String
    let message: String

    init(_ problem: SourceProblem) {
        photoID = problem.photo.id.rawValue
        source = problem.location.description
        keptCopy = problem.isKeptCopy && !problem.isMotion
        motion = problem.isMotion
        self.problem = problem.issue.code
        message = problem.description
    }

    /// The JSON keys, in snake_case.
    enum CodingKeys: String, CodingKey {
        case photoID = "photo_id"
        case source
        case keptCopy = "kept_copy"
        case motion
        case problem
        case message
    }
}
