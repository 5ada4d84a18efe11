import AlbumsPersistence
import Crypto
import Foundation

/// An album written out as files: the photos it shows in its order (a
/// smart album's newest first, as it lists them), named by position
/// (zero-padded, keeping the original name and extension), and a
/// `manifest.json` that lists them. What is written on an item (its
/// title, caption, rating, keywords) goes beside its file as an XMP
/// sidecar (``Entry/sidecar``), which exiftool, digiKam and darktable read.
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
///
/// An export into the folder of an earlier export of the same album makes
/// the folder match the album: the files the earlier manifest listed and
/// this export does not write go (``FolderContents/stale``); anything else
/// in the folder stays and is named (``FolderContents/others``).
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
        /// What the photo is read from: the copy the library keeps (a path,
        /// or `s3://bucket/name`), else the file it was imported from.
        public let source: String
        /// Whether the bytes exported differ from those imported (`--allow-changed`).
        public var changed = false
        /// The XMP sidecar written beside the file (`007-harbour.jpg.xmp`);
        /// nil when the item carries nothing a sidecar holds.
        public var sidecar: String? { sidecarText == nil ? nil : XMPSidecar.name(for: file) }
        /// The sidecar's text.
        var sidecarText: String?
        /// A Live Photo's motion, written beside its still under the same
        /// name with the motion's extension (`007-IMG_0042.MOV`).
        public var motion: Motion?
        /// The file the bytes are read from: ``source``, or where a bucket's copy was fetched to.
        var readFrom: String
        /// The bucket holding the photo's copy, with the photo's content, when the copy is there.
        var inBucket: (place: StoragePlace, content: PhotoContent)?

        public static func == (lhs: Entry, rhs: Entry) -> Bool {
            (lhs.position, lhs.file, lhs.photoID, lhs.sha256, lhs.source, lhs.changed) == (rhs.position, rhs.file, rhs.photoID, rhs.sha256, rhs.source, rhs.changed)
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(position)
            hasher.combine(file)
            hasher.combine(photoID)
        }

        enum CodingKeys: String, CodingKey {
            case position, file, sha256, source, changed, sidecar, motion
            case photoID = "photo_id"
        }

        /// The files the entry writes: its own, its motion's, its sidecar.
        var fileNames: [String] { [file] + (motion.map { [$0.file] } ?? []) + (sidecar.map { [$0] } ?? []) }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(position, forKey: .position)
            try container.encode(file, forKey: .file)
            try container.encode(photoID.rawValue, forKey: .photoID)
            try container.encode(sha256, forKey: .sha256)
            try container.encode(source, forKey: .source)
            try container.encode(changed, forKey: .changed)
            try container.encodeIfPresent(sidecar, forKey: .sidecar)
            try container.encodeIfPresent(motion?.file, forKey: .motion)
        }
    }

    /// A Live Photo's motion, exported with its still.
    public struct Motion: Hashable, Sendable {
        /// Its name in the folder.
        public let file: String
        /// The SHA-256 of its bytes.
        public let sha256: String
        /// Where it is read from: its copy kept beside its still's, else its source.
        public let source: String
        /// The file the bytes are read from: ``source``, or where a bucket's copy was fetched to.
        var readFrom: String
        /// The bucket holding its copy, with its content, when the copy is there.
        var inBucket: BucketCopy?
    }

    /// A copy kept in a bucket: fetched into a file before an export reads it.
    struct BucketCopy: Hashable, Sendable {
        let place: StoragePlace
        let content: PhotoContent
    }

    /// What an export finds in its folder, besides the files it writes.
    public struct FolderContents: Hashable, Sendable {
        /// Files of the folder's earlier export that this one does not
        /// write: removed by ``AlbumExport/write(to:link:replacing:allowingChanged:)``.
        public var stale: [String] = []
        /// Files no export of this album wrote there: left as they are.
        public var others: [String] = []
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
        var shown: [(position: Int, photo: Photo)] = []
        var pending: [Int] = []
        var marks: [Int: ItemMarks] = [:]
        if album.isSmart {
            var cursor: PhotoSearchCursor?
            repeat {
                let page = try reader.smartAlbumPhotos(album, limit: 2_000, after: cursor)
                for found in page.photos { shown.append((shown.count + 1, found.photo)) }
                cursor = page.next
            } while cursor != nil
        } else {
            let marked = try reader.markedItems(in: album.id)
            try reader.forEachListedItem(in: album.id) { item, photo in
                if let itemMarks = marked[item.id] { marks[item.index + 1] = itemMarks }
                if let photo { shown.append((item.index + 1, photo)) } else { pending.append(item.index + 1) }
                return true
            }
        }
        let width = max(3, String(shown.count + pending.count).count)
        self.entries = try shown.map { position, photo in
            let number = String(position)
            let name = String(repeating: "0", count: max(0, width - number.count)) + number + "-" + photo.content.originalName
            // The copy the library keeps, where it keeps one: the source may be a card wiped since.
            let original = try reader.originalLocation(of: photo)
            var entry = Entry(
                position: position, file: name, photoID: photo.id, sha256: photo.content.sha256Hex, source: original.description,
                readFrom: original.description)
            entry.sidecarText = marks[position].flatMap(XMPSidecar.text(for:))
            if let motion = photo.content.motion, let kept = photo.content.motionAsContent, let location = try reader.motionLocation(of: photo) {
                let stem = (name as NSString).deletingPathExtension
                let fileExtension = (motion.sourcePath as NSString).pathExtension
                entry.motion = Motion(
                    file: fileExtension.isEmpty ? stem + ".mov" : stem + "." + fileExtension, sha256: motion.sha256Hex, source: location.description,
                    readFrom: location.description)
                if case .keptObject(_, let place) = location { entry.motion?.inBucket = BucketCopy(place: place, content: kept) }
            }
            if case .keptObject(_, let place) = original { entry.inBucket = (place, photo.content) }
            return entry
        }
        self.album = album
        self.pendingPositions = pending
    }

    /// The manifest's text: the album, its revision, the files and the
    /// positions left out, as sorted-key JSON.
    public func manifest() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return try encoder.encode(
            Manifest(album: album.name, albumID: album.id.rawValue, revision: album.revision, files: entries, pendingPositions: pendingPositions))
    }

    private struct Manifest: Encodable {
        let album: String
        let albumID: Int64
        let revision: Int64
        let files: [Entry]
        let pendingPositions: [Int]

        /// The JSON keys, in snake_case.
        enum CodingKeys: String, CodingKey {
            case album
            case albumID = "album_id"
            case revision
            case files
            case pendingPositions = "pending_positions"
        }
    }

    /// What an earlier export left in a folder: its manifest, read only as
    /// far as this needs (manifests written before `album_id` name the album only).
    private struct EarlierManifest: Decodable {
        struct File: Decodable {
            let file: String
            let sidecar: String?
            let motion: String?
        }
        let album: String
        let albumID: Int64?
        let files: [File]

        enum CodingKeys: String, CodingKey {
            case album, files
            case albumID = "album_id"
        }

        /// The manifest in `folder`, if one is there and reads as an export's.
        static func read(in folder: String) -> EarlierManifest? {
            let path = (folder as NSString).appendingPathComponent("manifest.json")
            guard let data = FileManager.default.contents(atPath: path) else { return nil }
            return try? JSONDecoder().decode(EarlierManifest.self, from: data)
        }

        func isExport(of album: Album) -> Bool {
            albumID.map { $0 == album.id.rawValue } ?? (self.album == album.name)
        }

        /// The files it lists that are plain names in its folder: a manifest
        /// is a file anyone can edit, and never names what lies elsewhere.
        var fileNames: Set<String> {
            let listed: [String] = files.flatMap { file -> [String] in [file.file] + [file.sidecar, file.motion].compactMap { $0 } }
            return Set(listed.filter { !$0.isEmpty && $0 != "." && $0 != ".." && !$0.contains("/") && !$0.contains("\0") })
        }
    }

    /// Whether some photos' copies are kept in a bucket: fetched by
    /// ``fetchingBucketCopies(into:)`` before they are read, and never linked.
    public var hasBucketCopies: Bool { entries.contains { $0.inBucket != nil || $0.motion?.inBucket != nil } }

    /// The export with each copy kept in a bucket fetched into a file in
    /// `folder` (a part at a time, never whole in memory), read from there
    /// and verified as every source is; the manifest still names the bucket.
    ///
    /// - Throws: ``KeepingFailure``: a bucket out of this program's reach, a copy missing.
    public func fetchingBucketCopies(into folder: String) async throws -> AlbumExport {
        var fetched = self
        func fetch(_ content: PhotoContent, from place: StoragePlace) async throws -> String {
            let keeper = try OriginalKeepers.keeper(for: place)
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let path = (folder as NSString).appendingPathComponent(content.sha256Hex)
            try await BucketDownload.write(content, from: keeper, to: path)
            return path
        }
        for index in entries.indices {
            if let (place, content) = entries[index].inBucket { fetched.entries[index].readFrom = try await fetch(content, from: place) }
            if let copy = entries[index].motion?.inBucket { fetched.entries[index].motion?.readFrom = try await fetch(copy.content, from: copy.place) }
        }
        return fetched
    }

    /// Checks, before anything is written, that every source is there and
    /// that the export may write into `folder`, and says what it finds there.
    /// A file of the same name as one it writes refuses it (unless
    /// `replacing`), except one the folder's earlier export of this album
    /// wrote; an earlier export of another album is replaced only when
    /// `replacing`. Reads no source: ``verified(allowingChanged:)`` does.
    ///
    /// - Throws: ``LibraryError/sourceMissing(path:position:count:)``, ``LibraryError/fileExists(path:)``.
    @discardableResult
    public func check(folder: String, replacing: Bool) throws -> FolderContents {
        let manager = FileManager.default
        let missing = entries.filter { !manager.isReadableFile(atPath: $0.readFrom) || $0.motion.map { !manager.isReadableFile(atPath: $0.readFrom) } == true }
        if let first = missing.first {
            throw LibraryError.sourceMissing(path: first.source, position: first.position, count: missing.count)
        }
        let present = Set((try? manager.contentsOfDirectory(atPath: folder)) ?? [])
        let earlier = EarlierManifest.read(in: folder)
        let manifestPath = (folder as NSString).appendingPathComponent("manifest.json")
        if present.contains("manifest.json"), !replacing, earlier?.isExport(of: album) != true {
            throw LibraryError.fileExists(path: manifestPath)
        }
        // Only files and links are ever replaced or removed: never a folder someone keeps there.
        let files = present.filter { Self.isFileOrLink((folder as NSString).appendingPathComponent($0)) }
        let earlierFiles = earlier?.fileNames.intersection(files) ?? []
        let writing = Set(entries.flatMap(\.fileNames) + ["manifest.json"])
        if let clash = writing.sorted().first(where: { present.contains($0) && (!files.contains($0) || !replacing && !earlierFiles.contains($0) && $0 != "manifest.json") }) {
            throw LibraryError.fileExists(path: (folder as NSString).appendingPathComponent(clash))
        }
        let stale = earlierFiles.subtracting(writing)
        let others = present.subtracting(writing).subtracting(stale)
        return FolderContents(stale: stale.sorted(), others: others.sorted())
    }

    /// The export with each source read and its SHA-256 compared with the
    /// photo's: what a dry run reports.
    ///
    /// - Throws: ``LibraryError/sourceChanged(path:position:count:)`` unless
    ///   `allowingChanged`; a failing file.
    public func verified(allowingChanged: Bool) throws -> AlbumExport {
        var export = self
        try export.readSources(allowingChanged: allowingChanged, into: nil)
        return export
    }

    /// Reads each source once, a few megabytes at a time (a video is
    /// gigabytes), into a file of the same name in `staging` when one is
    /// given, and records their SHA-256; a Live Photo's motion likewise.
    /// Refuses changed sources unless `allowingChanged`; a changed motion always.
    private mutating func readSources(allowingChanged: Bool, into staging: String?) throws {
        var changed: [Entry] = []
        for index in entries.indices {
            let entry = entries[index]
            let digest = try Self.copy(entry.readFrom, named: entry.source, into: staging.map { ($0 as NSString).appendingPathComponent(entry.file) })
            if digest != entry.sha256 {
                changed.append(entry)
                entries[index].sha256 = digest
                entries[index].changed = true
            }
            if let motion = entry.motion {
                let target = staging.map { ($0 as NSString).appendingPathComponent(motion.file) }
                guard try Self.copy(motion.readFrom, named: motion.source, into: target) == motion.sha256 else {
                    throw LibraryError.sourceChanged(path: motion.source, position: entry.position, count: 1)
                }
            }
        }
        if let first = changed.first, !allowingChanged {
            throw LibraryError.sourceChanged(path: first.source, position: first.position, count: changed.count)
        }
    }

    /// Reads the file at `path` (shown as `source` in errors), writing it to
    /// `target` when given; answers the SHA-256 of what was read, in hex.
    private static func copy(_ path: String, named source: String, into target: String?) throws -> String {
        guard let input = FileHandle(forReadingAtPath: path) else {
            throw LibraryError.fileAccess(path: source, error: CocoaError(.fileReadNoSuchFile))
        }
        defer { try? input.close() }
        var output: FileHandle?
        if let target {
            guard FileManager.default.createFile(atPath: target, contents: nil), let handle = FileHandle(forWritingAtPath: target) else {
                throw LibraryError.fileAccess(path: target, error: CocoaError(.fileWriteUnknown))
            }
            output = handle
        }
        defer { try? output?.close() }
        var hash = SHA256()
        do {
            while let chunk = try input.read(upToCount: 1 << 22), !chunk.isEmpty {
                hash.update(data: chunk)
                try output?.write(contentsOf: chunk)
            }
        } catch {
            throw LibraryError.fileAccess(path: source, error: error)
        }
        return HexDigits.string(Data(hash.finalize()))
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
        let contents = try check(folder: folder, replacing: replacing)
        let manager = FileManager.default
        var export = self
        let createdFolder = !manager.fileExists(atPath: folder)
        // Copies are staged beside their targets (same file system: moving them is a rename).
        let staging = (folder as NSString).appendingPathComponent(".albums-export-\(UUID().uuidString)")
        do {
            try manager.createDirectory(atPath: staging, withIntermediateDirectories: true)
            defer { try? manager.removeItem(atPath: staging) }
            do {
                try export.readSources(allowingChanged: allowingChanged, into: link == .copy ? staging : nil)
            } catch {
                if createdFolder { try? manager.removeItem(atPath: folder) }
                throw error
            }
            for name in contents.stale { try manager.removeItem(atPath: (folder as NSString).appendingPathComponent(name)) }
            let targets = export.targets(in: folder)
            for (entry, target) in zip(export.entries, targets) {
                // check(folder:replacing:) let only the earlier export's files, or any file with `replacing`, stand here.
                if Self.isFileOrLink(target) { try manager.removeItem(atPath: target) }
                switch link {
                case .copy: try manager.moveItem(atPath: (staging as NSString).appendingPathComponent(entry.file), toPath: target)
                case .hard: try manager.linkItem(atPath: entry.readFrom, toPath: target)
                case .symlink: try manager.createSymbolicLink(atPath: target, withDestinationPath: entry.readFrom)
                }
                guard let motion = entry.motion else { continue }
                let motionTarget = (folder as NSString).appendingPathComponent(motion.file)
                if Self.isFileOrLink(motionTarget) { try manager.removeItem(atPath: motionTarget) }
                switch link {
                case .copy: try manager.moveItem(atPath: (staging as NSString).appendingPathComponent(motion.file), toPath: motionTarget)
                case .hard: try manager.linkItem(atPath: motion.readFrom, toPath: motionTarget)
                case .symlink: try manager.createSymbolicLink(atPath: motionTarget, withDestinationPath: motion.readFrom)
                }
            }
            for entry in export.entries {
                guard let name = entry.sidecar, let text = entry.sidecarText else { continue }
                try Data(text.utf8).write(to: URL(fileURLWithPath: (folder as NSString).appendingPathComponent(name)), options: .atomic)
            }
            try export.manifest().write(to: URL(fileURLWithPath: (folder as NSString).appendingPathComponent("manifest.json")), options: .atomic)
            return export
        } catch let error as LibraryError {
            throw error
        } catch {
            throw LibraryError.fileAccess(path: folder, error: error)
        }
    }

    /// Whether `path` is a file or a symbolic link (dangling or not), not a folder.
    private static func isFileOrLink(_ path: String) -> Bool {
        var status = stat()
        guard lstat(path, &status) == 0 else { return false }
        return status.st_mode & S_IFMT != S_IFDIR
    }

    /// Where each entry goes in `folder`, then the manifest.
    public func targets(in folder: String) -> [String] {
        (entries.map(\.file) + ["manifest.json"]).map { (folder as NSString).appendingPathComponent($0) }
    }
}
