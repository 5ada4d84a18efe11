import AlbumsImporting
import AlbumsPersistence
import AlbumsTransfer
import ArgumentParser
import Foundation

struct PendingCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pending",
        abstract: "List, resume or cancel the loads that placeholders are waiting for.",
        discussion: """
            A placeholder records its source and the process that owns its load.
            If that process is gone (a crash, a kill), the placeholder is stale:
            a normal state, recovered by resuming or cancelling it.

            Examples:
              albums pending
              albums pending resume          # every stale placeholder
              albums pending cancel 812 813
            """,
        subcommands: [List.self, Resume.self, Cancel.self],
        defaultSubcommand: List.self).parsedOnItsOwn

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List pending placeholders, stale ones marked.").parsedOnItsOwn

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let pending = try global.openLibrary(for: .reading).read { try $0.pendingPlaceholders() }
            if global.json {
                try global.console.result(json: ["pending": pending.map(PendingJSON.init)])
                return
            }
            if pending.isEmpty {
                global.console.result("no pending loads")
                return
            }
            let rows = pending.map { placeholder in
                [String(placeholder.id.rawValue), "\(placeholder.albumName):\(placeholder.index + 1)",
                 placeholder.isStale ? "stale" : "loading", Self.age(since: placeholder.load.createdAt),
                 "\(placeholder.load.owner.host):\(placeholder.load.owner.processID)", placeholder.load.source]
            }
            for line in Table(header: ["ID", "WHERE", "STATE", "AGE", "OWNER", "SOURCE"], rows: rows).lines {
                global.console.result(line)
            }
        }

        static func age(since date: Date) -> String {
            let seconds = max(0, Int(Date().timeIntervalSince(date)))
            switch seconds {
            case ..<60: return "\(seconds)s"
            case ..<3600: return "\(seconds / 60)m"
            case ..<86_400: return "\(seconds / 3600)h"
            default: return "\(seconds / 86_400)d"
            }
        }
    }

    struct Resume: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "resume", abstract: "Load again, from their recorded source, the placeholders named (default: every stale one).").parsedOnItsOwn

        @OptionGroup var global: GlobalOptions
        @Argument(help: "Placeholder ids (see albums pending).") var ids: [Int64] = []
        @Option(help: "How many files load at once (default: the number of cores; 1 reads and commits one at a time).") var jobs: Int?
        @OptionGroup var write: WriteOptions

        func run() async throws {
            let library = try global.openLibrary(for: write.dryRun ? .reading : .writing)
            let chosen = try PendingCommand.select(ids, in: library)
            let albums = Set(chosen.map(\.albumName))
            let expected = try write.revisions(target: albums.count == 1 ? albums.first.map(AlbumReference.named) : nil)
            guard !chosen.isEmpty else {
                if global.json {
                    try global.console.result(json: LoadReportJSON(
                        album: nil, imported: [], alreadyInAlbum: [], skipped: [], failed: [], cancelled: [], changes: []))
                } else {
                    global.console.result("no stale placeholders to resume")
                }
                return
            }
            if write.dryRun {
                try await library.read { try $0.requireRevisions(expected) }
                if global.json {
                    try global.console.result(json: ["dry_run": AnyEncodable(true), "resumed": AnyEncodable(chosen.map(PendingJSON.init))])
                    return
                }
                global.console.result("would resume \(chosen.count) load\(chosen.count == 1 ? "" : "s")")
                for placeholder in chosen { global.console.result("  \(placeholder.albumName):\(placeholder.index + 1)  \(placeholder.load.source)") }
                return
            }
            // A load begun with import --copy keeps its copy where the library keeps its originals now.
            let keeper = chosen.contains(where: \.load.keepsCopy) ? try library.currentKeeper() : nil
            let runner = LoadRunner(session: TransferSession(library: library), keeper: keeper, jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount)
            let session = LoadSession(library: library, console: global.console)
            let report = try await session.run { progress in try await runner.resume(chosen, expecting: expected, progress: progress) }
            try session.print(report, album: albums.count == 1 ? albums.first : nil, verb: "resumed")
        }
    }

    struct Cancel: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "cancel", abstract: "Remove the placeholders named (default: every stale one); their loads will not happen.").parsedOnItsOwn

        @OptionGroup var global: GlobalOptions
        @Argument(help: "Placeholder ids (see albums pending).") var ids: [Int64] = []
        @OptionGroup var write: WriteOptions

        func run() throws {
            let library = try global.openLibrary(for: write.dryRun ? .reading : .writing)
            let chosen = try PendingCommand.select(ids, in: library)
            let albums = Set(chosen.map(\.albumName))
            let expected = try write.revisions(target: albums.count == 1 ? albums.first.map(AlbumReference.named) : nil)
            try library.write(dryRun: write.dryRun) { writer in
                try writer.requireRevisions(expected)
                try writer.deletePlaceholders(chosen.map(\.id))
            }
            if global.json {
                try global.console.result(json: ["cancelled": chosen.map(PendingJSON.init)])
            } else {
                global.console.result("\(write.dryRun ? "would cancel" : "cancelled") \(chosen.count) pending load\(chosen.count == 1 ? "" : "s")")
                for placeholder in chosen { global.console.result("  \(placeholder.albumName):\(placeholder.index + 1)  \(placeholder.load.source)") }
            }
        }
    }

    /// The placeholders named by id, or every stale one when none is named.
    static func select(_ ids: [Int64], in library: Library) throws -> [PendingPlaceholder] {
        let pending = try library.read { try $0.pendingPlaceholders() }
        guard !ids.isEmpty else { return pending.filter(\.isStale) }
        return try ids.map { id in
            guard let placeholder = pending.first(where: { $0.id.rawValue == id }) else {
                throw CommandFailure(status: ExitStatus.refused, code: "item_not_found", message: "no pending placeholder with id \(id); albums pending lists them")
            }
            return placeholder
        }
    }
}

/// A pending placeholder as JSON.
struct PendingJSON: Encodable {
    let placeholderID: Int64
    let album: String
    let position: Int
    let source: String
    let ownerHost: String
    let ownerPid: Int32
    let createdAt: String
    let stale: Bool

    init(_ placeholder: PendingPlaceholder) {
        placeholderID = placeholder.id.rawValue
        album = placeholder.albumName
        position = placeholder.index + 1
        source = placeholder.load.source
        ownerHost = placeholder.load.owner.host
        ownerPid = placeholder.load.owner.processID
        createdAt = Timestamp.text(placeholder.load.createdAt)
        stale = placeholder.isStale
    }

    /// The JSON keys, in snake_case.
    enum CodingKeys: String, CodingKey {
        case placeholderID = "placeholder_id"
        case album
        case position
        case source
        case ownerHost = "owner_host"
        case ownerPid = "owner_pid"
        case createdAt = "created_at"
        case stale
    }
}
