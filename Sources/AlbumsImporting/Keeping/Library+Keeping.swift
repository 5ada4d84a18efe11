import AlbumsPersistence
import Foundation

extension Library {
    /// The folder copies go to when the library was told of no place:
    /// beside the library file, named after it (`family.albums` keeps
    /// them in `family-originals`).
    public var defaultOriginalsFolder: String {
        let file = URL(fileURLWithPath: path).standardizedFileURL
        let stem = file.deletingPathExtension().lastPathComponent
        return file.deletingLastPathComponent().appending(path: stem + "-originals", directoryHint: .isDirectory).path
    }

    /// A keeper of the place the library keeps its originals in now; if it
    /// keeps them nowhere yet, ``defaultOriginalsFolder`` becomes that place.
    ///
    /// - Throws: ``KeepingFailure/unreachable(place:)`` for a place this
    ///   program cannot write, ``LibraryError`` when the library cannot be written.
    public func keeperForCopies() throws -> any OriginalKeeper {
        let place = try write { writer in try writer.currentStoragePlace() ?? writer.chooseStoragePlace(.folder(defaultOriginalsFolder)) }
        guard let keeper = FolderKeeper(place: place) else { throw KeepingFailure.unreachable(place: place.description) }
        return keeper
    }

    /// A keeper of the place the library keeps its originals in now, if it
    /// keeps them in one this program can write: what resumed loads that
    /// keep copies need.
    public func currentKeeper() throws -> (any OriginalKeeper)? {
        try read { try $0.currentStoragePlace() }.flatMap(FolderKeeper.init(place:))
    }
}
