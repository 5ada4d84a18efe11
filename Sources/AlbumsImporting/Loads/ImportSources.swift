import Foundation

/// The files an import names: paths as given, directories expanded.
public struct ImportSources: Sendable {
    /// Absolute paths of the files to load, in the order they will stand.
    public var files: [String] = []
    /// Paths not loaded, each with the reason; knowingly skipped.
    public var skipped: [(path: String, reason: String)] = []

    /// The reason a folder inside a folder is skipped when the import does
    /// not go into folders: the fact, for a front end to add how to ask it to.
    public static let folderNotEntered = "is a folder, and this import does not go into folders"
    /// Paths that could not be used at all.
    public var failed: [(path: String, reason: String)] = []

    /// Expands `paths`: files stay in the order given; a directory's files
    /// come in name order, its subdirectories too with `recursive`. Hidden
    /// files and folders (names starting with ".") are left out, and so is
    /// a photo's XMP sidecar, which its photo's load reads.
    public static func expand(_ paths: [String], recursive: Bool, relativeTo base: String = FileManager.default.currentDirectoryPath) -> ImportSources {
        var sources = ImportSources()
        let manager = FileManager.default
        for path in paths {
            let absolute = absolutePath(path, relativeTo: base)
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: absolute, isDirectory: &isDirectory) else {
                sources.failed.append((path, "no such file or directory"))
                continue
            }
            guard isDirectory.boolValue else {
                sources.files.append(absolute)
                continue
            }
            sources.addFiles(in: absolute, as: path, recursive: recursive)
        }
        return sources
    }

    /// The paths among `paths` that are not there to look in, each with the
    /// reason, as ``expand(_:recursive:relativeTo:)`` would fail them,
    /// without listing any folder.
    public static func unreachable(_ paths: [String], relativeTo base: String = FileManager.default.currentDirectoryPath) -> [(path: String, reason: String)] {
        paths.compactMap { path in
            FileManager.default.fileExists(atPath: absolutePath(path, relativeTo: base)) ? nil : (path, "no such file or directory")
        }
    }

    /// `path` made absolute against `base`, its `.` and `..` resolved.
    private static func absolutePath(_ path: String, relativeTo base: String) -> String {
        URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: base, isDirectory: true)).standardizedFileURL.path
    }

    private mutating func addFiles(in folder: String, as shownPath: String, recursive: Bool) {
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: folder) else {
            failed.append((shownPath, "cannot list the folder"))
            return
        }
        // A sidecar, and a Live Photo's motion, come with their photo, read by the loader: neither is a file to load.
        let sidecars = XMPSidecarFile.sidecars(among: names).union(LivePhotoMotion.motions(among: names, in: folder))
        for name in names.sorted() where !name.hasPrefix(".") && !sidecars.contains(name) {
            let path = (folder as NSString).appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            if !isDirectory.boolValue {
                files.append(path)
            } else if recursive {
                addFiles(in: path, as: (shownPath as NSString).appendingPathComponent(name), recursive: true)
            } else {
                skipped.append(((shownPath as NSString).appendingPathComponent(name), Self.folderNotEntered))
            }
        }
    }
}
