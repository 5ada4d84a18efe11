import Foundation
import GRDB

extension LibraryError {
    /// Classifies any error met while using the library at `path`.
    ///
    /// A ``LibraryError`` passes through unchanged; SQLite's result codes
    /// become the case that says what happened to the file.
    init(_ error: any Error, path: String, busyTimeout: Double) {
        if let error = error as? LibraryError {
            self = error
            return
        }
        guard let error = error as? DatabaseError else {
            self = .ioFailure(path: path, detail: String(describing: error))
            return
        }
        let detail = error.message ?? "\(error.resultCode)"
        switch error.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            self = .busy(path: path, timeout: busyTimeout)
        case .SQLITE_CORRUPT:
            self = .corrupt(path: path, detail: detail)
        case .SQLITE_NOTADB:
            self = .notADatabase(path: path, reason: "SQLite does not recognise it as a database")
        case .SQLITE_READONLY:
            self = .readOnly(path: path)
        case .SQLITE_FULL:
            self = .diskFull(path: path)
        case .SQLITE_CONSTRAINT:
            self = .constraintViolated(detail: detail)
        case .SQLITE_PERM, .SQLITE_AUTH:
            self = .ioFailure(path: path, detail: "permission denied")
        case .SQLITE_IOERR where Self.isFull(diskOf: path), .SQLITE_CANTOPEN where Self.isFull(diskOf: path):
            // SQLite reports a full disk met while growing the -shm or -wal
            // as a plain I/O error; the disk itself tells.
            self = .diskFull(path: path)
        case .SQLITE_CANTOPEN:
            self = .ioFailure(path: path, detail: "cannot open the file (missing folder or no permission)")
        default:
            self = .ioFailure(path: path, detail: detail)
        }
    }

    /// Whether the file system holding `path` has no room left for a few pages.
    static func isFull(diskOf path: String) -> Bool {
        var info = statvfs()
        guard statvfs(LibraryPath.folder(of: path), &info) == 0 else { return false }
        return UInt64(info.f_bavail) * UInt64(info.f_frsize) < 64 * 1024
    }
}
