import AlbumsPersistence
import Foundation
import Synchronization

/// Makes the grid's thumbnails before they are asked for, so that an album
/// opens with its photos, not with tiles waiting for libvips.
///
/// - What first: photos that arrive while it runs (imports, uploads, copies),
///   then every album's photos, album by album in the library's order and
///   each in album order: the order a person opens them in.
/// - At low priority: one thumbnail at a time, on a background thread, and
///   only while no request has come for a moment (``ThumbnailStore/isBusy``):
///   it never delays a request.
/// - At the side the grid asked for last (``ThumbnailStore/gridSide``).
/// - Each video met is handed to `prepareVideo` first (`albums serve`
///   has its rendition made, where browsers cannot play it as it is).
/// - Until its task is cancelled (`albums serve` cancels it on shutdown).
package struct ThumbnailWarmer: Sendable {
    package let library: Library
    package let store: ThumbnailStore
    /// Reads a photo's copy kept in a bucket; nil: this program reaches none.
    let fetchFromBucket: (@Sendable (Photo) async throws -> Data)?
    /// Hears each video met, in the order its thumbnail is warmed.
    let prepareVideo: (@Sendable (Photo) async -> Void)?
    /// Items read per read transaction while going through an album.
    static let batch = 256

    package init(
        library: Library, store: ThumbnailStore, prepareVideo: (@Sendable (Photo) async -> Void)? = nil,
        fetchFromBucket: (@Sendable (Photo) async throws -> Data)? = nil
    ) {
        self.library = library
        self.store = store
        self.prepareVideo = prepareVideo
        self.fetchFromBucket = fetchFromBucket
    }

    /// What it did so far.
    package struct Progress: Sendable {
        /// Thumbnails made.
        package var made = 0
        /// Photos whose thumbnail was cached already.
        package var found = 0
        /// Photos whose thumbnail cannot be made (source missing or changed, undecodable).
        package var failed = 0
    }

    /// Warms until cancelled; `report` hears its progress after each photo.
    package func run(report: @escaping @Sendable (Progress) -> Void = { _ in }) async {
        let arrived = Arrivals()
        let (signals, signal) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let listener = Task {
            guard let changes = try? await library.changes() else { return }
            for await change in changes {
                let items = change.changeSets.flatMap { $0.insertedItems + $0.updatedItems }
                guard !items.isEmpty else { continue }
                arrived.add(items)
                signal.yield()
            }
        }
        defer {
            listener.cancel()
            signal.finish()
        }
        var progress = Progress()
        var wakeUps = signals.makeAsyncIterator()
        var everyAlbum = true
        while !Task.isCancelled {
            // What arrived comes first, then (once) everything.
            guard await warmArrived(arrived, &progress, report) else { return }
            if everyAlbum {
                everyAlbum = false
                let albums = (try? await library.read { try $0.albums().map(\.id) }) ?? []
                for album in albums {
                    guard await warm(album: album, &progress, report, arrived: arrived) else { return }
                }
                continue
            }
            guard await wakeUps.next() != nil else { return }
        }
    }

    /// Warms the photos of the items that arrived since last asked; false once cancelled.
    private func warmArrived(_ arrived: Arrivals, _ progress: inout Progress, _ report: @Sendable (Progress) -> Void) async -> Bool {
        while true {
            let items = arrived.take()
            if items.isEmpty { return !Task.isCancelled }
            for item in items {
                guard await warm(photoOf: item, &progress, report) else { return false }
            }
        }
    }

    /// Warms every photo of `album`, in order, a batch per read; false once
    /// cancelled. Photos that arrive meanwhile are warmed first.
    private func warm(album: AlbumID, _ progress: inout Progress, _ report: @Sendable (Progress) -> Void, arrived: Arrivals) async -> Bool {
        var offset = 0
        while true {
            let start = offset
            let batch = try? await library.read { reader -> (photos: [Photo], seen: Int) in
                var photos: [Photo] = []
                var seen = 0
                try reader.forEachListedItem(in: album, from: start) { _, photo in
                    seen += 1
                    if let photo { photos.append(photo) }
                    return seen < Self.batch
                }
                return (photos, seen)
            }
            // Gone, or shorter than where it was read to: nothing more to warm in it.
            guard let batch else { return !Task.isCancelled }
            for photo in batch.photos {
                guard await warmArrived(arrived, &progress, report), await warm(photo, &progress, report) else { return false }
            }
            if batch.seen < Self.batch { return true }
            offset += batch.seen
        }
    }

    private func warm(photoOf item: AlbumItemID, _ progress: inout Progress, _ report: @Sendable (Progress) -> Void) async -> Bool {
        // Spelled out: `item(…).photoID.map { … }` crashed the 6.3.1 optimizer (CopyPropagation).
        let photo = try? await library.read { reader -> Photo? in
            let placed = try reader.item(item)
            guard let photoID = placed.photoID else { return nil }
            return try reader.photo(photoID)
        }
        guard let photo = photo ?? nil else {
            return !Task.isCancelled  // a placeholder still, or gone again
        }
        return await warm(photo, &progress, report)
    }

    /// Makes one photo's thumbnail once requests leave room; false once cancelled.
    private func warm(_ photo: Photo, _ progress: inout Progress, _ report: @Sendable (Progress) -> Void) async -> Bool {
        if photo.content.isVideo, let prepareVideo { await prepareVideo(photo) }
        let side = store.gridSide
        if store.isCached(photo, longerSide: side) {
            progress.found += 1
            return !Task.isCancelled
        }
        while store.isBusy {
            guard (try? await Task.sleep(for: .milliseconds(100))) != nil else { return false }
        }
        guard !Task.isCancelled else { return false }
        var fetch: (@Sendable () async throws -> Data)?
        if let fetchFromBucket { fetch = { try await fetchFromBucket(photo) } }
        let source = ThumbnailSource.of(photo, in: library, fetchingFromBucket: fetch)
        if await store.warm(photo, from: source, longerSide: side) { progress.made += 1 } else { progress.failed += 1 }
        report(progress)
        return !Task.isCancelled
    }
}

/// The items that arrived while warming, taken in the order they came.
private final class Arrivals: Sendable {
    private let items = Mutex<[AlbumItemID]>([])

    func add(_ new: [AlbumItemID]) { items.withLock { $0.append(contentsOf: new) } }

    func take() -> [AlbumItemID] {
        items.withLock { items in
            defer { items = [] }
            return items
        }
    }
}
