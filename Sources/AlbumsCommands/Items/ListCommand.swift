import AlbumsPersistence
import ArgumentParser

struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List an album's items in order.",
        discussion: """
            Pending placeholders are marked "pending" with the source they load.

            Example: albums list "Summer 2026"
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The album to list.") var album: String

    func run() async throws {
        try await reportingErrors(global.console) {
            try global.openLibrary().read { reader in
                let album = try reader.album(named: album)
                global.console.result("\(album.name): \(album.itemCount) items, revision \(album.revision)")
                try reader.forEachItem(in: album.id) { item in
                    switch item.content {
                    case .photo(let id): global.console.result("\(item.index + 1)\tid:\(id)")
                    case .placeholder(let load): global.console.result("\(item.index + 1)\tpending\t\(load.source)")
                    }
                    return true
                }
            }
        }
    }
}
