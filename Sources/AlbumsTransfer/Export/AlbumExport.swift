import AlbumsPersistence
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
/// Everything is checked before anything is written: a missing source or
/// a file already in the folder refuses the whole export.
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
        public let photoID: PhotoID
        public let sha256: String
        /// The file the photo was imported from.
        public let source: String

        enum CodingKeys: String, CodingKey { case position, file, photo_id, sha256, source }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(position, forKey: .position)
            try container.encode(file, forKey: .file)
            try container.encode(photoID.rawValue, forKey: .photo_id)
            try container.encode(sha256, forKey: .sha256)
            try container.encode(source, forKey: .source)
        }
    }

    public let album: Album
    /// The photos, in album order.
    public let entries: [Entry]
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
        return try encoder.encode(Manifest(album: album.name, revision: album.revision, files: entries, pending_positions: pendingPositions))
    }

    private struct Manifest: Encodable {
        let album: String
        let revision: Int64
        let files: [Entry]
        let pending_positions: [Int]
    }

    /// Refuses, before anything is written, an export whose sources are
    /// missing or whose files (or manifest) already exist in `folder`
    /// (unless `replacing`).
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

    /// Writes the files and the manifest into `folder` (created if missing),
    /// after ``check(folder:replacing:)``.
    ///
    /// - Throws: ``LibraryError`` for a refused export or a failing file.
    public func write(to folder: String, link: LinkMode = .copy, replacing: Bool = false) throws {
        try check(folder: folder, replacing: replacing)
        let manager = FileManager.default
        let targets = targets(in: folder)
        do {
            try manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for (entry, target) in zip(entries, targets) {
                if replacing { try? manager.removeItem(atPath: target) }
                switch link {
                case .copy: try manager.copyItem(atPath: entry.source, toPath: target)
                case .hard: try manager.linkItem(atPath: entry.source, toPath: target)
                case .symlink: try manager.createSymbolicLink(atPath: target, withDestinationPath: entry.source)
                }
            }
            if replacing { try? manager.removeItem(atPath: targets.last!) }
            try manifest().write(to: URL(fileURLWithPath: targets.last!))
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
