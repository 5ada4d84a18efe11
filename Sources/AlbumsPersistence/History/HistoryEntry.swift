import Foundation

/// One change a person made, as the history keeps it: what it was, when,
/// which albums it touched, and whether it is undone.
///
/// Every committed change is one entry (a batch is one); a load committing
/// into its placeholder, or failing, is part of the import that began it.
public struct HistoryEntry: Hashable, Sendable, Identifiable {
    /// An album as the entry names it: by id, with its name at the time.
    public struct AlbumMention: Hashable, Sendable {
        /// The album's id.
        public let id: AlbumID
        /// Its name when the change was made.
        public let name: String

        /// An album as an entry names it.
        public init(id: AlbumID, name: String) {
            self.id = id
            self.name = name
        }
    }

    /// Grows with every entry, in commit order across every process.
    public let id: Int64
    /// When the change was first committed.
    public let committedAt: Date
    /// What was done, in words: "move 3 items to 'Book' at position 2".
    public let description: String
    /// The albums the change touched, by id.
    public let albums: [AlbumMention]
    /// Whether the change is undone (and can be redone).
    public let isUndone: Bool
    /// How many row changes reversing it writes: its size in the file.
    public let rowChangeCount: Int
    /// Who made the change.
    public let madeBy: Maker
    /// The folders ``description`` names, by id, with the paths it names
    /// them by; nil when it names none, or was written before these were kept.
    let folderMentions: [FolderMention]?

    /// A folder a change's words name: its id, and its path then.
    package struct FolderMention: Hashable, Sendable, Codable {
        package let id: Int64
        package let path: String
    }

    init(
        id: Int64, committedAt: Date, description: String, albums: [AlbumMention], isUndone: Bool, rowChangeCount: Int, madeBy: Maker,
        folderMentions: [FolderMention]? = nil
    ) {
        self.id = id
        self.committedAt = committedAt
        self.description = description
        self.albums = albums
        self.isUndone = isUndone
        self.rowChangeCount = rowChangeCount
        self.madeBy = madeBy
        self.folderMentions = folderMentions
    }

    /// This entry described in other words (the same change).
    func described(as words: String) -> HistoryEntry {
        HistoryEntry(
            id: id, committedAt: committedAt, description: words, albums: albums, isUndone: isUndone, rowChangeCount: rowChangeCount,
            madeBy: madeBy, folderMentions: folderMentions)
    }

    /// Who made a change, as the history names them.
    public enum Maker: Hashable, Sendable, CustomStringConvertible {
        /// Whoever holds the file: the CLI, or an app linking the library.
        case holder
        /// A person, by the name they had then.
        case person(String)
        /// Someone holding a share link, by the link's id.
        case shareLink(Int64)

        init(kind: String, name: String?) {
            switch kind {
            case "person": self = .person(name ?? "")
            case "share_link": self = .shareLink(name.flatMap(Int64.init) ?? 0)
            default: self = .holder
            }
        }

        init(_ principal: Principal) {
            switch principal {
            case .holder: self = .holder
            case .person(let person): self = .person(person.name)
            case .shareLink(let id, _): self = .shareLink(id.rawValue)
            }
        }

        /// The file's words for the kind: `holder`, `person`, `share_link`.
        public var kind: String {
            switch self {
            case .holder: "holder"
            case .person: "person"
            case .shareLink: "share_link"
            }
        }

        /// What the column `actor_name` holds: the person's name, the link's id.
        var storedName: String? {
            switch self {
            case .holder: nil
            case .person(let name): name
            case .shareLink(let id): String(id)
            }
        }

        /// "cli", "ana", "share link 3".
        public var description: String {
            switch self {
            case .holder: "cli"
            case .person(let name): name
            case .shareLink(let id): "share link \(id)"
            }
        }
    }
}

/// An undo or a redo: the entry it reversed or re-applied, and the change
/// sets of doing so, for a view to animate.
public struct HistoryReplayResult: Hashable, Sendable {
    /// The entry, as it stands afterwards.
    public let entry: HistoryEntry
    /// One change set per album the replay changed.
    public let changes: [AlbumChangeSet]
}

/// How much history a library keeps.
public enum HistoryRetention {
    /// Entries kept unless the library says otherwise (``LibraryWriter/setKeptHistoryEntries(_:)``).
    public static let defaultKeptEntries = 1_000
    /// The most entries a library may be told to keep.
    public static let maximumKeptEntries = 1_000_000
    /// Row changes kept at most, over all entries (about 60 MB of the
    /// file): older entries are dropped first, and the newest entry is
    /// always kept, whatever its size, so the last change can be undone.
    public static let keptRowChanges = 1_000_000
    /// Entries are counted against the limits once every this many.
    static let pruneInterval: Int64 = 32
}
