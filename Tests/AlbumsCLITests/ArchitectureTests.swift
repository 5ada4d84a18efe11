import Foundation
import Testing

/// ARCHITECTURE.md is held to the tree: its module table says what each
/// module imports and which are products, and every file, folder, type and
/// member its prose names exists. A renamed type or a moved file fails here
/// until the page says so.
@Suite("ARCHITECTURE.md against the tree")
struct ArchitectureTests {
    static let root = CLI.packageRoot

    static func page() throws -> String {
        try String(contentsOf: root.appending(path: "ARCHITECTURE.md"), encoding: .utf8)
    }

    /// Every file below `folder` (the build's folders aside), relative to the package root.
    static func files(under folder: String) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: root.appending(path: folder).path) else { return [] }
        return walker.compactMap { $0 as? String }.filter { !$0.hasPrefix(".build") && !$0.contains("/.build") }.map { "\(folder)/\($0)" }
    }

    /// The Swift and JavaScript sources of the modules and the tests (this
    /// file aside: it spells stale names on purpose), read once.
    static let sources: [(path: String, text: String)] = (files(under: "Sources") + files(under: "Tests"))
        .filter { ($0.hasSuffix(".swift") || $0.hasSuffix(".js") || $0.hasSuffix(".mjs")) && !$0.hasSuffix("/ArchitectureTests.swift") }
        .compactMap { path in (try? String(contentsOf: root.appending(path: path), encoding: .utf8)).map { (path, $0) } }

    /// Every identifier the sources spell.
    static let words: Set<Substring> = Set(sources.flatMap { $0.text.split { !($0.isLetter || $0.isNumber || $0 == "_") } })

    // MARK: - The module table

    struct ModuleRow {
        let module: String
        let isProduct: Bool
        let imports: Set<String>
    }

    func moduleRows() throws -> [ModuleRow] {
        let page = try Self.page()
        guard let start = page.range(of: "## The modules\n") else { throw LayoutError("ARCHITECTURE.md has no modules section") }
        return page[start.upperBound...].split(separator: "\n").prefix { !$0.hasPrefix("## ") }
            .filter { $0.hasPrefix("| `") }
            .map { line in
                let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
                return ModuleRow(
                    module: LayoutTableTests.quoted(in: cells[0]).first ?? "",
                    isProduct: cells[1] == "library",
                    imports: Set(LayoutTableTests.quoted(in: cells[2])))
            }
    }

    /// The package's own modules a module's sources import.
    static func imports(of module: String, among modules: Set<String>) -> Set<String> {
        var found: Set<String> = []
        for (path, text) in sources where path.hasPrefix("Sources/\(module)/") && path.hasSuffix(".swift") {
            for line in text.split(separator: "\n") where line.hasPrefix("import ") || line.hasPrefix("@testable import ") {
                let name = String(line.split(separator: " ").last ?? "")
                if modules.contains(name) && name != module { found.insert(name) }
            }
        }
        return found
    }

    @Test("the module table names each library module's imports and products as they are")
    func moduleTable() throws {
        let rows = try moduleRows()
        let modules = Set(try FileManager.default.contentsOfDirectory(atPath: Self.root.appending(path: "Sources").path))
        let manifest = try String(contentsOf: Self.root.appending(path: "Package.swift"), encoding: .utf8)
        let products = Set(manifest.matches(of: /\.library\(name: "(\w+)"/).map { String($0.1) })
        #expect(rows.count >= 9, "the module table has \(rows.count) rows")
        for module in modules where module.hasPrefix("Albums") {
            #expect(rows.contains { $0.module == module }, "\(module) has no row in the module table")
        }
        for row in rows {
            #expect(modules.contains(row.module), "the module table names \(row.module), which is not in Sources")
            #expect(row.imports == Self.imports(of: row.module, among: modules), "\(row.module) imports \(Self.imports(of: row.module, among: modules).sorted()), not \(row.imports.sorted())")
            #expect(row.isProduct == products.contains(row.module), "\(row.module): the table and Package.swift disagree on whether it is a product")
        }
    }

    // MARK: - Names in the prose

    /// What a `quoted` name in the page is, if it is something the tree must hold.
    enum Name: Equatable {
        /// A file or folder: `Changes/ChangeJournal.swift`, `People/`, `live.js`.
        case path(String)
        /// A type, or a member of one: `TransferSession`, `LibraryWriter.finish`.
        case symbol(type: String, member: String?)
        /// A function or variable of the sources: `executeMove`, `applyChanges`.
        case identifier(String)

        init?(_ text: String) {
            if text.contains(where: { " *…?\"=,".contains($0) }) || text.first.map({ ".-(+".contains($0) }) == true && !text.hasSuffix(".swift") { return nil }
            let fileTypes = [".swift", ".js", ".mjs", ".py", ".md", ".json", ".sql"]
            if text.contains("/") || fileTypes.contains(where: text.hasSuffix) {
                self = .path(text.hasSuffix("/") ? String(text.dropLast()) : text)
            } else if let match = text.wholeMatch(of: /([A-Z][A-Za-z0-9]*)(?:\.([a-z][A-Za-z0-9]*)(?:\(.*\))?)?/) {
                self = .symbol(type: String(match.1), member: match.2.map(String.init))
            } else if let match = text.wholeMatch(of: /([a-z]+[A-Z][A-Za-z0-9]*)(?:\(.*\))?/) {
                self = .identifier(String(match.1))
            } else {
                return nil
            }
        }
    }

    static let allPaths: [String] = ["Sources", "Tests", "Examples", "Benchmarks", "Reliability", "Fuzz", "Plugins", "BuildTools", "scripts", "migrations"]
        .flatMap { [$0] + files(under: $0) } + ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? [])

    static func exists(_ name: Name) -> Bool {
        switch name {
        case .path(let path):
            let tail = path.hasPrefix("+") ? path : "/" + path
            return allPaths.contains { $0 == path || $0.hasSuffix(tail) }
        case .symbol(let type, nil):
            // Declared here, or a dependency's type the sources use (`HTTPResponseError`).
            return words.contains(Substring(type))
        case .symbol(let type, let member?):
            let holders = ["struct", "enum", "class", "actor", "protocol", "extension"].map { "\($0) \(type)" }
            let declarations = ["func", "var", "let", "case"].map { "\($0) \(member)" }
            return sources.contains { source in
                holders.contains { spells(source.text, $0) } && declarations.contains { spells(source.text, $0) }
            }
        case .identifier(let identifier):
            return words.contains(Substring(identifier))
        }
    }

    /// Whether `text` holds `phrase` as whole words: `func finish` is not in `func finishAll`.
    static func spells(_ text: String, _ phrase: String) -> Bool {
        text.ranges(of: phrase).contains { range in
            range.upperBound == text.endIndex || !(text[range.upperBound].isLetter || text[range.upperBound].isNumber || text[range.upperBound] == "_")
        }
    }

    @Test("every file, folder, type and member the page names is in the tree")
    func namesExist() throws {
        let names = Set(LayoutTableTests.quoted(in: try Self.page())).compactMap(Name.init)
        #expect(names.count > 150, "only \(names.count) names read: the reading is broken")
        for name in names {
            #expect(Self.exists(name), "ARCHITECTURE.md names \(name), which is not in the tree")
        }
    }

    @Test("the reading of names tells a stale one")
    func staleNamesFail() {
        #expect(Name("LibraryWriter.finish") == .symbol(type: "LibraryWriter", member: "finish"))
        #expect(!Self.exists(.symbol(type: "LibraryWriter", member: "finishEverything")))
        #expect(!Self.exists(.symbol(type: "LibraryWrite", member: "finish")))
        #expect(!Self.exists(.symbol(type: "LibraryWriter", member: "fin")))
        #expect(!Self.exists(.symbol(type: "TransferEngine", member: nil)))
        #expect(!Self.exists(.path("AlbumsTransfer/Failures/FailureOutcome.swift")))
        #expect(!Self.exists(.identifier("executeEverything")))
        #expect(Self.exists(.path("Changes/ChangeJournal.swift")))
        #expect(Name("albums move Trip:3 --to Book --at 1") == nil)
    }
}
