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
        // Checked before anything is chosen: a program that cannot reach the place writes nothing.
        if let place = try read({ try $0.currentStoragePlace() }) { return try OriginalKeepers.keeper(for: place) }
        let place = try write { writer in try writer.currentStoragePlace() ?? writer.chooseStoragePlace(.folder(defaultOriginalsFolder)) }
        return try OriginalKeepers.keeper(for: place)
    }

    /// A keeper of the place the library keeps its originals in now, if it
    /// keeps them somewhere: what resumed loads that keep copies need.
    ///
    /// - Throws: ``KeepingFailure/unreachable(place:)`` for a place this program does not reach.
    public func currentKeeper() throws -> (any OriginalKeeper)? {
        try read { try $0.currentStoragePlace() }.map { place throws(KeepingFailure) in try OriginalKeepers.keeper(for: place) }
    }

    /// The bytes of `photo`'s original, or of the part `range` names: its
    /// kept copy wherever the library keeps it, else its source.
    ///
    /// - Throws: ``KeepingFailure``: missing, unreadable, out of reach.
    public func originalBytes(of photo: Photo, in range: ClosedRange<Int64>? = nil) async throws -> Data {
        try await originalParts(of: photo, in: range).collected()
    }

    /// The bytes of `photo`'s original, or of the part `range` names, as
    /// they are read from where the library keeps it: a part at a time,
    /// never whole (``OriginalKeeper/parts(of:in:)``).
    ///
    /// - Throws: ``KeepingFailure``: missing (before any part), out of reach.
    public func originalParts(of photo: Photo, in range: ClosedRange<Int64>? = nil) async throws -> KeptBytes {
        let location = try originalLocation(of: photo)
        switch location {
        case .keptObject(_, let place):
            return try await OriginalKeepers.keeper(for: place).parts(of: photo.content, in: range)
        case .source(let path), .keptFile(let path, _):
            let place = location.description
            return try await KeptBytes.asking(for: range, of: photo.content.byteCount, place: place) { part throws(KeepingFailure) in
                try await FolderKeeper.bytes(ofFileAt: path, in: part, place: place)
            }
        }
    }
}
