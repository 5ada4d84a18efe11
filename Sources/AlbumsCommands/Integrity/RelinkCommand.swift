import AlbumsImporting
import AlbumsPersistence
import AlbumsTransfer
import ArgumentParser
import Foundation

struct RelinkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "relink",
        abstract: "Find moved or missing source files by their content, and record where they are now.",
        discussion: """
            Looks in the folders given for the photos whose source is missing or no
            longer holds their bytes: a file is theirs when its SHA-256 is (files are
            hashed only when their size matches). Each photo found gets the file as
            its new source; those not found are listed. Importing the same bytes
            from a new place relinks a photo whose source is gone, too. A copy the
            library keeps (import --copy) that is missing or damaged is written
            again from the file found, verified; the photo's source stays.

            Placeholders an import left for originals it did not find (a catalog's,
            on a drive since moved) are found by their file name, when exactly one
            file has it, and loaded from there into their slots.

            A folder named that is not there is said on stderr and makes the
            status 1, after the others are looked in.

            --json prints {"relinked": [{"photo_id", "old_source", "new_source", "restored_copy"}],
            "remaining": [{"photo_id", "source", "problem", "message"}],
            "placeholders": [{"placeholder_id", "old_source", "new_source", "loaded"}],
            "placeholders_missing": [{"placeholder_id", "source"}], "dry_run"}.

            Examples:
              albums relink ~/Pictures/moved --recursive
              albums relink /media/usb --recursive --dry-run
            """).parsedOnItsOwn

    @OptionGroup var global: GlobalOptions
    @Argument(help: "Folders (or files) to look in.") var folders: [String]
    @Flag(help: "Look in subfolders too.") var recursive = false
    @Flag(help: "Say what would be relinked, without writing.") var dryRun = false

    func validate() throws {
        if folders.isEmpty { throw ValidationError("name at least one folder to look in") }
    }

    func run() async throws {
        let library = try global.openLibrary(for: dryRun ? .reading : .writing)
        // A folder that is not there is said, and fails the command, as an import's does: a typo must not read as "nothing to relink".
        let unreachable = ImportSources.unreachable(folders)
        for (path, reason) in unreachable { global.console.note("failed     \(path): \(reason)") }
        let (relinked, remaining) = try await library.relinkSources(searching: folders, recursive: recursive, dryRun: dryRun)
        let (found, missing) = try library.findPlaceholderSources(searching: folders, recursive: recursive)
        var loaded = Set<String>()
        if !dryRun {
            let report = try await library.loadPlaceholders(found, keeper: try library.currentKeeper())
            loaded = Set(report.committed.map(\.source) + report.alreadyInAlbum.map(\.source))
            for failure in report.failed { global.console.note("failed     \(failure.source): \(failure.reason)") }
        }
        if global.json {
            try global.console.result(json: RelinkJSON(
                dryRun: dryRun,
                relinked: relinked.map { .init(photoID: $0.photoID.rawValue, oldSource: $0.oldSource, newSource: $0.newSource, restoredCopy: $0.restoredCopy) },
                remaining: remaining.map(SourceProblemJSON.init),
                placeholders: found.map {
                    .init(placeholderID: $0.placeholder.rawValue, oldSource: $0.oldSource, newSource: $0.newSource, loaded: loaded.contains($0.newSource))
                },
                placeholdersMissing: missing.map { .init(placeholderID: $0.id.rawValue, source: $0.load.source) }))
        } else {
            for link in relinked {
                if link.restoredCopy {
                    global.console.result("\(dryRun ? "would restore" : "restored") id:\(link.photoID)  kept copy \(link.oldSource) ← \(link.newSource)")
                } else {
                    global.console.result("\(dryRun ? "would relink" : "relinked") id:\(link.photoID)  \(link.oldSource) → \(link.newSource)")
                }
            }
            for link in found {
                let verb = dryRun ? "would load" : loaded.contains(link.newSource) ? "loaded" : "could not load"
                global.console.result("\(verb) placeholder \(link.placeholder)  \(link.oldSource) → \(link.newSource)")
            }
            for problem in remaining { global.console.note("not found  \(problem.description)") }
            for placeholder in missing { global.console.note("not found  placeholder \(placeholder.id): \(placeholder.load.source)") }
            var summary = "\(dryRun ? "would relink" : "relinked") \(LibraryError.counted(relinked.count, "photo"))"
            if !found.isEmpty || !missing.isEmpty {
                summary += " and \(dryRun ? "load" : "loaded") \(LibraryError.counted(dryRun ? found.count : loaded.count, "placeholder"))"
            }
            let left = remaining.count + missing.count + (dryRun ? 0 : found.count - loaded.count)
            summary += left == 0 ? "; every source holds its photo's bytes" : "; \(left) still missing or changed"
            global.console.result(summary)
        }
        if !unreachable.isEmpty || !remaining.isEmpty || !missing.isEmpty || (!dryRun && loaded.count < found.count) { throw ExitCode(ExitStatus.refused) }
    }
}

private struct RelinkJSON: Encodable {
    struct Link: Encodable {
        let photoID: Int64
        let oldSource: String
        let newSource: String
        /// Whether the library's kept copy (old_source) was written again from new_source.
        let restoredCopy: Bool

        /// The JSON keys, in snake_case.
        enum CodingKeys: String, CodingKey {
            case photoID = "photo_id"
            case oldSource = "old_source"
            case newSource = "new_source"
            case restoredCopy = "restored_copy"
        }
    }

    struct Placeholder: Encodable {
        let placeholderID: Int64
        let oldSource: String
        let newSource: String
        let loaded: Bool

        /// The JSON keys, in snake_case.
        enum CodingKeys: String, CodingKey {
            case placeholderID = "placeholder_id"
            case oldSource = "old_source"
            case newSource = "new_source"
            case loaded
        }
    }

    struct MissingPlaceholder: Encodable {
        let placeholderID: Int64
        let source: String

        /// The JSON keys, in snake_case.
        enum CodingKeys: String, CodingKey {
            case placeholderID = "placeholder_id"
            case source
        }
    }

    let dryRun: Bool
    let relinked: [Link]
    let remaining: [SourceProblemJSON]
    let placeholders: [Placeholder]
    let placeholdersMissing: [MissingPlaceholder]

    /// The JSON keys, in snake_case.
    enum CodingKeys: String, CodingKey {
        case dryRun = "dry_run"
        case relinked
        case remaining
        case placeholders
        case placeholdersMissing = "placeholders_missing"
    }
}
