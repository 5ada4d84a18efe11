import AlbumsImageFacts
import AlbumsPersistence
import Crypto
import Foundation

/// What ``Library/refreshOutdatedPhotoFacts()`` did.
public struct PhotoFactsRefresh: Hashable, Sendable {
    /// Photos whose orientation and capture date were read again from their sources.
    public var refreshed = 0
    /// Photos whose source is gone or holds other bytes: their facts stay as
    /// an older albums read them (`albums check --files` lists them).
    public var unreadable = 0
}

extension Library {
    /// Reads again, from their sources, the orientation and capture date of
    /// photos an older albums imported (before migration 0003), where the
    /// source still holds the photo's bytes (same size and SHA-256).
    ///
    /// The CLI runs this when it opens a library that has such photos; an
    /// app embedding albums calls it after opening. Each batch of photos is
    /// one transaction, so an interrupted refresh resumes where it stopped.
    @discardableResult
    public func refreshOutdatedPhotoFacts() throws -> PhotoFactsRefresh {
        var report = PhotoFactsRefresh()
        while true {
            let photos = try read { try $0.photosWithOutdatedFacts(limit: 64) }
            if photos.isEmpty { return report }
            let facts = photos.map { photo in (photo.id, Self.currentFacts(of: photo.content)) }
            try write { writer in
                for (id, facts) in facts {
                    if let facts {
                        try writer.refreshFacts(of: id, orientation: facts.orientation, capturedAt: facts.capturedAt)
                    } else {
                        try writer.markFactsCurrent(of: id)
                    }
                }
            }
            report.refreshed += facts.filter { $0.1 != nil }.count
            report.unreadable += facts.filter { $0.1 == nil }.count
        }
    }

    /// The facts of a photo's source, if it still holds the photo's bytes.
    private static func currentFacts(of content: PhotoContent) -> ImageFacts? {
        guard FileSize.of(content.sourcePath) == content.byteCount,
            let data = FileManager.default.contents(atPath: content.sourcePath),
            Data(SHA256.hash(data: data)) == content.sha256
        else { return nil }
        return try? ImageHeaderReader.read(data)
    }
}

/// What opening a library for use did beyond opening the file: what
/// ``Library/openForUse(at:options:)`` returns.
public struct LibraryOpening: Sendable {
    /// Notes an upgrade left for a person (an album renamed to a valid name,
    /// say), each once: show them.
    public var upgradeNotes: [String] = []
    /// The photos whose facts were read again, if any needed it.
    public var factsRefresh = PhotoFactsRefresh()
}

extension Library {
    /// Opens the library at `path` as albums itself does: the file opened
    /// (created, or upgraded with a backup, as `options` say), then what an
    /// upgrade leaves to do before the library is used. Photos an older
    /// albums imported get their facts read again from their sources, and the
    /// upgrade's notes for a person are taken, once, to be shown. A library
    /// opened read-only is returned as it is: both wait for a writable open.
    ///
    /// The CLI opens every library this way, `albums serve` included; an app
    /// embedding albums should too.
    ///
    /// ```swift
    /// let (library, opening) = try Library.openForUse(at: path)
    /// for note in opening.upgradeNotes { showNotice(note) }
    /// ```
    public static func openForUse(at path: String, options: Options = Options()) throws -> (library: Library, opening: LibraryOpening) {
        let library = try Library.open(at: path, options: options)
        var opening = LibraryOpening()
        guard !library.isReadOnly else { return (library, opening) }
        // Library.open read whether either waits, in the statement it reads anyway.
        if library.openingState.hasOutdatedPhotoFacts { opening.factsRefresh = try library.refreshOutdatedPhotoFacts() }
        if library.openingState.hasUpgradeNotes { opening.upgradeNotes = try library.takeUpgradeNotes() }
        return (library, opening)
    }
}
