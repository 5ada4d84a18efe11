import Foundation

/// The first 100 bytes of an SQLite database file, read without SQLite.
///
/// Reading them directly lets `albums` refuse a file that is not SQLite, is
/// cut short, or belongs to another application before any connection could
/// touch it. Layout: <https://www.sqlite.org/fileformat.html#the_database_header>.
public struct DatabaseFileHeader: Sendable, Equatable {
    /// The size of an SQLite header in bytes.
    public static let byteCount = 100
    static let magic = Array("SQLite format 3\0".utf8)

    /// The page size in bytes (512 to 65,536).
    public let pageSize: Int
    /// 1 for the rollback journal, 2 for WAL.
    public let writeVersion: UInt8
    /// Grows with every change written in rollback-journal mode.
    public let fileChangeCounter: UInt32
    /// The database size in pages, if the header's copy of it is current.
    public let pageCount: UInt32?
    /// Pages on the freelist: space the file holds but does not use.
    public let freelistPageCount: UInt32
    /// SQLite's schema format number (4 for every current file).
    public let schemaFormat: UInt32
    /// `PRAGMA user_version`: albums does not use it.
    public let userVersion: Int32
    /// `PRAGMA application_id`: ``Library/applicationID`` in an albums library.
    public let applicationID: Int32
    /// The version of SQLite that last wrote the file (3045001 for 3.45.1).
    public let sqliteVersionNumber: UInt32

    /// Whether the file declares WAL journaling.
    public var isWAL: Bool { writeVersion == 2 }

    /// Parses a header, or explains why `bytes` are not one.
    ///
    /// - Throws: ``LibraryError/notADatabase(path:reason:)``.
    public init(bytes: [UInt8], path: String) throws(LibraryError) {
        guard bytes.count >= Self.byteCount else {
            throw .notADatabase(path: path, reason: "it is only \(bytes.count) bytes long, shorter than any SQLite file")
        }
        guard Array(bytes[0..<16]) == Self.magic else {
            throw .notADatabase(path: path, reason: "it does not start with the SQLite header")
        }
        func uint16(_ offset: Int) -> UInt16 { UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1]) }
        func uint32(_ offset: Int) -> UInt32 {
            bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
        }
        let rawPageSize = Int(uint16(16))
        pageSize = rawPageSize == 1 ? 65_536 : rawPageSize
        guard pageSize >= 512, pageSize <= 65_536, pageSize & (pageSize - 1) == 0 else {
            throw .notADatabase(path: path, reason: "its header declares an impossible page size (\(rawPageSize))")
        }
        writeVersion = bytes[19]
        fileChangeCounter = uint32(24)
        let declaredPageCount = uint32(28)
        // The in-header size is only trusted when written by SQLite 3.7.0 or later,
        // which stamps "version-valid-for" with the change counter.
        pageCount = uint32(92) == fileChangeCounter && declaredPageCount > 0 ? declaredPageCount : nil
        freelistPageCount = uint32(36)
        schemaFormat = uint32(44)
        userVersion = Int32(bitPattern: uint32(60))
        applicationID = Int32(bitPattern: uint32(68))
        sqliteVersionNumber = uint32(96)
    }

    /// Reads the header of the file at `path`, or nil if there is no file or
    /// it is empty.
    ///
    /// An empty file is what `touch` makes: SQLite treats it as a new database.
    ///
    /// - Throws: ``LibraryError/notADatabase(path:reason:)`` or
    ///   ``LibraryError/truncated(path:expectedBytes:actualBytes:)`` for a
    ///   file too short for the pages its header promises,
    ///   ``LibraryError/ioFailure(path:detail:)`` if it cannot be read.
    public static func read(pathIfExists path: String) throws(LibraryError) -> DatabaseFileHeader? {
        // POSIX calls, not FileManager and FileHandle: every command opens
        // a library through here, and those cost start-up time in type
        // lookups that three system calls do not.
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        if (status.st_mode & S_IFMT) == S_IFDIR {
            throw .ioFailure(path: path, detail: "it is a directory")
        }
        do {
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            defer { close(descriptor) }
            let fileSize = Int64(status.st_size)
            if fileSize == 0 { return nil }
            var bytes = [UInt8](repeating: 0, count: byteCount)
            let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, byteCount, 0) }
            guard count >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            bytes.removeLast(byteCount - count)
            let header = try DatabaseFileHeader(bytes: bytes, path: path)
            if let pageCount = header.pageCount {
                let expected = Int64(pageCount) * Int64(header.pageSize)
                // A checkpoint writes page 1 (with the new size) before the
                // pages after it, and empties the WAL only once they are all
                // written. So a short file with WAL content is a checkpoint
                // under way in another process, or one killed partway that the
                // next connection finishes; a short file is truncated only if
                // it is still short once the WAL is seen empty.
                if fileSize < expected && !(header.isWAL && LibraryFileProbe.hasPendingWAL(path: path)) {
                    let sizeNow = try Self.fileSize(path)
                    if sizeNow < expected {
                        throw LibraryError.truncated(path: path, expectedBytes: expected, actualBytes: sizeNow)
                    }
                }
            }
            return header
        } catch let error as LibraryError {
            throw error
        } catch {
            throw LibraryError.fileAccess(path: path, error: error)
        }
    }
}

extension DatabaseFileHeader {
    fileprivate static func fileSize(_ path: String) throws -> Int64 {
        guard let size = FileSize.of(path) else {
            throw LibraryError.ioFailure(path: path, detail: String(cString: strerror(errno)))
        }
        return size
    }
}

extension LibraryError {
    /// A file system error in a few words of ours: "no such file",
    /// "permission denied", "is a directory", the system's strerror, never
    /// Foundation's wording ("NSCocoaErrorDomain error 256", "The file
    /// couldn't be opened").
    public static func describeFileError(_ error: any Error) -> String {
        if let code = posixCode(of: error) {
            switch code {
            case ENOENT: return "no such file"
            case EACCES, EPERM: return "permission denied"
            case EISDIR: return "is a directory"
            default: return String(cString: strerror(code))
            }
        }
        let error = error as NSError
        guard error.domain == NSCocoaErrorDomain else { return "\(error.domain) error \(error.code)" }
        switch error.code {
        case NSFileReadNoPermissionError, NSFileWriteNoPermissionError: return "permission denied"
        case NSFileReadNoSuchFileError, NSFileNoSuchFileError: return "no such file"
        case NSFileWriteFileExistsError: return "a file by that name is in the way"
        case NSFileReadTooLargeError: return "too large to read into memory"
        case NSFileReadInvalidFileNameError, NSFileWriteInvalidFileNameError: return "not a usable file name"
        case NSFileWriteOutOfSpaceError: return "the disk is full"
        case NSFileWriteVolumeReadOnlyError: return "read-only file system"
        case NSFileLockingError: return "locked by another process"
        default: return "the file system refused it (error \(error.code))"
        }
    }

    /// Classifies a file system error met using `path`: full disks and
    /// read-only media get their own cases, the rest is an I/O failure.
    public static func fileAccess(path: String, error: any Error) -> LibraryError {
        switch posixCode(of: error) ?? 0 {
        case ENOSPC, EDQUOT: return .diskFull(path: path)
        case EROFS: return .readOnly(path: path)
        default:
            switch (error as NSError).code {
            case NSFileWriteOutOfSpaceError: return .diskFull(path: path)
            case NSFileWriteVolumeReadOnlyError: return .readOnly(path: path)
            default: return .ioFailure(path: path, detail: describeFileError(error))
            }
        }
    }

    private static func posixCode(of error: any Error) -> Int32? {
        let nsError = error as NSError
        if nsError.domain == NSPOSIXErrorDomain { return Int32(nsError.code) }
        return (nsError.userInfo[NSUnderlyingErrorKey] as? NSError).flatMap { $0.domain == NSPOSIXErrorDomain ? Int32($0.code) : nil }
    }
}
