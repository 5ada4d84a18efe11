import AlbumsPersistence
import ArgumentParser
import Foundation

struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create the library file, or upgrade an existing one.",
        discussion: """
            Examples:
              albums init
              albums --library ~/Books/summer.albums init
            """).parsedOnItsOwn

    @OptionGroup var global: GlobalOptions
    @Flag(help: "Say whether the file would be created or upgraded, without touching it.") var dryRun = false

    func run() throws {
        if dryRun {
            let path = global.resolvedPath()
            let plan: InitPlanJSON
            if !FileManager.default.fileExists(atPath: path) {
                plan = InitPlanJSON(library: path, action: "create", schemaVersion: 0, text: "would create \(path) (schema \(EmbeddedMigrations.latestVersion))")
            } else {
                let inspection = try LibraryInspection.inspect(path: path)
                let pending = inspection.migrations.filter { !$0.isApplied }.count
                plan = !inspection.isLibrary && !inspection.tableRows.isEmpty
                    ? InitPlanJSON(library: path, action: "refuse", schemaVersion: inspection.schemaVersion, text: "\(path) is not an albums library; init would refuse it")
                    : pending == 0
                    ? InitPlanJSON(library: path, action: "none", schemaVersion: inspection.schemaVersion, text: "\(path) is up to date (schema \(inspection.schemaVersion))")
                    : InitPlanJSON(library: path, action: "upgrade", schemaVersion: inspection.schemaVersion,
                        text: "would upgrade \(path) from schema \(inspection.schemaVersion) to \(EmbeddedMigrations.latestVersion), keeping a backup")
            }
            if global.json { try global.console.result(json: plan) } else { global.console.result(plan.text) }
            return
        }
        let library = try global.openLibrary(for: .creating)
        let version = EmbeddedMigrations.latestVersion
        if global.json {
            try global.console.result(json: InitJSON(library: library.path, schemaVersion: version))
        } else {
            global.console.result("library \(library.path) ready (schema \(version))")
        }
    }
}

/// What `init --json` prints.
struct InitJSON: Encodable {
    let library: String
    let schemaVersion: Int

    /// The JSON keys, in snake_case.
    enum CodingKeys: String, CodingKey {
        case library
        case schemaVersion = "schema_version"
    }
}

/// What `init --dry-run --json` prints: what init would do (create, upgrade,
/// none, refuse), the file's schema version now, and the latest.
struct InitPlanJSON: Encodable {
    let library: String
    let action: String
    let schemaVersion: Int
    let latestSchemaVersion = EmbeddedMigrations.latestVersion
    let dryRun = true
    /// The same in words, for the text output.
    let text: String

    /// The JSON keys, in snake_case (`text` is not one of them).
    enum CodingKeys: String, CodingKey {
        case library, action
        case schemaVersion = "schema_version"
        case latestSchemaVersion = "latest_schema_version"
        case dryRun = "dry_run"
    }
}
