import AlbumsPersistence
import Foundation

/// What a catalog's organizer hid or its owner threw away (hidden, trashed,
/// rejected: ``CatalogImport/setAside``), brought in on request into an
/// album of its own, "Hidden in Shotwell" and the like. It stands at the
/// library's top level, in no folder anyone is given, so that nobody but
/// the library's holder and its admins sees it, and it is locked, so that
/// nothing enters or leaves it by accident. Importing the catalog again
/// adds to the same album what it does not hold yet.
///
/// ```swift
/// if let (album, report) = try await SetAsideImport.run(catalog, runner: runner) {
///     print("\(report.committed.count) set aside in \(album.name)")
/// }
/// ```
public enum SetAsideImport {
    /// The album's name for a catalog of `kind`.
    public static func albumName(for kind: CatalogKind) -> String {
        "Hidden in \(kind.organizerName)"
    }

    /// Loads `catalog`'s set-aside photos into their locked album (made at
    /// the top level when missing); nil when the catalog set nothing aside.
    ///
    /// - Throws: ``LibraryError`` when the album cannot be made or changed;
    ///   a load that fails is in the report instead.
    public static func run(
        _ catalog: CatalogImport, runner: LoadRunner, progress: @escaping @Sendable (LoadProgress) -> Void = { _ in }
    ) async throws -> (album: Album, report: LoadReport)? {
        guard !catalog.setAside.isEmpty else { return nil }
        let name = albumName(for: catalog.kind)
        let (album, loads) = try await runner.session.write { writer -> (Album, [LoadRunner.Load]) in
            let existing = try? writer.album(named: name)
            let album = try existing ?? writer.createAlbum(named: name, placement: .into(nil))
            // Open only while the placeholders go in: loads begun before a lock still commit.
            if album.isLocked { try writer.setAlbumLocked(album.id, false) }
            let keeps = runner.keeper != nil
            let placeholders = try writer.insertPlaceholders(catalog.setAside.map { PendingLoad(source: $0, keepsCopy: keeps) }, into: album.id)
            try writer.setAlbumLocked(album.id, true)
            return (
                try writer.album(album.id),
                zip(placeholders, catalog.setAside).map { LoadRunner.Load(placeholder: $0, source: $1, keepsCopy: keeps) }
            )
        }
        return (album, await runner.run(loads, progress: progress))
    }
}
