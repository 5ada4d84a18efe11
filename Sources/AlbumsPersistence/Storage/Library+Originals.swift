import Foundation
import Synchronization

/// The storage places a library has read, by id: a place's row never
/// changes once written (choosing it again writes a new one), so what was
/// read once stays true for as long as the library is open.
final class StoragePlaceCache: Sendable {
    private let places = Mutex<[StoragePlaceID: StoragePlace]>([:])

    func place(_ id: StoragePlaceID) -> StoragePlace? { places.withLock { $0[id] } }
    func store(_ place: StoragePlace) { places.withLock { $0[place.id] = place } }
}

extension Library {
    /// Where `photo`'s original is read from: the copy the library keeps
    /// (Documentation/Storage.md), or else its source. Reads the library
    /// only for a place it has not read before.
    ///
    /// - Throws: ``LibraryError`` when the library cannot be read.
    public func originalLocation(of photo: Photo) throws -> OriginalLocation {
        guard let id = photo.content.keptIn else { return .source(photo.content.sourcePath) }
        if let place = storagePlaces.place(id) { return Self.location(of: photo, in: place) }
        let location = try read { try $0.originalLocation(of: photo) }
        switch location {
        case .keptFile(_, let place), .keptObject(_, let place): storagePlaces.store(place)
        case .source: break
        }
        return location
    }

    /// Where a Live Photo's motion is read from: its copy kept beside its
    /// still's, else its source; nil for a photo without one
    /// (``LibraryReader/motionLocation(of:)``).
    ///
    /// - Throws: ``LibraryError`` when the library cannot be read.
    public func motionLocation(of photo: Photo) throws -> OriginalLocation? {
        guard let motion = photo.motionAsOriginal else { return nil }
        return Self.motionLocation(try originalLocation(of: motion), of: motion)
    }

    /// A motion's kept file, unless it is missing from the folder (kept before motions were): then its source.
    static func motionLocation(_ kept: OriginalLocation, of motion: Photo) -> OriginalLocation {
        if case .keptFile(let path, _) = kept, !FileManager.default.fileExists(atPath: path) { return .source(motion.content.sourcePath) }
        return kept
    }

    static func location(of photo: Photo, in place: StoragePlace) -> OriginalLocation {
        if let path = place.path(of: photo.content) { return .keptFile(path, place: place) }
        return .keptObject(place.objectName(of: photo.content) ?? "", place: place)
    }
}
