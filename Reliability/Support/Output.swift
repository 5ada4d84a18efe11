import Foundation

/// Progress and failures go to stderr; the tables of figures to stdout.
struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        FileHandle.standardError.write(Data(string.utf8))
    }
}

nonisolated(unsafe) var standardError = StandardError()

/// The repository this harness was built from, for the example photos.
let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

/// A Markdown table, as BENCHMARKS.md and RELIABILITY.md print them.
func markdownTable(_ header: [String], _ rows: [[String]]) -> String {
    ([header, header.map { _ in "---" }] + rows).map { "| " + $0.joined(separator: " | ") + " |" }.joined(separator: "\n")
}
