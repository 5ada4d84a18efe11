import AlbumsPersistence
import ArgumentParser
import Foundation

struct InitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create the library file, or upgrade an existing one.",
        discussion: """
            Examples:
              albums init
              albums --library ~/Books/summer.albums init
            """)

    @OptionGroup var global: GlobalOptions
    @Flag(help: "Say whether the file would be created or upgraded, without touching it.") var dryRun = false

    func run() async throws {
        try await reportingErrors(global.console) {
            if dryRun {
                let path = global.resolvedPath()
                guard FileManager.default.fileExists(atPath: path) else {
                    global.console.result("would create \(path) (schema \(EmbeddedMigrations.latestVersion))")
                    return
                }
                let inspection = try LibraryInspection.inspect(path: path)
                let pending = inspection.migrations.filter { !$0.isApplied }.count
                global.console.result(
                    !inspection.isLibrary && !inspection.tableRows.isEmpty ? "\(path) is not an albums library; init would refuse it"
                        : pending == 0 ? "\(path) is up to date (schema \(inspection.schemaVersion))"
                        : "would upgrade \(path) from schema \(inspection.schemaVersion) to \(EmbeddedMigrations.latestVersion), keeping a backup")
                return
            }
            let library = try global.openLibrary()
            let version = EmbeddedMigrations.latestVersion
            if global.json {
                try global.console.result(json: ["library": library.path, "schema_version": "\(version)"])
            } else {
                global.console.result("library \(library.path) ready (schema \(version))")
            }
        }
    }
}
