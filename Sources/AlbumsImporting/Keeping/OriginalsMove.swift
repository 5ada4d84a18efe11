import AlbumsPersistence
import Foundation

/// What bringing originals into the library's place did (``Library/moveOriginals(to:includingSources:progress:)``).
public struct OriginalsMove: Sendable {
    /// A photo whose original could not be brought, and why.
    public struct Failure: Sendable, Hashable {
        /// The photo.
        public let photoID: PhotoID
        /// Where its original was read from.
        public let from: String
        /// Why it stayed where it was.
        public let reason: String
    }

    /// Photos whose copy moved from an older place: the old copy is gone.
    public internal(set) var moved: [PhotoID] = []
    /// Photos only their source held, now kept too (the source stays as it is).
    public internal(set) var kept: [PhotoID] = []
    /// Photos left where they were.
    public internal(set) var failed: [Failure] = []

    /// Whether every photo asked for is now in the place.
    public var isComplete: Bool { failed.isEmpty }
}

extension Library {
    /// Brings into `keeper`'s place (the library's current one) every copy
    /// kept in an older place and, with `includingSources`, every photo only
    /// its source holds.
    ///
    /// Each photo is copied and verified (size and SHA-256) before the
    /// library records it kept there, one small transaction per photo, and
    /// only then is an old copy deleted: a move stopped anywhere (killed, a
    /// full disk) loses nothing, and running it again finishes it. A source
    /// is never deleted: it is not the library's.
    ///
    /// - Throws: ``LibraryError`` when the library cannot be read or
    ///   written; a photo that cannot be brought is in the result instead.
    public func moveOriginals(
        to keeper: any OriginalKeeper, includingSources: Bool, progress: @Sendable (_ done: Int, _ total: Int) -> Void = { _, _ in }
    ) async throws -> OriginalsMove {
        let place = keeper.place.id
        let (elsewhere, sources) = try await read { reader in
            (try reader.photosKept(elsewhereThan: place), includingSources ? try reader.photosNotKept() : [])
        }
        var result = OriginalsMove()
        let total = elsewhere.count + sources.count
        for (done, photo) in (elsewhere + sources).enumerated() {
            try Task.checkCancellation()
            let from = try originalLocation(of: photo)
            guard let path = from.filePath else {
                result.failed.append(.init(photoID: photo.id, from: from.description, reason: "it is in a bucket, which this program does not reach"))
                continue
            }
            do {
                try await keeper.keep(fileAt: path, as: photo.content)
            } catch {
                result.failed.append(.init(photoID: photo.id, from: from.description, reason: error.description))
                continue
            }
            try await write { try $0.keep(photo.id, in: place) }
            if case .keptFile(let old, _) = from {
                // Recorded kept here first: a crash now leaves a spare copy, never a photo kept nowhere.
                unlink(old)
                rmdir((old as NSString).deletingLastPathComponent)  // only if that left it empty
                result.moved.append(photo.id)
            } else {
                result.kept.append(photo.id)
            }
            progress(done + 1, total)
        }
        return result
    }
}
