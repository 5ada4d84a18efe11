import AlbumsPersistence
import Foundation
import Synchronization

/// The library this process created, if it did: when the command then
/// fails, the new file goes again, so a mistyped `--library` given to a
/// command that creates (`import`, `album create`, …) never leaves a stray
/// library behind.
///
/// Only a library still as it was made is removed (no album, folder, photo,
/// person or history entry), and only while its path names the file this
/// process created; a file that was there empty is emptied again rather
/// than removed.
enum CreatedLibrary {
    private struct Record: Sendable {
        /// Only the path: holding the library would keep it open past the
        /// command, and its `-wal` and `-shm` files beside it.
        let path: String
        let file: FileIdentity?
        let wasEmptyFile: Bool
        /// The folders made to hold it, innermost first, if any were made.
        let folders: [String]
    }

    private static let record = Mutex<Record?>(nil)

    /// Notes that `library` was just created where `path` had no library,
    /// in `folders` made for it (innermost first).
    static func note(_ library: Library, wasEmptyFile: Bool, folders: [String]) {
        let path = library.path
        record.withLock { $0 = Record(path: path, file: FileIdentity.of(path), wasEmptyFile: wasEmptyFile, folders: folders) }
    }

    /// The command failed: the library it created goes, with its side
    /// files and the folders made for it, if nothing was made in it.
    static func removeAfterFailure() {
        guard let created = record.withLock({ $0 }) else { return }
        let path = created.path
        guard FileIdentity.of(path) == created.file,
            let library = try? Library.open(at: path, options: Library.Options(allowsConcurrentReads: false, access: .existing))
        else { return }
        let holdsNothing = (try? library.read { try $0.holdsNothingMade() }) == true
        // Closing checkpoints and removes the -wal and -shm files it can.
        try? library.close()
        guard holdsNothing else { return }
        if created.wasEmptyFile {
            _ = truncate(path, 0)
        } else {
            _ = unlink(path)
        }
        for suffix in ["-wal", "-shm", "-journal"] { _ = unlink(path + suffix) }
        for folder in created.folders { _ = rmdir(folder) }
    }
}
