import AlbumsImageFacts
import Foundation

/// A folder of what an import brings in: a folder on disk with its photos
/// in name order and the folders under it that hold photos somewhere, or
/// an album or folder of another organizer's catalog with its photos in
/// that organizer's order.
///
/// On disk, photos are told from other files by their first bytes (a
/// name only tells a raw file that is a TIFF inside from a TIFF photo), so
/// that a folder of notes or sidecars becomes nothing, and a video or a
/// raw file is left out saying what it is.
public struct SourceFolder: Hashable, Sendable {
    /// The folder's own name: the album's or folder's it becomes.
    public var name: String
    /// Where it comes from, for people: a folder's absolute path, a catalog's album.
    public var path: String
    /// What the source calls it, unchanging: the library remembers which
    /// album or folder it became by this (a path on disk, a catalog's id).
    public var key: String
    /// Its photos' absolute paths, in order: on disk as a file browser sorts
    /// their names ("IMG_2" before "IMG_10"); a catalog's may be missing.
    public var photos: [String] = []
    /// The folders under it that hold photos, in the same order.
    public var folders: [SourceFolder] = []
    /// Files and folders left out, each with the reason.
    public var skipped: [SkippedSource] = []
    /// What the organizer says of the album (digiKam's album caption, a
    /// Takeout album's description, a Shotwell event's comment); nil on disk.
    public var description: String?

    /// A folder of a source with nothing in it yet.
    public init(name: String, path: String, key: String) {
        self.name = name
        self.path = path
        self.key = key
    }

    /// A file or folder an import leaves out, and why.
    public struct SkippedSource: Hashable, Sendable {
        /// The file's or folder's absolute path.
        public let path: String
        /// Why it is left out, in a few words ("not a photo").
        public let reason: String

        /// A file or folder left out.
        public init(path: String, reason: String) {
            self.path = path
            self.reason = reason
        }
    }

    /// The number of photos in this folder and every folder under it.
    public var photoCount: Int { photos.count + folders.reduce(0) { $0 + $1.photoCount } }

    /// Every file and folder left out, here and below.
    public var allSkipped: [SkippedSource] { skipped + folders.flatMap(\.allSkipped) }

    /// The photos here and below whose files are not there (a catalog's
    /// originals on a drive not mounted).
    public func photosNotFound() -> Set<String> {
        Set(photos.filter { !FileManager.default.fileExists(atPath: $0) }).union(folders.flatMap { $0.photosNotFound() })
    }

    /// Reads the tree at `root`: hidden files and folders (names starting
    /// with ".") are left out, and so are folders with no photo anywhere
    /// under them, symbolic links to folders (which could loop), and an
    /// application's own folders (``notPhotos(_:)``), each skipped with
    /// what it is.
    ///
    /// - Throws: ``TreeImportFailure/notAFolder(_:)`` for a root that is
    ///   missing or not a folder, ``TreeImportFailure/unreadable(_:)`` for
    ///   one that cannot be listed.
    public static func read(_ root: String, relativeTo base: String = FileManager.default.currentDirectoryPath) throws -> SourceFolder {
        let absolute = URL(fileURLWithPath: root, relativeTo: URL(fileURLWithPath: base, isDirectory: true)).standardizedFileURL.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: absolute, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw TreeImportFailure.notAFolder(root)
        }
        guard let folder = read(folderAt: absolute) else { throw TreeImportFailure.unreadable(root) }
        return folder
    }

    /// What a folder named `name` is when it holds an application's own
    /// files rather than someone's photos (a library package, a cache of
    /// previews or thumbnails, a recycle bin): its photos are copies, or
    /// someone else's to arrange, and would make albums nobody made. Nil
    /// for any other folder.
    static func notPhotos(_ name: String) -> String? {
        let lowered = name.lowercased()
        for (suffix, what) in [
            (".photoslibrary", "an Apple Photos library (its albums come in as a catalog's)"),
            (".photolibrary", "an iPhoto library"), (".migratedphotolibrary", "an iPhoto library"), (".aplibrary", "an Aperture library"),
            (".lrdata", "a Lightroom cache of previews"),
        ] where lowered.hasSuffix(suffix) {
            return what
        }
        switch name {
        case "@eaDir": return "Synology's thumbnails"
        case "#recycle", "$RECYCLE.BIN": return "a recycle bin"
        case "#snapshot": return "Synology's snapshots"
        case "System Volume Information", "lost+found": return "the system's own folder"
        default: return nil
        }
    }

    /// The folder without the Live Photo motions its own photos bring (each
    /// is read with its still), and its folders likewise: a catalog lists a
    /// still and its motion as two files.
    func withoutLivePhotoMotions() -> SourceFolder {
        var folder = self
        folder.photos = LivePhotoMotion.withoutMotions(photos)
        folder.folders = folders.map { $0.withoutLivePhotoMotions() }
        return folder
    }

    /// Adds the file at `path` as a photo, or as skipped with what it is.
    private mutating func add(_ path: String) {
        switch MediaKind(ofFileAt: path) {
        case .photo, .video: photos.append(path)
        case let kind?: skipped.append(SkippedSource(path: path, reason: kind.reasonLeftOut ?? "not a photo"))
        case nil: skipped.append(SkippedSource(path: path, reason: "not a photo"))
        }
    }

    /// nil when the folder cannot be listed.
    private static func read(folderAt path: String) -> SourceFolder? {
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: path) else { return nil }
        var folder = SourceFolder(name: (path as NSString).lastPathComponent, path: path, key: path)
        // A photo's XMP sidecar, and a Live Photo's motion, are read with it, not listed apart.
        let sidecars = XMPSidecarFile.sidecars(among: names).union(LivePhotoMotion.motions(among: names, in: path))
        for name in names.sorted(by: { $0.localizedStandardCompare($1) == .orderedAscending }) where !name.hasPrefix(".") && !sidecars.contains(name) {
            let child = (path as NSString).appendingPathComponent(name)
            guard let attributes = try? manager.attributesOfItem(atPath: child), let type = attributes[.type] as? FileAttributeType else { continue }
            switch type {
            case .typeDirectory:
                if let what = notPhotos(name) {
                    folder.skipped.append(SkippedSource(path: child, reason: what))
                    continue
                }
                guard let inner = read(folderAt: child) else {
                    folder.skipped.append(SkippedSource(path: child, reason: "cannot list the folder"))
                    continue
                }
                if inner.photoCount > 0 {
                    folder.folders.append(inner)
                } else {
                    folder.skipped.append(SkippedSource(path: child, reason: "no photos in it"))
                }
            case .typeRegular:
                folder.add(child)
            case .typeSymbolicLink:
                var isDirectory: ObjCBool = false
                if manager.fileExists(atPath: child, isDirectory: &isDirectory), !isDirectory.boolValue {
                    folder.add(child)
                } else {
                    folder.skipped.append(SkippedSource(path: child, reason: isDirectory.boolValue ? "a link to a folder" : "not a photo"))
                }
            default:
                folder.skipped.append(SkippedSource(path: child, reason: "not a regular file"))
            }
        }
        return folder
    }
}
