import AlbumsImporting
import AlbumsPersistence
import AlbumsWire
import ArgumentParser
import Foundation

struct StorageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "storage",
        abstract: "Say or choose where the library keeps copies of its originals.",
        discussion: """
            By default a library refers to its photos where they are and keeps no
            copy. `albums import --copy` keeps a verified copy of each file in the
            library's place: a folder it manages (by default LIBRARY-originals,
            beside the library file). A copy is named by its content
            (ab/abcdef….jpg), so the same photo is kept once. Where a photo is
            kept is one of its facts (`albums show`); `albums check --files`
            reads the kept copies; the server, thumbnails and export read a
            photo's copy before its source.

            Choosing a new place leaves the copies where they are, still read
            there; `albums storage move` brings them over, each copied and
            verified before the old one is deleted, so a move stopped anywhere
            loses nothing and running it again finishes it. --all also copies
            the photos only their sources hold.

            Examples:
              albums storage
              albums storage folder /mnt/photos/originals
              albums storage move --all
            """,
        subcommands: [Show.self, Folder.self, Move.self],
        defaultSubcommand: Show.self).parsedOnItsOwn

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "Say where the library keeps its originals, and how many in each place.").parsedOnItsOwn

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let library = try global.openLibrary(for: .reading)
            let (places, counts) = try library.read { (try $0.storagePlaces(), try $0.keptPhotoCounts()) }
            let current = places.last
            let referenced = counts[nil] ?? 0
            if global.json {
                try global.console.result(json: StorageJSON(
                    current: current.map { PlaceJSON($0, photos: counts[$0.id] ?? 0) },
                    older: places.dropLast().map { PlaceJSON($0, photos: counts[$0.id] ?? 0) }, referenced: referenced,
                    defaultFolder: library.defaultOriginalsFolder))
                return
            }
            if let current {
                global.console.result("originals kept in \(current): \(LibraryError.counted(counts[current.id] ?? 0, "photo"))")
            } else {
                global.console.result("originals kept nowhere: the library refers to its photos where they are")
                global.console.result("  import --copy would keep them in folder \(library.defaultOriginalsFolder)")
            }
            for place in places.dropLast() where (counts[place.id] ?? 0) > 0 {
                global.console.result("  still in \(place): \(LibraryError.counted(counts[place.id] ?? 0, "photo")) (albums storage move brings them)")
            }
            global.console.result("only at their sources: \(LibraryError.counted(referenced, "photo"))")
        }
    }

    struct Folder: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "folder", abstract: "Keep new copies of originals in this folder (made if missing).").parsedOnItsOwn

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The folder; a relative path is taken from the current folder.") var path: String

        func run() throws {
            let folder = URL(fileURLWithPath: path).standardizedFileURL.path
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw KeepingFailure.unwritable(place: "folder \(folder)", detail: LibraryError.describeFileError(error))
            }
            guard access(folder, W_OK) == 0 else { throw KeepingFailure.unwritable(place: "folder \(folder)", detail: String(cString: strerror(errno))) }
            let library = try global.openLibrary(for: .writing)
            let (place, elsewhere) = try library.write { writer in
                let place = try writer.chooseStoragePlace(.folder(folder))
                return (place, try writer.photosKept(elsewhereThan: place.id).count)
            }
            if global.json {
                try global.console.result(json: ["current": PlaceJSON(place, photos: nil)])
                return
            }
            global.console.result("new copies of originals are kept in \(place)")
            if elsewhere > 0 {
                global.console.note("albums: \(LibraryError.counted(elsewhere, "photo")) kept elsewhere stay there until albums storage move brings them")
            }
        }
    }

    struct Move: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "move", abstract: "Bring every kept copy into the library's place (--all: every photo's original).").parsedOnItsOwn

        @OptionGroup var global: GlobalOptions
        @Flag(help: "Also keep a copy of each photo only its source holds (the source stays).") var all = false

        func run() async throws {
            let library = try global.openLibrary(for: .writing)
            let keeper: any OriginalKeeper
            if all {
                keeper = try library.keeperForCopies()
            } else if let current = try library.currentKeeper() {
                keeper = current
            } else {
                throw ValidationError("the library keeps its originals nowhere yet: albums storage folder PATH chooses a place, or --all keeps every photo in \(library.defaultOriginalsFolder)")
            }
            let console = global.console
            let result = try await library.moveOriginals(to: keeper, includingSources: all) { done, total in
                console.progress("\(done)/\(total)")
            }
            console.endProgress()
            if global.json {
                try console.result(json: MoveJSON(
                    place: PlaceJSON(keeper.place, photos: nil), moved: result.moved.map(\.rawValue), kept: result.kept.map(\.rawValue),
                    failed: result.failed.map { .init(photoID: $0.photoID.rawValue, from: $0.from, reason: $0.reason) }))
            } else {
                console.result("moved \(LibraryError.counted(result.moved.count, "copy")) into \(keeper.place)".replacingOccurrences(of: "copys", with: "copies"))
                if all { console.result("kept \(LibraryError.counted(result.kept.count, "photo")) only their sources held") }
                for failure in result.failed { console.note("failed   photo id:\(failure.photoID): \(failure.from): \(failure.reason)") }
            }
            if !result.isComplete { throw ExitCode(ExitStatus.refused) }
        }
    }
}

/// A storage place as `albums storage --json` says it.
struct PlaceJSON: Encodable {
    let kind: String
    let location: String
    @KeptNull var endpoint: String?
    @KeptNull var photos: Int?

    init(_ place: StoragePlace, photos: Int?) {
        switch place.kind {
        case .folder(let path): (kind, location, endpoint) = ("folder", path, nil)
        case .bucket(let bucket): (kind, location, endpoint) = ("bucket", "s3://\(bucket.name)/\(bucket.prefix)", bucket.endpoint)
        }
        self.photos = photos
    }
}

/// `albums storage --json`.
struct StorageJSON: Encodable {
    @KeptNull var current: PlaceJSON?
    let older: [PlaceJSON]
    /// Photos only their sources hold.
    let referenced: Int
    /// Where `import --copy` keeps copies while no place is chosen.
    let defaultFolder: String

    enum CodingKeys: String, CodingKey {
        case current, older, referenced
        case defaultFolder = "default_folder"
    }
}

/// `albums storage move --json`.
struct MoveJSON: Encodable {
    struct Failure: Encodable {
        let photoID: Int64
        let from: String
        let reason: String

        enum CodingKeys: String, CodingKey {
            case photoID = "photo_id"
            case from, reason
        }
    }

    let place: PlaceJSON
    let moved: [Int64]
    let kept: [Int64]
    let failed: [Failure]
}
