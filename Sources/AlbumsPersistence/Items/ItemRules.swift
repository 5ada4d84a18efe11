// The rules every change to items obeys, each stated once. The checks of
// ItemChange.swift apply them to every change to items, a drag's and this
// module's own writes' alike; inserts and loads apply them directly.

extension LibraryReader {
    /// Refuses a locked album, or a smart one: nothing enters, leaves or
    /// moves inside it by hand.
    ///
    /// - Throws: ``LibraryError/smartAlbum(name:)``, ``LibraryError/albumLocked(name:)``.
    package func requireUnlocked(_ album: Album) throws {
        if album.isSmart { throw LibraryError.smartAlbum(name: album.name) }
        if album.isLocked { throw LibraryError.albumLocked(name: album.name) }
    }

    /// Refuses a change to `album`'s items unless the principal edits it
    /// and it is unlocked, in that order: someone who may not change an
    /// album hears that, not whether it is locked.
    ///
    /// - Throws: ``LibraryError/forbidden(reason:)``, ``LibraryError/albumLocked(name:)``.
    package func requireChangeable(_ album: Album) throws {
        try require(.editor, on: album)
        try requireUnlocked(album)
    }

    /// Refuses a photo that `album` holds already, or that another arriving
    /// item brings (`arriving` collects them): a photo stands once per album.
    ///
    /// - Throws: ``LibraryError/photoAlreadyInAlbum(_:album:)``.
    package func requireRoom(for photo: PhotoID, in album: Album, arriving: inout Set<PhotoID>) throws {
        if try !arriving.insert(photo).inserted || contains(photo, in: album.id) {
            throw LibraryError.photoAlreadyInAlbum(photo, album: album.name)
        }
    }

    /// Refuses an index where items cannot land: 0…`staying` are valid,
    /// `staying` being the album's count without the items that leave it.
    ///
    /// - Throws: ``LibraryError/positionOutOfRange(index:valid:album:)``.
    package func requireLandingIndex(_ index: Int, in album: Album, staying: Int) throws {
        guard (0...staying).contains(index) else {
            throw LibraryError.positionOutOfRange(index: index, valid: 0..<staying + 1, album: album.name)
        }
    }
}
