import Foundation
import GRDB

extension LibraryReader {
    static func storagePlace(from row: Row) -> StoragePlace {
        let kind: StoragePlace.Kind =
            if row["kind"] == "bucket" {
                .bucket(BucketAddress(name: row["location"], endpoint: row["endpoint"], region: row["region"], prefix: row["prefix"]))
            } else {
                .folder(row["location"])
            }
        return StoragePlace(id: row["id"], kind: kind, chosenAt: Timestamp.date(row["chosen_at"]))
    }

    /// Every place the library has been told to keep copies in, oldest first.
    public func storagePlaces() throws -> [StoragePlace] {
        try Row.fetchAll(db, cachedSQL: "SELECT * FROM storage_place ORDER BY id").map(Self.storagePlace(from:))
    }

    /// Where new copies go: the place chosen last; nil while the library
    /// keeps none (it refers to its photos where they are).
    public func currentStoragePlace() throws -> StoragePlace? {
        try Row.fetchOne(db, cachedSQL: "SELECT * FROM storage_place ORDER BY id DESC LIMIT 1").map(Self.storagePlace(from:))
    }

    /// How many photos each place keeps, and (under nil) how many only their sources hold.
    public func keptPhotoCounts() throws -> [StoragePlaceID?: Int] {
        var counts: [StoragePlaceID?: Int] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT kept_in, count(*) AS n FROM photo GROUP BY kept_in") {
            counts[row["kept_in"] as StoragePlaceID?] = row["n"]
        }
        return counts
    }

    /// Where `photo`'s original is read from: the copy the library keeps,
    /// or else its source.
    public func originalLocation(of photo: Photo) throws -> OriginalLocation {
        guard let placeID = photo.content.keptIn else { return .source(photo.content.sourcePath) }
        guard let row = try Row.fetchOne(db, cachedSQL: "SELECT * FROM storage_place WHERE id = ?", arguments: [placeID]) else {
            return .source(photo.content.sourcePath)  // the schema's foreign key makes this unreachable
        }
        return Library.location(of: photo, in: Self.storagePlace(from: row))
    }

    /// Where a Live Photo's motion is read from: its copy kept beside its
    /// still's, else its source; nil for a photo without one. A still kept
    /// in a folder before motions were kept with it has its motion's source only.
    public func motionLocation(of photo: Photo) throws -> OriginalLocation? {
        guard let motion = photo.motionAsOriginal else { return nil }
        return Library.motionLocation(try originalLocation(of: motion), of: motion)
    }

    /// The photos kept anywhere but `place` (in an older place), by id, up to `limit`: what a move brings there.
    public func photosKept(elsewhereThan place: StoragePlaceID, limit: Int = Int.max) throws -> [Photo] {
        try Row.fetchAll(
            db, sql: "SELECT * FROM photo WHERE kept_in IS NOT NULL AND kept_in <> ? ORDER BY id LIMIT ?", arguments: [place, limit]
        ).map(Self.photo(from:))
    }

    /// Whether some photo (or a Live Photo's motion) of the bytes with this
    /// SHA-256 is recorded kept in `place`: a copy there, named by its
    /// content, is still theirs. Found by the digest (the unary `+` keeps
    /// SQLite off the index of places, which every kept photo shares).
    public func holdsKept(sha256: Data, in place: StoragePlaceID) throws -> Bool {
        try Bool.fetchOne(
            db,
            cachedSQL: """
                SELECT EXISTS (SELECT 1 FROM photo WHERE sha256 = ?2 AND +kept_in = ?1)
                    OR EXISTS (SELECT 1 FROM photo WHERE motion_sha256 = ?2 AND +kept_in = ?1)
                """,
            arguments: [place, sha256]) ?? false
    }

    /// The photos only their sources hold, by id, up to `limit`.
    public func photosNotKept(limit: Int = Int.max) throws -> [Photo] {
        try Row.fetchAll(db, sql: "SELECT * FROM photo WHERE kept_in IS NULL ORDER BY id LIMIT ?", arguments: [limit]).map(Self.photo(from:))
    }

    /// Refuses unless the principal is the file's holder or an admin: where
    /// the household's originals are kept is the whole library's concern.
    ///
    /// - Throws: ``LibraryError/forbidden(reason:)``.
    func requireKeepingOriginals() throws {
        guard let rights else { return }
        if case .person(let person) = rights.principal, person.isAdmin { return }
        throw LibraryError.forbidden(reason: "only an admin chooses where the library keeps its originals")
    }
}
