import GRDB

/// Write access to a library inside one IMMEDIATE transaction (see
/// ``Library/write(_:)``): reads see the transaction's own changes, and
/// every change keeps the library's invariants.
///
/// Every change records its change sets as it writes them, so what a
/// caller, an observer or another process hears is what was written.
///
/// Valid only inside the closure it is passed to.
public final class LibraryWriter: LibraryReader {
    /// Albums this transaction changed; each gets one revision bump on commit.
    private var changedAlbums: Set<AlbumID> = []
    /// The change sets of each finished operation, in order.
    private(set) var operations: [[AlbumChangeSet]] = []
    /// The operation being recorded, album by album.
    private var current: [AlbumID: AlbumChangeSet] = [:]
    /// What this transaction did to folders, in the order they were first
    /// touched; each of them gets one revision bump on commit.
    private(set) var folderChanges: [FolderChange] = []
    /// What the operation being recorded (or the last one) did to folders, by folder.
    private var currentFolders: [FolderID: FolderChange] = [:]
    /// What the last finished operation did to folders, by folder id.
    package private(set) var lastOperationFolderChanges: [FolderChange] = []
    private var operationDepth = 0
    /// Whether the outermost operation under way has named itself.
    private var operationIsDescribed = false
    /// Item and placeholder count changes not written yet, by album: each
    /// changed album's row is written once, on commit, with its revision.
    private var countDeltas: [AlbumID: (items: Int, placeholders: Int)] = [:]
    /// Segment count changes this transaction wrote, by album.
    private var segmentDeltas: [AlbumID: [Int64: Int]] = [:]
    /// Albums whose segments this transaction added, dropped or laid out afresh.
    private var restructuredAlbums: Set<AlbumID> = []
    /// The segment maps of the changed albums as they stand after this
    /// transaction, for the library to keep once it commits.
    private(set) var mapsAfterCommit: [AlbumID: SegmentMap] = [:]
    /// What this transaction writes into the history (see History/).
    var history: HistoryRecording?
    /// Whether this transaction changed who may see or do what: people,
    /// roles, sessions or share links. Open change streams check their
    /// rights again when they hear of it.
    private(set) var changedRights = false

    /// Notes that this transaction changes rights (see ``changedRights``).
    func noteRightsChanged() {
        changedRights = true
    }

    /// Whether this transaction added photos to the library: whether or not
    /// an album takes them, views of the whole library (its timeline, its
    /// searches, smart albums) read again.
    private(set) var addedPhotos = false

    /// Notes that this transaction adds photos to the library (see ``addedPhotos``).
    func notePhotosAdded() {
        addedPhotos = true
    }

    override func current(_ album: Album) -> Album {
        guard let delta = countDeltas[album.id] else { return album }
        return album.counted(items: album.itemCount + delta.items, placeholders: album.placeholderCount + delta.placeholders)
    }

    /// Changes `album`'s item and placeholder counts as this transaction
    /// sees them (``current(_:)``); they reach the file on commit.
    func adjustCounts(of album: AlbumID, items: Int, placeholders: Int) {
        guard items != 0 || placeholders != 0 else { return }
        let delta = countDeltas[album] ?? (0, 0)
        countDeltas[album] = (delta.items + items, delta.placeholders + placeholders)
    }

    /// Applies segment count changes and notes them, so that the segment
    /// maps can follow the transaction without being read again.
    func apply(_ counts: SegmentCounts, tidying: Bool = true) throws {
        restructuredAlbums.formUnion(try counts.apply(in: db, tidying: tidying))
        for (album, deltas) in counts.deltasByAlbum {
            segmentDeltas[album, default: [:]].merge(deltas, uniquingKeysWith: +)
        }
    }

    /// Notes that `album`'s segments were replaced or dropped.
    func noteRestructured(_ album: AlbumID) {
        restructuredAlbums.insert(album)
    }

    /// Runs `body` as one operation: the change sets its writes record come
    /// back with its result, and reach watchers as one operation of the
    /// transaction.
    ///
    /// ```swift
    /// let (_, changes) = try library.write { writer in
    ///     try writer.recordingOperation { try writer.renameAlbum(trip.id, to: "Rome") }
    /// }
    /// ```
    ///
    /// Nested calls belong to the outermost operation; they return the
    /// change sets the outermost one has recorded so far.
    public func recordingOperation<T>(_ body: () throws -> T) throws -> (T, [AlbumChangeSet]) {
        operationDepth += 1
        defer { operationDepth -= 1 }
        if operationDepth > 1 {
            let result = try body()
            return (result, current.values.sorted { $0.albumID < $1.albumID })
        }
        current = [:]
        currentFolders = [:]
        operationIsDescribed = false
        let result = try body()
        let changes = current.values.sorted { $0.albumID < $1.albumID }
        current = [:]
        lastOperationFolderChanges = currentFolders.values.sorted { $0.folderID < $1.folderID }
        operations.append(changes)
        return (result, changes)
    }

    /// Like ``recordingOperation(_:)``, naming the change as the history
    /// lists it (see ``describeChange(_:)``). The words are made only when
    /// the history is kept: this runs on every drop.
    ///
    /// ```swift
    /// try library.write { writer in
    ///     try writer.recordingOperation(described: "sort 'Trip' by title") {
    ///         try writer.rearrangeItems(in: trip.id, order: byTitle)
    ///     }
    /// }
    /// ```
    public func recordingOperation<T>(
        described description: @autoclosure () -> String, _ body: () throws -> T
    ) throws -> (T, [AlbumChangeSet]) {
        try recordingOperation {
            if history != nil { describeChange(description()) }
            return try body()
        }
    }

    /// Like ``recordingOperation(described:_:)``, for words that name
    /// folders: each is kept by id with the path the words name it by, so
    /// that the history words it for each reader by what they see
    /// (``LibraryReader/history(limit:album:)``).
    package func recordingOperation<T>(
        described description: String, mentioning folders: [HistoryEntry.FolderMention], _ body: () throws -> T
    ) throws -> (T, [AlbumChangeSet]) {
        try recordingOperation {
            if history != nil { describeChange(description, mentioning: folders) }
            return try body()
        }
    }

    /// The change set being recorded for `album` in the current operation.
    package func changes(of album: Album, _ edit: (inout AlbumChangeSet) -> Void) {
        changedAlbums.insert(album.id)
        // Revisions rise once per transaction, on commit: a second
        // operation of a batch reports the same revision as the first.
        var changes = current[album.id] ?? AlbumChangeSet(albumID: album.id, albumName: album.name, revision: album.revision + 1)
        edit(&changes)
        current[album.id] = changes
        if operationDepth == 0 {
            // A write made outside any operation is an operation of its own.
            operations.append([changes])
            current = [:]
        }
    }

    /// Notes what the current operation does to a folder.
    package func changes(ofFolder folder: Folder, _ event: FolderChange.Event) {
        var changes = currentFolders[folder.id] ?? FolderChange(folderID: folder.id, name: folder.name, revision: folder.revision + 1)
        changes.note(event)
        currentFolders[folder.id] = changes
        if let index = folderChanges.firstIndex(where: { $0.folderID == folder.id }) {
            folderChanges[index].note(event)
        } else {
            folderChanges.append(FolderChange(folderID: folder.id, name: folder.name, revision: folder.revision + 1, events: [event]))
        }
        if operationDepth == 0 {
            // A write made outside any operation is an operation of its own.
            lastOperationFolderChanges = [changes]
            currentFolders = [:]
        }
    }

    /// Notes a folder's new name in what this transaction reports of it.
    package func noteName(_ name: String, ofFolder folder: FolderID) {
        currentFolders[folder]?.name = name
        if let index = folderChanges.firstIndex(where: { $0.folderID == folder }) { folderChanges[index].name = name }
    }

    /// Writes the counts and raises the revision of every changed album
    /// that still exists, one statement each, and works out their segment
    /// maps after the commit.
    func finish() throws {
        for album in changedAlbums.union(countDeltas.keys) {
            let delta = countDeltas[album] ?? (0, 0)
            try db.execute(
                cachedSQL: """
                    UPDATE album SET item_count = item_count + ?, placeholder_count = placeholder_count + ?, revision = revision + ?
                    WHERE id = ?
                    """,
                arguments: [delta.items, delta.placeholders, changedAlbums.contains(album) ? 1 : 0, album])
        }
        countDeltas = [:]
        for folder in folderChanges {
            try db.execute(cachedSQL: "UPDATE folder SET revision = revision + 1 WHERE id = ?", arguments: [folder.folderID])
        }
        for (album, deltas) in segmentDeltas where changedAlbums.contains(album) && !restructuredAlbums.contains(album) {
            if let map = unwrittenMaps[album]?.applying(deltas.filter { $0.value != 0 }) { mapsAfterCommit[album] = map }
        }
    }

    /// Whether this transaction changed anything.
    var hasChanges: Bool { !changedAlbums.isEmpty || !folderChanges.isEmpty }

    /// Names the change this transaction makes, as ``LibraryReader/history(limit:album:)``
    /// lists it: "move 3 items to 'Book' at position 2". Each of this
    /// module's changes names itself; call it to name a change of your own
    /// (a transaction of several changes is listed by the first two names
    /// and their count).
    ///
    /// An operation is named by the first name given inside it: the names
    /// of the changes it is made of are not added.
    public func describeChange(_ words: String) {
        describeChange(words, mentioning: [])
    }

    /// Names the change, with the folders its words name.
    func describeChange(_ words: String, mentioning folders: [HistoryEntry.FolderMention]) {
        if operationDepth > 0 {
            guard !operationIsDescribed else { return }
            operationIsDescribed = true
        }
        history?.descriptions.append(words)
        history?.folderMentions.append(folders)
    }
}
