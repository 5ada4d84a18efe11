import AlbumsPersistence
import Synchronization

/// Where the library the command opened lies, kept so that the report of
/// its failure can look there for what a name that found nothing probably
/// meant. Only the path is kept: holding the library itself would keep it
/// open past the command, and its `-wal` and `-shm` files with it.
enum OpenedLibrary {
    private static let path = Mutex<String?>(nil)

    static func note(_ library: Library) {
        let opened = library.path
        path.withLock { $0 = opened }
    }

    /// What `body` reads in the library, opened again and closed after;
    /// nil when it is gone (a library the failing command created is
    /// removed before its failure is reported) or cannot be read.
    static func read<T>(_ body: (LibraryReader) throws -> T?) -> T? {
        guard let opened = path.withLock({ $0 }),
            let library = try? Library.open(at: opened, options: Library.Options(allowsConcurrentReads: false, access: .existing))
        else { return nil }
        defer { try? library.close() }
        return (try? library.read(body)) ?? nil
    }
}
