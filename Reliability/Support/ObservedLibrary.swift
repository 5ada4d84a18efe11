import Foundation
import GRDB

/// One slot of an album as the harness sees it: the photo's content, or a
/// placeholder's source. Ids are left out on purpose, so that the model
/// never depends on how the file numbers its rows.
enum Slot: Hashable, CustomStringConvertible {
    case photo(sha256: String)
    case placeholder(source: String)

    var description: String {
        switch self {
        case .photo(let sha256): "photo \(sha256.prefix(8))"
        case .placeholder(let source): "placeholder \((source as NSString).lastPathComponent)"
        }
    }
}

/// An album or a folder in the tree, by name (folder names are unique in
/// the harness's libraries, album names in every library).
enum TreeNode: Hashable, CustomStringConvertible {
    case album(String)
    case folder(String)

    var description: String {
        switch self {
        case .album(let name): name
        case .folder(let name): name + "/"
        }
    }
}

/// What a library file holds, read with plain SQL on a read-only
/// connection: independent of albums' own reading code, so a bug there
/// cannot hide itself.
struct ObservedLibrary: Equatable {
    /// Albums in their order, each with its slots in order.
    var albums: [String: [Slot]] = [:]
    /// The albums in the tree's order: each folder's where it stands, depth first.
    var albumOrder: [String] = []
    /// The tree: each folder's children in order, by folder name ("": the top level).
    var children: [String: [TreeNode]] = ["": []]
    /// Every photo in the file, in an album or not.
    var photos: Set<String> = []
    /// Where the history stands (migration 0005).
    var history = HistoryMarks()
    /// Who may do what (migration 0009), as sorted lines: `grant PERSON
    /// ALBUM ROLE`, `disabled PERSON`, `links N`.
    var sharing: [String] = []

    /// The newest history entry, and the ones undo and redo would take.
    struct HistoryMarks: Equatable {
        var newest: Int64?
        var nextUndo: Int64?
        var nextRedo: Int64?
    }

    static func read(_ path: String) throws -> ObservedLibrary {
        let queue = try observerQueue(path)
        defer { try? queue.close() }
        return try queue.read { db in
            var observed = ObservedLibrary()
            observed.children = try Self.readTree(db)
            observed.albumOrder = Self.albumOrder(in: observed.children)
            for name in observed.albumOrder { observed.albums[name] = [] }
            let rows = try Row.fetchCursor(db, sql: """
                SELECT a.name, lower(hex(p.sha256)), i.load_source, i.photo_id IS NULL
                FROM album_item i
                JOIN album a ON a.id = i.album_id
                JOIN album_segment s ON s.id = i.segment_id
                LEFT JOIN photo p ON p.id = i.photo_id
                ORDER BY a.order_key, s.order_key, i.order_key
                """)
            while let row = try rows.next() {
                let name: String = row[0]
                // hex(NULL) is '', so the placeholder test reads photo_id itself.
                let isPlaceholder: Bool = row[3]
                observed.albums[name, default: []].append(isPlaceholder ? .placeholder(source: row[2]) : .photo(sha256: row[1]))
            }
            observed.photos = Set(try String.fetchAll(db, sql: "SELECT lower(hex(sha256)) FROM photo"))
            if let marks = try Row.fetchOne(db, sql: """
                SELECT (SELECT max(id) FROM history_entry), (SELECT max(id) FROM history_entry WHERE is_undone = 0),
                    (SELECT min(id) FROM history_entry WHERE is_undone = 1)
                """) {
                observed.history = HistoryMarks(newest: marks[0], nextUndo: marks[1], nextRedo: marks[2])
            }
            observed.sharing = try String.fetchAll(db, sql: """
                SELECT 'grant ' || p.name || ' ' || a.name || ' ' || g.role
                FROM role_grant g JOIN person p ON p.id = g.person_id JOIN album a ON a.id = g.album_id
                UNION ALL SELECT 'disabled ' || name FROM person WHERE is_disabled
                UNION ALL SELECT 'links ' || count(*) FROM share_link
                """).sorted()
            return observed
        }
    }

    /// The tree from the rows: each parent's albums and folders by key, a
    /// folder first on a tie (none is expected: albums check reports it).
    static func readTree(_ db: Database) throws -> [String: [TreeNode]] {
        let folderNames = Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT id, name FROM folder").map { ($0[0] as Int64, $0[1] as String) })
        var keyed: [String: [(key: Int64, isAlbum: Bool, node: TreeNode)]] = ["": []]
        for row in try Row.fetchAll(db, sql: "SELECT 0, name, parent_id, order_key FROM folder UNION ALL SELECT 1, name, parent_id, order_key FROM album") {
            let isAlbum: Bool = row[0]
            let name: String = row[1]
            let parent = (row[2] as Int64?).flatMap { folderNames[$0] } ?? ""
            keyed[parent, default: []].append((row[3], isAlbum, isAlbum ? .album(name) : .folder(name)))
            if !isAlbum, keyed[name] == nil { keyed[name] = [] }
        }
        return keyed.mapValues { list in
            list.sorted { $0.key != $1.key ? $0.key < $1.key : (!$0.isAlbum && $1.isAlbum) }.map(\.node)
        }
    }

    /// The albums of a tree, depth first.
    static func albumOrder(in children: [String: [TreeNode]]) -> [String] {
        var order: [String] = []
        func visit(_ parent: String) {
            for node in children[parent] ?? [] {
                switch node {
                case .album(let name): order.append(name)
                case .folder(let name): visit(name)
                }
            }
        }
        visit("")
        return order
    }

    var placeholders: [String] {
        albums.values.flatMap { $0 }.compactMap {
            if case .placeholder(let source) = $0 { source } else { nil }
        }
    }

    /// The first difference from another state, for failure messages.
    func difference(from other: ObservedLibrary) -> String {
        if children != other.children { return "the tree \(children) vs \(other.children)" }
        if albumOrder != other.albumOrder { return "albums \(albumOrder) vs \(other.albumOrder)" }
        for name in albumOrder where albums[name] != other.albums[name] {
            let mine = albums[name] ?? [], theirs = other.albums[name] ?? []
            let first = zip(mine, theirs).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(mine.count, theirs.count)
            return "album '\(name)' differs at position \(first + 1): \(mine.count) vs \(theirs.count) slots, "
                + "\(mine.dropFirst(first).prefix(3)) vs \(theirs.dropFirst(first).prefix(3))"
        }
        if photos != other.photos { return "photos: \(photos.count) vs \(other.photos.count)" }
        return "no difference"
    }
}

/// A read-only connection for a harness to look at a library with.
/// Albums processes may be writing, checkpointing or closing the last
/// connection (which locks the file a moment) meanwhile: it waits as theirs do.
func observerQueue(_ path: String) throws -> DatabaseQueue {
    var configuration = Configuration()
    configuration.readonly = true
    configuration.busyMode = .timeout(10)
    return try DatabaseQueue(path: path, configuration: configuration)
}
