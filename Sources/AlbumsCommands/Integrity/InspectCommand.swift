import AlbumsPersistence
import ArgumentParser
import Foundation

struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Explain any SQLite file without writing to it: identity, schema, counts, integrity.",
        discussion: """
            Never creates, migrates or locks anything (no -wal or -shm appear), and
            works on read-only files and media. On an SQLite file of another
            application it reports what it can and why it is not a library.
            Exit status 65 when the file is not SQLite or fails its integrity check.

            Examples:
              albums inspect
              albums inspect ~/Backups/old.albums --full
              albums --json inspect some.db
            """).parsedOnItsOwn

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The file (default: the library).") var file: String?
    @Flag(help: "Run integrity_check (thorough, slower) instead of quick_check.") var full = false

    func run() throws {
        let inspection = try LibraryInspection.inspect(path: file ?? global.resolvedPath(), full: full)
        if global.json {
            try global.console.result(json: InspectionJSON(inspection))
        } else {
            for line in Self.describe(inspection) { global.console.result(line) }
        }
        if !inspection.isSound { throw ExitCode(ExitStatus.unusableFile) }
    }

    static func describe(_ inspection: LibraryInspection) -> [String] {
        let header = inspection.header
        var lines = ["file          \(inspection.path) (\(inspection.fileBytes) bytes)"]
        if inspection.isLibrary {
            lines.append("identity      albums library (application id 0x414C424D)")
        } else {
            let id = UInt32(bitPattern: header.applicationID)
            lines.append("identity      not an albums library: " + (id == 0 ? "no application id" : String(format: "application id 0x%08X (another application's)", id)))
        }
        let applied = inspection.migrations.filter(\.isApplied)
        let pending = inspection.migrations.filter { !$0.isApplied }
        lines.append("schema        version \(inspection.schemaVersion); migrations applied \(applied.count), known \(inspection.migrations.count), pending \(pending.count)"
            + (inspection.unknownVersions.isEmpty ? "" : "; written by a newer albums (versions \(inspection.unknownVersions.map(String.init).joined(separator: ", ")))"))
        for migration in applied where migration.checksumMatches == false {
            lines.append("              migration \(migration.version) '\(migration.name)' differs from this build's")
        }
        lines.append("pages         \(header.pageCount.map(String.init) ?? "?") of \(header.pageSize) bytes, \(header.freelistPageCount) free; journal \(inspection.journalMode)"
            + (inspection.checkpoints.map { "; checkpoints \($0.rawValue)" } ?? ""))
        if let albums = inspection.albums {
            lines.append("albums        \(albums)\(inspection.lockedAlbums.map { $0 > 0 ? " (\($0) locked)" : "" } ?? "")")
            if let folders = inspection.folders { lines.append("folders       \(folders)") }
            lines.append("photos        \(inspection.photos ?? 0)")
            lines.append("items         \(inspection.items ?? 0)")
            let pendingCount = inspection.pendingPlaceholders ?? 0
            lines.append("placeholders  \(pendingCount) pending" + (pendingCount > 0 ? ", \(inspection.stalePlaceholders ?? 0) stale, oldest since \(inspection.oldestPlaceholder ?? "?")" : ""))
        }
        let rows = inspection.tableRows.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        lines.append("rows          \(rows.isEmpty ? "no tables" : rows)")
        // "integrity check" is longer than the other labels' column: a space still parts it from its answer.
        let check = inspection.integrityCheckName.replacingOccurrences(of: "_", with: " ")
        lines.append("\(check.padding(toLength: max(14, check.count + 1), withPad: " ", startingAt: 0))\(inspection.integrity.prefix(10).joined(separator: "; "))")
        lines.append("foreign keys  \(inspection.foreignKeyViolations == 0 ? "ok" : "\(inspection.foreignKeyViolations) dangling reference(s)")")
        return lines
    }
}

/// `inspect --json`.
struct InspectionJSON: Encodable {
    struct MigrationJSON: Encodable {
        let version: Int
        let name: String
        let applied: Bool
        let checksumMatches: Bool?

        /// The JSON keys, in snake_case.
        enum CodingKeys: String, CodingKey {
            case version
            case name
            case applied
            case checksumMatches = "checksum_matches"
        }
    }

    let path: String
    let fileBytes: Int64
    let isLibrary: Bool
    let applicationID: Int32
    let schemaVersion: Int
    let migrations: [MigrationJSON]
    let unknownMigrations: [Int]
    let pageSize: Int
    let pageCount: UInt32?
    let freePages: UInt32
    let journalMode: String
    let checkpoints: String?
    let tableRows: [String: Int]
    let albums: Int?
    let folders: Int?
    let photos: Int?
    let items: Int?
    let pendingPlaceholders: Int?
    let stalePlaceholders: Int?
    let oldestPlaceholder: String?
    let integrityCheck: String
    let integrity: [String]
    let foreignKeyViolations: Int
    let sound: Bool

    init(_ inspection: LibraryInspection) {
        path = inspection.path
        fileBytes = inspection.fileBytes
        isLibrary = inspection.isLibrary
        applicationID = inspection.header.applicationID
        schemaVersion = inspection.schemaVersion
        migrations = inspection.migrations.map { .init(version: $0.version, name: $0.name, applied: $0.isApplied, checksumMatches: $0.checksumMatches) }
        unknownMigrations = inspection.unknownVersions
        pageSize = inspection.header.pageSize
        pageCount = inspection.header.pageCount
        freePages = inspection.header.freelistPageCount
        journalMode = inspection.journalMode
        checkpoints = inspection.checkpoints?.rawValue
        tableRows = inspection.tableRows
        albums = inspection.albums
        folders = inspection.folders
        photos = inspection.photos
        items = inspection.items
        pendingPlaceholders = inspection.pendingPlaceholders
        stalePlaceholders = inspection.stalePlaceholders
        oldestPlaceholder = inspection.oldestPlaceholder
        integrityCheck = inspection.integrityCheckName
        integrity = inspection.integrity
        foreignKeyViolations = inspection.foreignKeyViolations
        sound = inspection.isSound
    }

    /// The JSON keys, in snake_case.
    enum CodingKeys: String, CodingKey {
        case path
        case fileBytes = "file_bytes"
        case isLibrary = "is_library"
        case applicationID = "application_id"
        case schemaVersion = "schema_version"
        case migrations
        case unknownMigrations = "unknown_migrations"
        case pageSize = "page_size"
        case pageCount = "page_count"
        case freePages = "free_pages"
        case journalMode = "journal_mode"
        case checkpoints
        case tableRows = "table_rows"
        case albums
        case folders
        case photos
        case items
        case pendingPlaceholders = "pending_placeholders"
        case stalePlaceholders = "stale_placeholders"
        case oldestPlaceholder = "oldest_placeholder"
        case integrityCheck = "integrity_check"
        case integrity
        case foreignKeyViolations = "foreign_key_violations"
        case sound
    }
}
