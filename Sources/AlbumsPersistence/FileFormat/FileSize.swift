#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// File sizes by `stat(2)`: FileManager's attributes also resolve the
/// owner's and group's names, which reads the user database (about a
/// millisecond) on every library open.
package enum FileSize {
    /// The size of the file at `path`, or nil if it cannot be stat'ed;
    /// `errno` then says why.
    package static func of(_ path: String) -> Int64? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return Int64(status.st_size)
    }
}
