import AlbumsImageFacts
import Crypto
import Foundation

/// What ``Library/refreshOutdatedPhotoFacts()`` did.
public struct PhotoFactsRefresh: Hashable, Sendable {
    /// Photos whose facts were read again from their sources.
    public var refreshed = 0
    /// Photos whose source is gone or holds other bytes: their facts stay as
    /// an older albums read them (`albums check --files` lists them).
    public var unreadable = 0
}

extension Library {
    /// Reads again, from their sources, the facts of photos an older albums
    /// imported (orientation and capture date before migration 0003;
    /// camera, lens and location before 0014), where the source still
    /// holds the photo's bytes (same size and SHA-256).
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
                        try writer.refreshFacts(of: id, to: facts)
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
