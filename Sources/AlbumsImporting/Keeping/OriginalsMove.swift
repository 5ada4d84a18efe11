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
        let (elsewhere, sources, places) = try await read { reader in
            (try reader.photosKept(elsewhereThan: place), includingSources ? try reader.photosNotKept() : [], try reader.storagePlaces())
        }
        // Every place a copy leaves is reached before any moves: one out of this program's reach stops it here.
        let leaving = Set(elsewhere.compactMap(\.content.keptIn))
        for old in places where leaving.contains(old.id) { _ = try OriginalKeepers.keeper(for: old) }
        var result = OriginalsMove()
        let total = elsewhere.count + sources.count
        // A copy in a bucket comes down to a file of its own first, a part at a time.
        let staging = FileManager.default.temporaryDirectory.appending(path: "albums-move-\(getpid())", directoryHint: .isDirectory).path
        defer { try? FileManager.default.removeItem(atPath: staging) }
        for (done, photo) in (elsewhere + sources).enumerated() {
            try Task.checkCancellation()
            let from = try originalLocation(of: photo)
            let motionFrom = try motionLocation(of: photo)
            do {
                let path: String
                if let file = from.filePath { path = file } else { path = try await Self.download(photo, from: from, into: staging) }
                try await keeper.keep(fileAt: path, as: photo.content)
                if from.filePath == nil { unlink(path) }
                // A Live Photo's motion goes with its still, or neither is recorded moved.
                if let motion = photo.motionAsOriginal, let motionFrom {
                    let motionPath = try await Self.file(of: motion, at: motionFrom, staging: staging)
                    try await keeper.keep(fileAt: motionPath, as: motion.content)
                    if motionPath != motionFrom.filePath && motionPath != motion.content.sourcePath { unlink(motionPath) }
                }
            } catch {
                result.failed.append(.init(photoID: photo.id, from: from.description, reason: (error as? KeepingFailure)?.description ?? "\(error)"))
                continue
            }
            try await write { try $0.keep(photo.id, in: place) }
            switch from {
            case .keptFile(_, let old), .keptObject(_, let old):
                // Recorded kept here first: a crash now leaves a spare copy, never a photo kept nowhere.
                // A copy is named by its bytes: one that another photo of them still keeps there stays, for that photo's turn.
                for content in [photo.content] + (photo.motionAsOriginal.map { [$0.content] } ?? [])
                where try await !read({ try $0.holdsKept(sha256: content.sha256, in: old.id) }) {
                    try? await OriginalKeepers.keeper(for: old).remove(content)
                }
                result.moved.append(photo.id)
            case .source:
                result.kept.append(photo.id)
            }
            progress(done + 1, total)
        }
        return result
    }

    /// The file a motion is read from: its kept file or source, or its copy
    /// in a bucket fetched into `staging`; a bucket that never got it (kept
    /// before motions were) leaves its source.
    private static func file(of motion: Photo, at location: OriginalLocation, staging: String) async throws -> String {
        if let path = location.filePath { return path }
        do {
            return try await download(motion, from: location, into: staging)
        } catch KeepingFailure.missing {
            return motion.content.sourcePath
        }
    }

    /// Writes the copy a bucket keeps of `photo` into a file in `folder` and says where.
    private static func download(_ photo: Photo, from location: OriginalLocation, into folder: String) async throws -> String {
        guard case .keptObject(_, let place) = location else { throw KeepingFailure.missing(place: location.description, name: photo.content.sha256Hex) }
        let keeper = try OriginalKeepers.keeper(for: place)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/" + photo.content.sha256Hex
        try await BucketDownload.write(photo.content, from: keeper, to: path)
        return path
    }
}

/// A copy a keeper holds, written into a file a part at a time: never whole in memory.
enum BucketDownload {
    static func write(_ content: PhotoContent, from keeper: any OriginalKeeper, to path: String) async throws {
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw KeepingFailure.unwritable(place: (path as NSString).deletingLastPathComponent, detail: "cannot create a file")
        }
        defer { try? handle.close() }
        try await keeper.parts(of: content, in: nil).forEach { try handle.write(contentsOf: $0) }
    }
}
