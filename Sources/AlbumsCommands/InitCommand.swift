import AlbumsPersistence
import ArgumentParser

struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create the library file, or upgrade an existing one.",
        discussion: "Example: albums --library trip.albums init")

    @OptionGroup var options: LibraryOptions

    func run() throws {
        try reportingErrors {
            let library = try options.open()
            print("library \(library.path) ready (schema \(EmbeddedMigrations.latestVersion))")
        }
    }
}
