import AlbumsPersistence
import ArgumentParser

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List an album's items in order.",
        discussion: "Example: albums list 'Summer 2026'")

    @OptionGroup var options: LibraryOptions
    @Argument(help: "The album to list.") var album: String

    func run() throws {
        try reportingErrors {
            try options.open().read { reader in
                let album = try reader.album(named: album)
                print("\(album.name): \(album.itemCount) items, revision \(album.revision)")
                try reader.forEachItem(in: album.id) { item in
                    switch item.content {
                    case .photo(let id): print("\(item.index + 1)\tid:\(id)")
                    case .placeholder(let load): print("\(item.index + 1)\tpending\t\(load.source)")
                    }
                    return true
                }
            }
        }
    }
}
