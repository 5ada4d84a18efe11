#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a commit changes in a write-ahead log file: its size and
/// modification time, by `stat(2)` (a microsecond, no query).
package struct FileStamp: Equatable, Sendable {
    let size: Int64
    let seconds: Int
    let nanoseconds: Int

    /// The stamp of the file at `path`, or nil if it cannot be stat'ed.
    package static func of(_ path: String) -> FileStamp? {
        guard let status = fileStatus(path) else { return nil }
        #if canImport(Darwin)
            let time = status.st_mtimespec
        #else
            let time = status.st_mtim
        #endif
        return FileStamp(size: Int64(status.st_size), seconds: Int(time.tv_sec), nanoseconds: Int(time.tv_nsec))
    }
}

/// Which file a path names: its device and inode, by `stat(2)`. A file
/// deleted or replaced under an open library keeps the library's handle
/// but no longer has the library's path.
package struct FileIdentity: Equatable, Sendable {
    let device: UInt64
    let inode: UInt64

    /// The identity of the file at `path`, or nil if there is none.
    package static func of(_ path: String) -> FileIdentity? {
        fileStatus(path).map { FileIdentity(device: UInt64($0.st_dev), inode: UInt64($0.st_ino)) }
    }
}

/// `stat(2)` of `path`, following links; nil if it fails.
private func fileStatus(_ path: String) -> stat? {
    var status = stat()
    return stat(path, &status) == 0 ? status : nil
}
