import AlbumsPersistence
import ArgumentParser

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

    func run() async throws {
        try await reportingErrors(global.console) {
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
