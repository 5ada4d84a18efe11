import AlbumsPersistence
import AlbumsTransfer
import AlbumsWire
import ArgumentParser
import Foundation

struct ApplyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apply",
        abstract: "Apply a batch of operations (JSON Lines) in one transaction: all of them, or none.",
        discussion: """
            One JSON object per line (Documentation/TransferSemantics.md, "Batches as JSON Lines"):
              {"op": "move", "items": ["Trip:3", "Trip:5-7"], "to": "Book", "at": 2}
              {"op": "copy", "items": ["id:42"], "to": "Portfolio"}
              {"op": "swap", "items": ["Book:1", "Book:9"]}
              {"op": "remove", "items": ["Trip:2"], "expect_revision": {"Trip": 12}}
              {"op": "create_album", "name": "Lisbon", "at": 1}
              {"op": "rename_album", "album": "Lisbon", "name": "Lisbon 2026"}
              {"op": "move_album", "album": "Book", "at": 2}
              {"op": "sort_album", "album": "Book", "by": "capture-date", "descending": true}
            Each operation sees what the earlier ones did. The first refused one
            aborts the batch and is named with its line.

            Examples:
              albums apply changes.jsonl
              generate-moves | albums apply - --dry-run
            """).parsedOnItsOwn

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The JSON Lines file, or - for standard input.") var file: String
    @Flag(help: "Say what would change, without writing anything.") var dryRun = false

    func run() throws {
        let data: Data
        do {
            data = file == "-" ? FileHandle.standardInput.readDataToEndOfFile() : try Data(contentsOf: URL(fileURLWithPath: file))
        } catch {
            throw LibraryError.fileAccess(path: file, error: error)
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw CommandFailure(status: ExitStatus.usage, code: "invalid_batch", message: "\(file) is not UTF-8 text")
        }
        let numbered = try TransferBatchFormat.numberedOperations(fromJSONLines: text)
        let operations = numbered.map(\.operation)
        let results: [TransferResult]
        do {
            results = try TransferSession(library: try global.openLibraryToWrite(dryRun: dryRun, what: "a batch", purpose: .creating)).perform(batch: operations, dryRun: dryRun)
        } catch var refusal as BatchRefusal {
            refusal.line = numbered[refusal.index].line
            throw refusal
        }
        let changes = results.map(\.changes)
        if global.json {
            try global.console.result(json: [
                "dry_run": AnyEncodable(dryRun), "operations": AnyEncodable(operations.count),
                "changes": AnyEncodable(changes.map { $0.map(ChangeJSON.init) }),
            ])
            return
        }
        global.console.result("\(dryRun ? "would apply" : "applied") \(operations.count) operation\(operations.count == 1 ? "" : "s") in one transaction")
        for (index, operationChanges) in changes.enumerated() {
            for change in operationChanges { global.console.result("  \(index + 1). " + ChangeSummary(change).text) }
        }
    }
}

/// Any Encodable, for JSON objects whose values differ in type.
struct AnyEncodable: Encodable {
    private let encodeValue: (any Encoder) throws -> Void
    init(_ value: some Encodable) { encodeValue = value.encode }
    func encode(to encoder: any Encoder) throws { try encodeValue(encoder) }
}
