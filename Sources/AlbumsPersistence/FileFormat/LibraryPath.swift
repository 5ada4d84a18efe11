import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What is at a library path before SQLite is let near it.
package enum LibraryPath: Equatable {
    /// Nothing there, or a file of zero bytes: no library yet.
    case missingOrEmpty
    /// A device, a folder, a pipe: never a library.
    case notAFile(String)
    /// A file that can be read but not written, or in a folder that cannot
    /// be written (SQLite's side files live there).
    case readOnly
    /// A file albums may read and write.
    case writable

    package static func inspect(_ path: String) -> LibraryPath {
        var status = stat()
        guard stat(path, &status) == 0 else { return .missingOrEmpty }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: return .notAFile("a folder")
        case S_IFCHR, S_IFBLK: return .notAFile("a device")
        default: return .notAFile("a pipe or a socket")
        }
        if status.st_size == 0 { return .missingOrEmpty }
        // access(2) answers for this process's user, and EROFS for read-only media even as root.
        return access(path, W_OK) == 0 && access(folder(of: path), W_OK) == 0 ? .writable : .readOnly
    }

    /// The folder that holds `path`: "." for a bare file name.
    ///
    /// Not `NSString.deletingLastPathComponent`, which traps on a name of
    /// one character (`--library L`) in Foundation on Linux.
    package static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
