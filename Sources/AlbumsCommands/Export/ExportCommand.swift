import AlbumsPersistence
import AlbumsTransfer
import ArgumentParser
import Foundation

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write an album's photos into a folder, in album order, with numbered names.",
        discussion: """
            Files are named by position, zero-padded, keeping the original name and
            extension (001-harbour.jpg, 002-market.png, …), and manifest.json lists
            them with their photo ids and SHA-256. Every source is checked before
            anything is written; existing files are never overwritten unless --force.
            Every byte copied is verified against the photo's SHA-256: a source
            changed since import refuses the export, naming it, and nothing is
            written (--allow-changed exports it as it is now; the manifest then
            records the bytes written, marked "changed"). Placeholders still
            loading are left out (and listed in the manifest).

            Examples:
              albums export "Photo book" ~/Desktop/book
              albums export Trip /media/usb/trip --link symlink
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The album.") var albumName: String
    @Argument(help: "The folder to write into (created if missing).") var folder: String
    @Option(help: "copy (default), hard (hard links) or symlink.") var link: AlbumExport.LinkMode = .copy
    @Flag(help: "Replace files of the same names in the folder.") var force = false
    @Flag(help: "Export sources whose bytes changed since import, as they are now.") var allowChanged = false
    @Flag(help: "Say what would be written, without writing.") var dryRun = false

    func run() throws {
        let planned = try global.openLibrary(for: .reading).read { try AlbumExport(album: .named(albumName), in: $0) }
        let export: AlbumExport
        if dryRun {
            try planned.check(folder: folder, replacing: force)
            export = try planned.verified(allowingChanged: allowChanged)
        } else {
            export = try planned.write(to: folder, link: link, replacing: force, allowingChanged: allowChanged)
        }
        if global.json {
            try global.console.result(json: [
                "dry_run": AnyEncodable(dryRun), "folder": AnyEncodable(folder), "files": AnyEncodable(export.entries),
                "pending_positions": AnyEncodable(export.pendingPositions),
            ])
            return
        }
        let count = export.entries.count
        let changed = export.entries.filter(\.changed).count
        let left = (export.pendingPositions.isEmpty ? "" : "; \(export.pendingPositions.count) pending placeholder(s) left out")
            + (changed == 0 ? "" : "; \(changed) changed since import (manifest: \"changed\": true)")
        let name = LibraryError.quoted(export.album.name)
        global.console.result(dryRun
            ? "would export \(count) photo\(count == 1 ? "" : "s") of \(name) to \(folder) (\(link.rawValue))\(left)"
            : "exported \(count) photo\(count == 1 ? "" : "s") of \(name) to \(folder) (\(link.rawValue)), with manifest.json\(left)")
    }
}

extension AlbumExport.LinkMode: ExpressibleByArgument {}
