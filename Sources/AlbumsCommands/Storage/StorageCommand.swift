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

            A bucket of any S3-compatible service (AWS S3, Backblaze B2, MinIO,
            Ceph, OpenStack Swift) is a place too: `albums storage bucket NAME
            --endpoint URL` checks that it answers to the keys in the environment
            (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or a profile of
            ~/.aws/credentials, AWS_PROFILE naming it), which never enter the library.
            A command that reaches a bucket runs in albums-serve, beside albums.

            Examples:
              albums storage
              albums storage folder /mnt/photos/originals
              albums storage bucket family-photos --endpoint https://s3.eu-west-1.amazonaws.com --region eu-west-1
              albums storage move --all
            """,
        subcommands: [Show.self, Folder.self, Bucket.self, Move.self],
        defaultSubcommand: Show.self).parsedOnItsOwn

    /// Makes `kind` the library's place and says so, and how many copies stay elsewhere.
    static func choose(_ kind: StoragePlace.Kind, in library: Library, global: GlobalOptions) throws {
        let (place, elsewhere) = try library.write { writer in
            let place = try writer.chooseStoragePlace(kind)
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
            let library = try global.openLibrary(for: .writing)
            // Made and tried only once the library opens: a command that fails leaves no folder behind.
            let candidate = StoragePlace(id: StoragePlaceID(rawValue: 0), kind: .folder(folder), chosenAt: Date())
            try FolderKeeper(place: candidate)?.makeWritable()
            try StorageCommand.choose(.folder(folder), in: library, global: global)
        }
    }

    struct Bucket: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "bucket", abstract: "Keep new copies of originals in a bucket of an S3-compatible service.").parsedOnItsOwn

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The bucket's name.") var name: String
        @Option(help: ArgumentHelp("The service's address (https://s3.eu-west-1.amazonaws.com, http://127.0.0.1:9000).", valueName: "URL"))
        var endpoint: String
        @Option(help: "The region requests are signed for.") var region = "us-east-1"
        @Option(help: ArgumentHelp("A folder of the bucket to keep them in (photos/).", valueName: "PREFIX")) var prefix = ""

        func validate() throws {
            guard let url = URL(string: endpoint), ["http", "https"].contains(url.scheme ?? ""), url.host() != nil,
                url.path().isEmpty || url.path() == "/", url.query == nil
            else { throw ValidationError("--endpoint takes the service's address, such as https://s3.eu-west-1.amazonaws.com, with no path") }
            // S3's rule for bucket names: 3 to 63 lowercase letters, digits, dots and hyphens.
            guard (3...63).contains(name.count), name.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "." || $0 == "-" })
            else { throw ValidationError("'\(name)' is not a bucket name: 3 to 63 lowercase letters, digits, dots and hyphens") }
            guard !region.isEmpty, region.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else {
                throw ValidationError("--region takes a region's name, such as eu-west-1")
            }
            guard !prefix.hasPrefix("/"), !prefix.contains("//"), prefix.allSatisfy({ $0.isASCII && !$0.isWhitespace && $0 != "\\" }) else {
                throw ValidationError("--prefix takes a folder of the bucket, such as photos/, in plain ASCII")
            }
        }

        func run() async throws {
            var endpoint = self.endpoint
            while endpoint.hasSuffix("/") { endpoint.removeLast() }
            let address = BucketAddress(name: name, endpoint: endpoint, region: region, prefix: prefix.isEmpty || prefix.hasSuffix("/") ? prefix : prefix + "/")
            let library = try global.openLibrary(for: .writing)
            // Reached before it is chosen: a bucket that does not answer is never the library's place.
            let candidate = StoragePlace(id: StoragePlaceID(rawValue: 0), kind: .bucket(address), chosenAt: Date())
            try await OriginalKeepers.keeper(for: candidate).check()
            try StorageCommand.choose(.bucket(address), in: library, global: global)
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
                console.result("moved \(LibraryError.counted(result.moved.count, "copy", plural: "copies")) into \(keeper.place)")
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
