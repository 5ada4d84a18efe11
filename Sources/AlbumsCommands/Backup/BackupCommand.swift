import AlbumsPersistence
import ArgumentParser
import Foundation

struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the library, consistent and checked, while it is in use.",
        discussion: """
            The copy is one snapshot (SQLite's online backup): every change committed
            before it began, none after; other processes go on writing meanwhile.
            It is checked (integrity_check and every invariant) before it takes its
            name, so DEST is either a sound library or untouched. A folder as DEST
            gets a file named like the library.

            --json prints {"backup", "bytes", "albums", "photos", "items", "last_change"}:
            last_change is the newest change the copy holds (the sequence of albums
            serve's events).

            Examples:
              albums backup /mnt/usb/photos.albums
              albums backup /mnt/usb/ --force
            """).parsedOnItsOwn

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The backup file, or a folder to put it in.") var destination: String
    @Flag(help: "Replace a file already at DEST.") var force = false

    func run() throws {
        try backUp()
    }

    private func backUp() throws {
        let library = try global.openLibrary(for: .reading, concurrentReads: true)
        var target = destination
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: target, isDirectory: &isFolder), isFolder.boolValue {
            target = (target as NSString).appendingPathComponent((library.path as NSString).lastPathComponent)
        }
        let backup = try library.backUp(to: target, replacing: force)
        try library.close()
        if global.json {
            try global.console.result(json: BackupJSON(
                backup: backup.path, bytes: backup.byteCount, albums: backup.albumCount, photos: backup.photoCount,
                items: backup.itemCount, lastChange: backup.lastChange))
            return
        }
        global.console.result(
            "backed up to \(backup.path): \(backup.albumCount) album\(backup.albumCount == 1 ? "" : "s"), "
                + "\(backup.photoCount) photo\(backup.photoCount == 1 ? "" : "s"), \(backup.itemCount) item\(backup.itemCount == 1 ? "" : "s"), "
                + "\(ByteCountFormatter.string(fromByteCount: backup.byteCount, countStyle: .file)); checked: ok")
    }
}

/// What `backup --json` prints.
private struct BackupJSON: Encodable {
    let backup: String
    let bytes: Int64
    let albums: Int
    let photos: Int
    let items: Int
    let lastChange: Int64

    /// The JSON keys, in snake_case.
    enum CodingKeys: String, CodingKey {
        case backup
        case bytes
        case albums
        case photos
        case items
        case lastChange = "last_change"
    }
}
