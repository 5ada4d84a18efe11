import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a command's words go: results to stdout, diagnostics to stderr,
/// JSON when asked for, progress only on a terminal.
package struct Console: Sendable {
    package let json: Bool

    /// Whether stderr is a terminal: progress and colour go there only then.
    static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// Prints a result line on stdout.
    package func result(_ line: String) {
        StandardStream.output.write(line + "\n")
    }

    /// Prints a diagnostic line on stderr.
    package func note(_ line: String) {
        StandardStream.error.write(line + "\n")
    }

    /// Prints a notice on stderr that is neither a result nor an error
    /// (what an upgrade did): `albums: …`, or `{"note": "…"}` under --json.
    func notice(_ text: String) {
        guard json else { return note("albums: " + text) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        note((try? encoder.encode(["note": text])).map { String(decoding: $0, as: UTF8.self) } ?? "")
    }

    /// Prints a JSON document on stdout: sorted keys, one line per document
    /// would hide structure, so it is pretty-printed.
    func result(json value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        result(String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    /// Rewrites the progress line on stderr (a terminal only).
    func progress(_ line: String) {
        guard !json, Self.stderrIsTerminal else { return }
        StandardStream.error.write("\r\u{1B}[2K" + line)
    }

    func endProgress() {
        guard !json, Self.stderrIsTerminal else { return }
        StandardStream.error.write("\r\u{1B}[2K")
    }
}
