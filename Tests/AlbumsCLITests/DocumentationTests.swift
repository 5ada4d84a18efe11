import Foundation
import Testing

/// The docs a newcomer reads stay a way in: the README short, every page it
/// and the others link to present.
@Suite("The documentation")
struct DocumentationTests {
    static let root = CLI.packageRoot

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appending(path: path), encoding: .utf8)
    }

    static var pages: [String] {
        let documentation = (try? FileManager.default.contentsOfDirectory(atPath: root.appending(path: "Documentation").path)) ?? []
        return ["README.md", "ARCHITECTURE.md", "RELIABILITY.md", "BENCHMARKS.md"]
            + documentation.filter { $0.hasSuffix(".md") }.sorted().map { "Documentation/" + $0 }
    }

    @Test("the README gets a newcomer going: at most 300 lines, pointing to a page for each topic")
    func readmeIsAWayIn() throws {
        let readme = try Self.text("README.md")
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(lines <= 300, "the README has \(lines) lines: move the manual to Documentation/")
        for page in ["Commands", "Importing", "PhotoFacts", "History", "Backups", "Server", "People", "Embedding", "TransferSemantics", "FileFormat"] {
            #expect(readme.contains("(Documentation/\(page).md)"), "the README does not point to Documentation/\(page).md")
        }
        #expect(readme.contains("(ARCHITECTURE.md)"))
        // Its first paragraph says where the photos live: a library keeps no copy of them.
        let first = readme.components(separatedBy: "\n\n").dropFirst().first ?? ""
        #expect(first.contains("keeps no") && first.contains("copy"), "\(first)")
    }

    @Test("every relative link of the docs names a file that exists")
    func linksResolve() throws {
        var broken: [String] = []
        for page in Self.pages {
            let text = try Self.text(page)
            let folder = (page as NSString).deletingLastPathComponent
            // [text](target) and src="target", not web addresses or anchors.
            let pattern = /\]\(([^)#\s]+)(?:#[^)]*)?\)|src="([^"#]+)"/
            for match in text.matches(of: pattern) {
                guard let target = match.output.1 ?? match.output.2 else { continue }
                let path = String(target)
                if path.contains("://") || path.hasPrefix("mailto:") { continue }
                let resolved = Self.root.appending(path: folder).appending(path: path).standardizedFileURL.path
                if !FileManager.default.fileExists(atPath: resolved) { broken.append("\(page): \(path)") }
            }
        }
        #expect(broken == [], "broken links")
    }
}
