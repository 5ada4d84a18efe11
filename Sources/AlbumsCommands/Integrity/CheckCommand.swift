import AlbumsPersistence
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
            did, and checks again.

            Examples:
              albums check
              albums check --repair
            """)

    @OptionGroup var global: GlobalOptions
    @Flag(help: "Fix what can be fixed safely, then check again.") var repair = false
    @Flag(help: "Run integrity_check (thorough, slower) instead of quick_check.") var full = false
    @Flag(help: "With --repair: say what would be repaired, without writing.") var dryRun = false

    func run() async throws {
        try await reportingErrors(global.console) {
            let library = try global.openLibrary(for: repair && !dryRun ? .writing : .reading)
            let repairs = repair ? try library.write(dryRun: dryRun) { try $0.repairInvariants() } : []
            let report = try library.read { try $0.integrityReport(thorough: full) }
            let (violations, notes) = (report.violations, report.notes)
            if global.json {
                try global.console.result(json: [
                    "violations": AnyEncodable(violations.map { ["code": $0.code, "message": $0.message] }),
                    "notes": AnyEncodable(notes), "repaired": AnyEncodable(repairs), "ok": AnyEncodable(violations.isEmpty),
                ])
            } else {
                for line in repairs { global.console.result("\(dryRun ? "would repair" : "repaired ")  \(line)") }
                for note in notes { global.console.result("note      \(note)") }
                for violation in violations { global.console.note("violation \(violation.code): \(violation.message)") }
                global.console.result(violations.isEmpty ? "ok: every invariant holds" : "\(violations.count) violation\(violations.count == 1 ? "" : "s")")
            }
            if !violations.isEmpty || (dryRun && !repairs.isEmpty) { throw ExitCode(ExitStatus.refused) }
        }
    }
}
