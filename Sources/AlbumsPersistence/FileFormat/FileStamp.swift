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
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        #if canImport(Darwin)
            let time = status.st_mtimespec
        #else
            let time = status.st_mtim
        #endif
        return FileStamp(size: Int64(status.st_size), seconds: Int(time.tv_sec), nanoseconds: Int(time.tv_nsec))
    }
}
