import AlbumsImporting
import AlbumsPersistence
import AlbumsTransfer
import ArgumentParser
import Foundation

struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write an album's photos into a folder, in album order, with numbered names.",
        discussion: """
            Files are named by position, zero-padded, keeping the original name and
            extension (001-harbour.jpg, 002-market.png, …), and manifest.json lists
            them with their photo ids and SHA-256. A smart album exports the photos
            it shows, newest first, as albums list shows them. Every source is
            checked before anything is written; existing files are never
            overwritten unless --force. Exporting an album again into its own
            folder makes the folder match the album: the files of the earlier
            export that this one does not write are removed (as rsync --delete
            would), and any other file there is left and named.
            Every byte copied is verified against the photo's SHA-256: a source
            changed since import refuses the export, naming it, and nothing is
            written (--allow-changed exports it as it is now; the manifest then
            records the bytes written, marked "changed"). Placeholders still
            loading are left out (and listed in the manifest).

            Examples:
              albums export "Photo book" ~/Desktop/book
              albums export Trip /media/usb/trip --link symlink
            """).parsedOnItsOwn

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The album.") var albumName: String
    @Argument(help: "The folder to write into (created if missing).") var folder: String
    @Option(help: "copy (default), hard (hard links) or symlink.") var link: AlbumExport.LinkMode = .copy
    @Flag(help: "Replace files of the same names in the folder.") var force = false
    @Flag(help: "Export sources whose bytes changed since import, as they are now.") var allowChanged = false
    @Flag(help: "Say what would be written, without writing.") var dryRun = false

    func run() async throws {
        var planned = try await global.openLibrary(for: .reading).read { try AlbumExport(album: .named(albumName), in: $0) }
        // Copies kept in a bucket come down first, and are read from there as every source is.
        let fetched = FileManager.default.temporaryDirectory.appending(path: "albums-export-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: fetched) }
        if planned.hasBucketCopies {
            if link != .copy { throw ValidationError("--link \(link.rawValue) links files, and some of these photos are kept in a bucket: export them with --link copy") }
            planned = try await planned.fetchingBucketCopies(into: fetched)
        }
        let contents = try planned.check(folder: folder, replacing: force)
        let export = try dryRun
            ? planned.verified(allowingChanged: allowChanged)
            : planned.write(to: folder, link: link, replacing: force, allowingChanged: allowChanged)
        if global.json {
            try global.console.result(json: [
                "dry_run": AnyEncodable(dryRun), "folder": AnyEncodable(folder), "files": AnyEncodable(export.entries),
                "pending_positions": AnyEncodable(export.pendingPositions), "removed": AnyEncodable(contents.stale),
                "left": AnyEncodable(contents.others),
            ])
            return
        }
        let count = export.entries.count
        let changed = export.entries.filter(\.changed).count
        let notes = [
            export.pendingPositions.isEmpty ? nil : "\(LibraryError.counted(export.pendingPositions.count, "pending placeholder")) left out",
            changed == 0 ? nil : "\(changed) changed since import (manifest: \"changed\": true)",
            contents.stale.isEmpty ? nil : "\(dryRun ? "would remove" : "removed") \(LibraryError.counted(contents.stale.count, "file")) of the earlier export",
        ].compactMap { $0 }.map { "; " + $0 }.joined()
        let name = LibraryError.quoted(export.album.name)
        global.console.result(dryRun
            ? "would export \(LibraryError.counted(count, "photo")) of \(name) to \(folder) (\(link.rawValue))\(notes)"
            : "exported \(LibraryError.counted(count, "photo")) of \(name) to \(folder) (\(link.rawValue)), with manifest.json\(notes)")
        if !contents.others.isEmpty {
            let named = contents.others.prefix(10).joined(separator: ", ")
            let more = contents.others.count > 10 ? " and \(contents.others.count - 10) more" : ""
            global.console.result("  left in the folder (no export of this album wrote them): \(named)\(more)")
        }
    }
}

extension AlbumExport.LinkMode: ExpressibleByArgument {}
