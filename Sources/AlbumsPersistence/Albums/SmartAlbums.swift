import GRDB

// Smart albums: albums whose `search` is set (migration 0017). One holds
// no items; what it shows is found when it is read, as its reader may see
// it, so it is always current and shows no photo its reader could not see
// anyway (a role on a smart album gives no sight of photos). It is an
// album everywhere else: named, placed in the tree, renamed, moved, shared,
// deleted and undone like one; nothing enters, leaves or moves in it by
// hand (``LibraryError/smartAlbum(name:)``) until it is frozen.

extension LibraryReader {
    /// A page of what a smart album shows, newest first, as the principal
    /// sees it. Its search naming an album the principal cannot see (or one
    /// deleted since) finds nothing, as a damaged search does.
    ///
    /// - Parameter album: A smart album (an ordinary one finds nothing here).
    public func smartAlbumPhotos(_ album: Album, limit: Int = 100, after cursor: PhotoSearchCursor? = nil) throws -> PhotoSearchPage {
        guard let search = album.savedSearch, try isAvailable(search) else { return PhotoSearchPage(photos: [], next: nil) }
        return try photos(matching: search, limit: limit, after: cursor)
    }

    /// How many photos a smart album shows to the principal: searched once
    /// per committed state of the library and what the principal sees
    /// (``SmartAlbumSummaries``), then kept.
    public func smartAlbumCount(_ album: Album) throws -> Int {
        try smartAlbumCounts(album).photos
    }

    /// How many photos a smart album shows the principal, and how many of
    /// them are videos: one walk, kept as its count is.
    private func smartAlbumCounts(_ album: Album) throws -> (photos: Int, videos: Int) {
        let kept = try keptSummary(of: album)
        if let photos = kept?.summary?.count, let videos = kept?.summary?.videoCount { return (photos, videos) }
        guard let search = album.savedSearch, try isAvailable(search) else { return (0, 0) }
        let counts = try photoAndVideoCount(matching: search)
        if let kept {
            kept.summaries.update(kept.key, at: kept.sequence) { summary in
                summary.count = counts.photos
                summary.videoCount = counts.videos
            }
        }
        return counts
    }

    /// A smart album's first photo, as its cover, kept as its count is.
    func smartAlbumCover(_ album: Album) throws -> AlbumCovers.Cover? {
        let kept = try keptSummary(of: album)
        if let cover = kept?.summary?.cover { return cover }
        let cover = try smartAlbumPhotos(album, limit: 1).photos.first.map { AlbumCovers.Cover(photo: $0.photo.id, isChosen: false) }
        if let kept { kept.summaries.update(kept.key, at: kept.sequence) { $0.cover = .some(cover) } }
        return cover
    }

    /// Where `album`'s summary is kept for this read, and what is kept;
    /// nil when nothing may be (a transaction that wrote, or a library
    /// without the change journal).
    private func keptSummary(of album: Album) throws
        -> (summaries: SmartAlbumSummaries, key: SmartAlbumSummaries.Key, sequence: Int64, summary: SmartAlbumSummaries.Summary?)?
    {
        guard let summaries = smartAlbumSummaries, !hasWritten else { return nil }
        let sequence = try ChangeJournal.latestSequence(in: db)
        let key = SmartAlbumSummaries.Key(album: album.id, seeing: try visibleAlbumIDs().map { $0.sorted { $0.rawValue < $1.rawValue } })
        return (summaries, key, sequence, summaries.summary(for: key, at: sequence))
    }

    /// `tree` with each smart album counting what it shows the principal
    /// (an album's count is otherwise what it holds: nothing, for a smart one).
    package func countingSmartAlbums(_ tree: [TreeEntry]) throws -> [TreeEntry] {
        try tree.map { entry in
            guard case .album(let album) = entry.node, album.isSmart else { return entry }
            let counts = try smartAlbumCounts(album)
            return TreeEntry(node: .album(album.counted(items: counts.photos, placeholders: 0, videos: counts.videos)), depth: entry.depth)
        }
    }

    /// Whether a saved search can be asked: the album it names, if any, is there for the principal.
    func isAvailable(_ search: PhotoSearch) throws -> Bool {
        guard case .inAlbum(let id) = search.membership else { return true }
        do {
            _ = try album(id)
            return true
        } catch LibraryError.albumNotFound {
            return false
        }
    }
}

extension LibraryWriter {
    /// Creates a smart album where `placement` says: a saved search shown
    /// as an album, read-only, always current.
    ///
    /// ```swift
    /// var search = PhotoSearch()
    /// search.taken = try CaptureRange("2025-07")
    /// try library.write { try $0.createSmartAlbum(named: "July", placement: .into(nil), search: search) }
    /// ```
    ///
    /// - Throws: as ``createAlbum(named:placement:)``, and ``LibraryError/albumNotFound(_:)``
    ///   when the search names an album the principal cannot see.
    @discardableResult
    public func createSmartAlbum(named name: String, placement: TreePlacement, search: PhotoSearch) throws -> Album {
        try insertAlbum(try checkAlbumCreation(named: name, placement: placement, search: search))
    }

    /// How many smart albums a person (not an admin) may own: each is a
    /// search that every album list of everyone who sees it pays for once
    /// per change to the library, so one editor cannot make the lists of
    /// others search by the thousand.
    public static let smartAlbumsPerPerson = 50

    /// Makes a smart album an ordinary one holding the photos it shows now,
    /// as the principal sees them, in its order (newest first), to arrange
    /// by hand. One entry of the history: undo gives the search back.
    ///
    /// - Returns: How many photos it holds now; nil when it was no smart album (nothing to do).
    /// - Throws: ``LibraryError/albumNotFound(_:)``, ``LibraryError/forbidden(reason:)`` (it takes an
    ///   editor), ``LibraryError/albumLocked(name:)``.
    @discardableResult
    public func freezeSmartAlbum(_ id: AlbumID) throws -> Int? {
        let change = try checkFreeze(id)
        try apply(change)
        guard case .freeze(_, let photos, _) = change.work else { return nil }
        return photos.count
    }
}

extension LibraryReader {
    /// Refuses a new smart album to a person (not an admin) who owns
    /// ``LibraryWriter/smartAlbumsPerPerson`` of them already.
    ///
    /// - Throws: ``LibraryError/tooManySmartAlbums(limit:)``.
    func requireRoomForSmartAlbum() throws {
        guard case .person(let person) = principal, !person.isAdmin else { return }
        let kept = try Int.fetchOne(
            db,
            cachedSQL: """
                SELECT count(*) FROM role_grant g JOIN album a ON a.id = g.album_id
                WHERE g.person_id = ? AND g.role = 'owner' AND a.search IS NOT NULL
                """, arguments: [person.id.rawValue]) ?? 0
        let limit = LibraryWriter.smartAlbumsPerPerson
        if kept >= limit { throw LibraryError.tooManySmartAlbums(limit: limit) }
    }

    /// The photos a smart album shows the principal now, in its order, with
    /// the names they see where those are not the photos' own; refused when
    /// freezing them would show someone else what they cannot see now.
    ///
    /// - Throws: ``LibraryError/forbidden(reason:)``: only its owner widens its audience.
    func photosShown(bySmartAlbum album: Album) throws -> (photos: [PhotoID], names: [PhotoID: String]) {
        var photos: [PhotoID] = []
        var names: [PhotoID: String] = [:]  // as the principal saw them
        var cursor: PhotoSearchCursor?
        repeat {
            let page = try smartAlbumPhotos(album, limit: 2_000, after: cursor)
            for found in page.photos {
                photos.append(found.photo.id)
                if found.name != found.photo.content.originalName { names[found.photo.id] = found.name }
            }
            cursor = page.next
        } while cursor != nil
        // Frozen, it shows these photos to its whole audience, as they are: widening what any of them sees is sharing with them.
        if !photos.isEmpty, !principal.holdsEveryRight, try role(on: album) != .owner, try widensAudience(of: album, to: photos) {
            throw LibraryError.forbidden(
                reason: "freezing \(LibraryError.quoted(album.name)) would show photos to people it is shared with who cannot see them now; that takes its owner")
        }
        return (photos, names)
    }

    /// Whether someone else who sees `album` (a person its roles reach, or
    /// the holder of one of its live links) would see a photo of `photos`
    /// they cannot see now. Admins see every photo already.
    private func widensAudience(of album: Album, to photos: [PhotoID]) throws -> Bool {
        let asker = principal
        defer { act(as: asker) }
        // Every link counts, whoever made it: the asker may not see them, but their holders will see the album.
        act(as: .holder)
        if try shareLinks(of: album.id).contains(where: { $0.isLive() }) { return true }
        let list = "(SELECT value FROM json_each('[" + photos.map { String($0.rawValue) }.joined(separator: ",") + "]'))"
        for person in try people() where !person.isAdmin && !person.isDisabled {
            if case .person(let me) = asker, me.id == person.id { continue }
            act(as: .person(person))
            guard try role(on: album) != nil, let albums = try visibleAlbumIDs() else { continue }
            let seen = "(SELECT value FROM json_each('[" + albums.map { String($0.rawValue) }.joined(separator: ",") + "]'))"
            let shown = try Int.fetchOne(
                db, sql: "SELECT count(DISTINCT photo_id) FROM album_item WHERE photo_id IN \(list) AND album_id IN \(seen)") ?? 0
            if shown < Set(photos).count { return true }
        }
        return false
    }
}
