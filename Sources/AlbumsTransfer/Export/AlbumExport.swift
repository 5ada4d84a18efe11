import AlbumsPersistence
import Crypto
import Foundation

/// An album written out as files: its photos in album order, named by
/// position (zero-padded, keeping the original name and extension), and a
/// `manifest.json` that lists them.
///
/// ```swift
/// let export = try library.read { try AlbumExport(album: "Photo book", in: $0) }
/// try export.write(to: "/media/usb/book")
/// ```
///
/// Everything is checked before anything is written: a missing source, a
/// source whose bytes are no longer the photo's (by SHA-256), or a file
/// already in the folder refuses the whole export. Copies are written into
/// a hidden folder inside the destination, verified as they are read, and
/// moved into place only once every one is good.
public struct AlbumExport: Sendable {
    /// How each file reaches the folder.
    public enum LinkMode: String, Sendable, CaseIterable {
        /// A copy of the bytes.
        case copy
        /// A hard link to the source (same file system only).
        case hard
        /// A symbolic link to the source.
        case symlink
    }

    /// One exported photo.
    public struct Entry: Hashable, Sendable, Encodable {
        /// The photo's 1-based position in the album.
        public let position: Int
        /// The file's name in the folder: `007-harbour.jpg`.
        public let file: String
        /// The photo the file is written from.
        public let photoID: PhotoID
        /// The SHA-256 of the bytes exported: the photo's, unless its source
        /// changed and the export was told to allow it (then ``changed``).
        public var sha256: String
        /// The file the photo was imported from.
        public let source: String
        /// Whether the bytes exported differ from those imported (`--allow-changed`).
        public var changed = false

        enum CodingKeys: String, CodingKey {
            case position, file, sha256, source, changed
            case photoID = "photo_id"
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(position, forKey: .position)
            try container.encode(file, forKey: .file)
            try container.encode(photoID.rawValue, forKey: .photoID)
            try container.encode(sha256, forKey: .sha256)
            try container.encode(source, forKey: .source)
            try container.encode(changed, forKey: .changed)
        }
    }

    /// The album exported, as it stood when planned.
    public let album: Album
    /// The photos, in album order.
    public private(set) var entries: [Entry]
    /// Positions of placeholders still loading: left out, and listed in the manifest.
    public let pendingPositions: [Int]

    /// The export of `album` as the library holds it now.
    ///
    /// - Throws: ``LibraryError/albumNotFound(_:)``, or a failing file.
    public init(album reference: AlbumReference, in reader: LibraryReader) throws {
        let album = try reader.album(reference)
        let width = max(3, String(album.itemCount).count)
        var entries: [Entry] = []
        var pending: [Int] = []
        try reader.forEachListedItem(in: album.id) { item, photo in
            let position = item.index + 1
            guard let photo else {
                pending.append(position)
                return true
            }
            let number = String(position)
            let name = String(repeating: "0", count: max(0, width - number.count)) + number + "-" + photo.content.originalName
            entries.append(Entry(position: position, file: name, photoID: photo.id, sha256: photo.content.sha256Hex, source: photo.content.sourcePath))
            return true
        }
        self.album = album
        self.entries = entries
        self.pendingPositions = pending
    }

    /// The manifest's text: the album, its revision, the files and the
    /// positions left out, as sorted-key JSON.
    public func manifest() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return try encoder.encode(Manifest(album: album.name, revision: album.revision, files: entries, pendingPositions: pendingPositions))
    }

    private struct Manifest: Encodable {
        let album: String
        let revision: Int64
        let files: [Entry]
        let pendingPositions: [Int]

        /// The JSON keys, in snake_case.
        enum CodingKeys: String, CodingKey {
            case album
            case revision
            case files
            case pendingPositions = "pending_positions"
        }
    }

    /// Refuses, before anything is written, an export whose sources are
    /// missing or whose files (or manifest) already exist in `folder`
    /// (unless `replacing`). Reads no source: ``verified(allowingChanged:)`` does.
    ///
    /// - Throws: ``LibraryError/sourceMissing(path:position:count:)``, ``LibraryError/fileExists(path:)``.
    public func check(folder: String, replacing: Bool) throws {
        let manager = FileManager.default
        let missing = entries.filter { !manager.isReadableFile(atPath: $0.source) }
        if let first = missing.first {
            throw LibraryError.sourceMissing(path: first.source, position: first.position, count: missing.count)
        }
        if !replacing, let existing = targets(in: folder).first(where: { manager.fileExists(atPath: $0) }) {
            throw LibraryError.fileExists(path: existing)
        }
    }

    /// The export with each source read and its SHA-256 compared with the
    /// photo's: what a dry run reports.
    ///
    /// - Throws: ``LibraryError/sourceChanged(path:position:count:)`` unless
    ///   `allowingChanged`; a failing file.
    public func verified(allowingChanged: Bool) throws -> AlbumExport {
        var export = self
        try export.readSources(allowingChanged: allowingChanged) { _, _ in }
        return export
    }

    /// Reads each source once, calling `body` with its bytes, and records
    /// their SHA-256; refuses changed sources unless `allowingChanged`.
    private mutating func readSources(allowingChanged: Bool, _ body: (Entry, Data) throws -> Void) throws {
        var changed: [Entry] = []
        for index in entries.indices {
            let entry = entries[index]
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: entry.source))
            } catch {
                throw LibraryError.fileAccess(path: entry.source, error: error)
            }
            let digest = HexDigits.string(Data(SHA256.hash(data: data)))
            if digest != entry.sha256 {
                changed.append(entry)
                entries[index].sha256 = digest
                entries[index].changed = true
            }
            // Nothing is kept of a changed source unless it will be exported.
            if changed.isEmpty || allowingChanged { try body(entries[index], data) }
        }
        if let first = changed.first, !allowingChanged {
            throw LibraryError.sourceChanged(path: first.source, position: first.position, count: changed.count)
        }
    }

    /// Writes the files and the manifest into `folder` (created if missing),
    /// after ``check(folder:replacing:)``, verifying every byte read against
    /// the photo's SHA-256.
    ///
    /// - Parameter allowingChanged: Export a source whose bytes changed
    ///   since import as it is now; the manifest records the bytes written.
    /// - Returns: The export as written (the SHA-256 of what was written).
    /// - Throws: ``LibraryError`` for a refused export or a failing file;
    ///   nothing is then left in `folder`.
    @discardableResult
    public func write(to folder: String, link: LinkMode = .copy, replacing: Bool = false, allowingChanged: Bool = false) throws -> AlbumExport {
        try check(folder: folder, replacing: replacing)
        let manager = FileManager.default
        var export = self
        let createdFolder = !manager.fileExists(atPath: folder)
        // Copies are staged beside their targets (same file system: moving them is a rename).
        let staging = (folder as NSString).appendingPathComponent(".albums-export-\(UUID().uuidString)")
        do {
            try manager.createDirectory(atPath: staging, withIntermediateDirectories: true)
            defer { try? manager.removeItem(atPath: staging) }
            do {
                try export.readSources(allowingChanged: allowingChanged) { entry, data in
                    guard link == .copy else { return }
                    try data.write(to: URL(fileURLWithPath: (staging as NSString).appendingPathComponent(entry.file)))
                }
            } catch {
                if createdFolder { try? manager.removeItem(atPath: folder) }
                throw error
            }
            let targets = export.targets(in: folder)
            for (entry, target) in zip(export.entries, targets) {
                if replacing { try? manager.removeItem(atPath: target) }
                switch link {
                case .copy: try manager.moveItem(atPath: (staging as NSString).appendingPathComponent(entry.file), toPath: target)
                case .hard: try manager.linkItem(atPath: entry.source, toPath: target)
                case .symlink: try manager.createSymbolicLink(atPath: target, withDestinationPath: entry.source)
                }
            }
            if replacing { try? manager.removeItem(atPath: targets.last!) }
            try export.manifest().write(to: URL(fileURLWithPath: targets.last!))
            return export
        } catch let error as LibraryError {
            throw error
        } catch {
            throw LibraryError.fileAccess(path: folder, error: error)
        }
    }

    /// Where each entry goes in `folder`, then the manifest.
    public func targets(in folder: String) -> [String] {
        (entries.map(\.file) + ["manifest.json"]).map { (folder as NSString).appendingPathComponent($0) }
    }
}
