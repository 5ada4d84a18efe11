import AlbumsPersistence
import AlbumsTransfer
import ArgumentParser
import Foundation

struct RelinkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "relink",
        abstract: "Find moved or missing source files by their content, and record where they are now.",
        discussion: """
            Looks in the folders given for the photos whose source is missing or no
            longer holds their bytes: a file is theirs when its SHA-256 is (files are
            hashed only when their size matches). Each photo found gets the file as
            its new source; those not found are listed. Importing the same bytes
            from a new place relinks a photo whose source is gone, too.

            --json prints {"relinked": [{"photo_id", "old_source", "new_source"}],
            "remaining": [{"photo_id", "source", "problem", "message"}], "dry_run"}.

            Examples:
              albums relink ~/Pictures/moved --recursive
              albums relink /media/usb --recursive --dry-run
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "Folders (or files) to look in.") var folders: [String]
    @Flag(help: "Look in subfolders too.") var recursive = false
    @Flag(help: "Say what would be relinked, without writing.") var dryRun = false

    func validate() throws {
        if folders.isEmpty { throw ValidationError("name at least one folder to look in") }
    }

    func run() throws {
        let library = try global.openLibrary(for: dryRun ? .reading : .writing)
        let (relinked, remaining) = try library.relinkSources(searching: folders, recursive: recursive, dryRun: dryRun)
        if global.json {
            try global.console.result(json: RelinkJSON(
                dryRun: dryRun,
                relinked: relinked.map { .init(photoID: $0.photoID.rawValue, oldSource: $0.oldSource, newSource: $0.newSource) },
                remaining: remaining.map(SourceProblemJSON.init)))
        } else {
            for link in relinked {
                global.console.result("\(dryRun ? "would relink" : "relinked") id:\(link.photoID)  \(link.oldSource) → \(link.newSource)")
            }
            for problem in remaining { global.console.note("not found  \(problem.description)") }
            global.console.result(
                "\(dryRun ? "would relink" : "relinked") \(relinked.count) photo\(relinked.count == 1 ? "" : "s")"
                    + (remaining.isEmpty ? "; every source holds its photo's bytes" : "; \(remaining.count) still missing or changed"))
        }
        if !remaining.isEmpty { throw ExitCode(ExitStatus.refused) }
    }
}

private struct RelinkJSON: Encodable {
    struct Link: Encodable {
        let photoID: Int64
        let oldSource: String
        let newSource: String

        /// The JSON keys, in snake_case.
        enum CodingKeys: String, CodingKey {
            case photoID = "photo_id"
            case oldSource = "old_source"
            case newSource = "new_source"
        }
    }

    let dryRun: Bool
    let relinked: [Link]
    let remaining: [SourceProblemJSON]

    /// The JSON keys, in snake_case.
    enum CodingKeys: String, CodingKey {
        case dryRun = "dry_run"
        case relinked
        case remaining
    }
}
