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
        let library: Library
        let file: FileIdentity?
        let wasEmptyFile: Bool
        /// The folder made to hold it, if one was made.
        let folder: String?
    }

    private static let record = Mutex<Record?>(nil)

    /// Notes that `library` was just created where `path` had no library.
    static func note(_ library: Library, wasEmptyFile: Bool, folder: String?) {
        record.withLock { $0 = Record(library: library, file: FileIdentity.of(library.path), wasEmptyFile: wasEmptyFile, folder: folder) }
    }

    /// The command failed: the library it created goes, with its side
    /// files and the folder made for it, if nothing was made in it.
    static func removeAfterFailure() {
        guard let created = record.withLock({ $0 }) else { return }
        let library = created.library
        let path = library.path
        guard FileIdentity.of(path) == created.file, (try? library.read { try $0.holdsNothingMade() }) == true else { return }
        // Closing checkpoints and removes the -wal and -shm files it can.
        try? library.close()
        if created.wasEmptyFile {
            _ = truncate(path, 0)
        } else {
            _ = unlink(path)
        }
        for suffix in ["-wal", "-shm", "-journal"] { _ = unlink(path + suffix) }
        if let folder = created.folder { _ = rmdir(folder) }
    }
}
