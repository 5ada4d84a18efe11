import GRDB

/// Read access to a library inside one snapshot (see ``Library/read(_:)``).
///
/// Valid only inside the closure it is passed to.
public class LibraryReader {
    let db: Database
    /// The library file's path, for messages.
    public let path: String
    /// The library's kept segment maps, if it keeps them.
    private let segmentMaps: SegmentMapCache?
    /// Whose rights reads and writes are checked against; nil: the file's holder, unchecked.
    var rights: AccessRights?
    /// Up to how many items a person's albums hold do their searches start
    /// from them (``LibraryReader/seenFirstLimit``); tests move it to try both ways.
    package var searchStartsFromSeenUpTo = LibraryReader.seenFirstLimit
    /// Up to how many photos a name's or words' trigrams may name for a
    /// search to start from them (``LibraryReader/nameCandidateLimit``); tests move it to try both ways.
    package var searchStartsFromCandidatesUpTo = LibraryReader.nameCandidateLimit
    /// SQLite's count of changes on this connection when the access began:
    /// once it moves, this transaction has written, and maps kept from
    /// committed states no longer describe what it sees.
    private let changesAtStart: Int
    /// The segment maps this access used before it wrote anything: the
    /// state a writer's count changes apply to.
    private(set) var unwrittenMaps: [AlbumID: SegmentMap] = [:]

    /// Smart albums' counts and covers kept between reads, if the library keeps them.
    let smartAlbumSummaries: SmartAlbumSummaries?

    init(db: Database, path: String, segmentMaps: SegmentMapCache? = nil, smartAlbumSummaries: SmartAlbumSummaries? = nil) {
        self.db = db
        self.path = path
        self.segmentMaps = segmentMaps
        self.smartAlbumSummaries = smartAlbumSummaries
        self.changesAtStart = db.totalChangesCount
    }

    /// Whether this access has written: what it reads since is no committed state.
    var hasWritten: Bool { db.totalChangesCount != changesAtStart }

    /// The segment map of `album` as this access sees it: kept from an
    /// earlier read at the same revision when this access has not written,
    /// else read now (and kept, if nothing was written).
    func segmentMap(for album: Album) throws -> SegmentMap {
        let unwritten = db.totalChangesCount == changesAtStart
        if unwritten, let kept = segmentMaps?.map(for: album.id, revision: album.revision), kept.itemCount == album.itemCount {
            unwrittenMaps[album.id] = kept
            return kept
        }
        let map = SegmentMap(revision: album.revision, segments: try AlbumOrder(db: db, albumID: album.id).segments())
        if unwritten {
            segmentMaps?.store(map, for: album.id)
            unwrittenMaps[album.id] = map
        }
        return map
    }

    /// `album` as this access sees it: a writer adds the item and
    /// placeholder counts its operations changed, which it writes on commit
    /// (``LibraryWriter``).
    func current(_ album: Album) -> Album { album }

    /// The underlying GRDB connection, for this package's benchmarks and
    /// tests. Not public: writing through it would bypass every invariant
    /// ``LibraryWriter`` keeps, and no GRDB type is part of the API.
    package var database: Database { db }
}
