import AlbumsPersistence
import ArgumentParser

/// Where a created or moved album or folder goes in the tree, as typed:
/// `--into FOLDER` (a path; `/` is the top level), `--at N`, `--before X`,
/// `--after X` (an album by name or path, or a folder by path).
struct TreePlacementOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The folder it goes into, as a path (Travel/2026); / is the top level. Alone: last there.", valueName: "FOLDER"))
    var into: String?

    @Option(
        name: [.customLong("at"), .customLong("to", withSingleDash: false)],
        help: ArgumentHelp("Its 1-based place among the folder's children afterwards (without --into: the folder it is in).", valueName: "N"))
    var at: Int?

    @Option(help: ArgumentHelp("Just before this album (name or path) or folder (path), in its folder.", valueName: "X"))
    var before: String?

    @Option(help: ArgumentHelp("Just after this album (name or path) or folder (path), in its folder.", valueName: "X"))
    var after: String?

    func validate() throws {
        if let at, at < 1 { throw ValidationError("--at \(at): positions start at 1") }
        let relative = [before, after].compactMap { $0 }.count
        if relative > 1 || (relative == 1 && (into != nil || at != nil)) {
            throw ValidationError("give --into (with or without --at), --at, or one of --before / --after")
        }
    }

    /// The placement, or nil when none was given.
    var placement: TreePlacement? {
        let folder: FolderReference?? = into.map { $0 == "/" ? nil : .path($0) }
        switch (folder, at, before, after) {
        case (let folder?, let at?, _, _): return .at(at - 1, in: folder)
        case (let folder?, nil, _, _): return .into(folder)
        case (nil, let at?, _, _): return .position(at - 1)
        case (nil, nil, let before?, _): return .before(.named(before))
        case (nil, nil, nil, let after?): return .after(.named(after))
        case (nil, nil, nil, nil): return nil
        }
    }

    /// Words for where it goes, for the human output.
    var words: String {
        switch placement {
        case .into(let folder?): "into \(folder)"
        case .into(nil): "to the top level"
        case .at(let index, let folder?): "into \(folder) at position \(index + 1)"
        case .at(let index, nil): "to the top level at position \(index + 1)"
        case .position(let index): "to position \(index + 1)"
        case .before(let node): "before \(node)"
        case .after(let node): "after \(node)"
        case nil: "where it is"
        }
    }
}
