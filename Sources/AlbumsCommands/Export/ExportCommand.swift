import AlbumsPersistence
import ArgumentParser
import Foundation

struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write an album's photos into a folder, in album order, with numbered names.",
        discussion: """
            Files are named by position, zero-padded, keeping the original name and
            extension (001-harbour.jpg, 002-market.png, …), and manifest.json lists
            them with their photo ids and SHA-256. Every source is checked before
            anything is written; existing files are never overwritten unless --force.
            Placeholders still loading are left out (and listed in the manifest).

            Examples:
              albums export "Photo book" ~/Desktop/book
              albums export Trip /media/usb/trip --link symlink
            """)

    enum LinkMode: String, ExpressibleByArgument, CaseIterable {
        case copy, hard, symlink
    }

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The album.") var albumName: String
    @Argument(help: "The folder to write into (created if missing).") var folder: String
    @Option(help: "copy (default), hard (hard links) or symlink.") var link: LinkMode = .copy
    @Flag(help: "Replace files of the same names in the folder.") var force = false
    @Flag(help: "Say what would be written, without writing.") var dryRun = false

    struct Entry: Encodable {
        let position: Int
        let file: String
        let photo_id: Int64
        let sha256: String
        let source: String
    }

    func run() async throws {
        try await reportingErrors(global.console) {
            let (album, listed) = try global.openLibrary().read { reader -> (Album, [(AlbumItem, Photo?)]) in
                let album = try reader.album(named: albumName)
                var listed: [(AlbumItem, Photo?)] = []
                try reader.forEachListedItem(in: album.id) { listed.append(($0, $1)); return true }
                return (album, listed)
            }
            let width = max(3, String(album.itemCount).count)
            let manager = FileManager.default
            var entries: [Entry] = []
            var pending: [Int] = []
            for (item, photo) in listed {
                guard let photo else { pending.append(item.index + 1); continue }
                let name = String(format: "%0\(width)d-", item.index + 1) + photo.content.originalName
                entries.append(Entry(position: item.index + 1, file: name, photo_id: photo.id.rawValue, sha256: photo.content.sha256Hex, source: photo.content.sourcePath))
            }
            // Check everything first: nothing is half-written.
            let missing = entries.filter { !manager.isReadableFile(atPath: $0.source) }
            if let first = missing.first {
                throw CommandFailure(status: ExitStatus.refused, code: "source_missing",
                    message: "\(missing.count) source file\(missing.count == 1 ? " is" : "s are") missing, first \(first.source) (position \(first.position)); nothing was written")
            }
            let targets = entries.map { (folder as NSString).appendingPathComponent($0.file) } + [(folder as NSString).appendingPathComponent("manifest.json")]
            if !force, let existing = targets.first(where: { manager.fileExists(atPath: $0) }) {
                throw CommandFailure(status: ExitStatus.refused, code: "file_exists", message: "\(existing) already exists; --force replaces it")
            }
            if dryRun {
                if global.json {
                    try global.console.result(json: [
                        "dry_run": AnyEncodable(true), "folder": AnyEncodable(folder), "files": AnyEncodable(entries),
                        "pending_positions": AnyEncodable(pending),
                    ])
                } else {
                    global.console.result("would export \(entries.count) photos of \(LibraryError.quoted(album.name)) to \(folder) (\(link.rawValue))")
                }
                return
            }
            do {
                try manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
                for (entry, target) in zip(entries, targets) {
                    if force { try? manager.removeItem(atPath: target) }
                    switch link {
                    case .copy: try manager.copyItem(atPath: entry.source, toPath: target)
                    case .hard: try manager.linkItem(atPath: entry.source, toPath: target)
                    case .symlink: try manager.createSymbolicLink(atPath: target, withDestinationPath: entry.source)
                    }
                }
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
                let manifest = try encoder.encode([
                    "album": AnyEncodable(album.name), "revision": AnyEncodable(album.revision),
                    "files": AnyEncodable(entries), "pending_positions": AnyEncodable(pending),
                ])
                try manifest.write(to: URL(fileURLWithPath: targets.last!))
            } catch {
                throw LibraryError.fileAccess(path: folder, error: error)
            }
            if global.json {
                try global.console.result(json: ["folder": AnyEncodable(folder), "files": AnyEncodable(entries), "pending_positions": AnyEncodable(pending)])
            } else {
                global.console.result("exported \(entries.count) photo\(entries.count == 1 ? "" : "s") of \(LibraryError.quoted(album.name)) to \(folder) (\(link.rawValue)), with manifest.json"
                    + (pending.isEmpty ? "" : "; \(pending.count) pending placeholder(s) left out"))
            }
        }
    }
}
