import Foundation
import Testing

/// ARCHITECTURE.md's Layout table says what is in the tree: every module is a
/// row, every path it names exists, and every folder of a module is named
/// in its row (a DocC catalog aside). A new folder or a renamed one fails
/// here until the table says so.
@Suite("The Layout table of ARCHITECTURE.md")
struct LayoutTableTests {
    static let root = CLI.packageRoot

    /// The table's rows: the first column's paths, and the rest of the row.
    func rows() throws -> [(paths: [String], text: String)] {
        let readme = try String(contentsOf: Self.root.appending(path: "ARCHITECTURE.md"), encoding: .utf8)
        guard let start = readme.range(of: "## Layout\n") else { throw LayoutError("ARCHITECTURE.md has no Layout section") }
        return readme[start.upperBound...].split(separator: "\n").prefix { !$0.hasPrefix("## ") }
            .filter { $0.hasPrefix("| `") }
            .map { line in
                let cells = line.split(separator: "|", maxSplits: 2, omittingEmptySubsequences: true)
                return (Self.quoted(in: String(cells[0])), cells.count > 1 ? String(cells[1...].joined(separator: "|")) : "")
            }
    }

    /// The `quoted` names of a text, in order.
    static func quoted(in text: String) -> [String] {
        text.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    func subfolders(of path: String) throws -> [String] {
        let url = Self.root.appending(path: path)
        return try FileManager.default.contentsOfDirectory(atPath: url.path).filter { name in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: url.appending(path: name).path, isDirectory: &isFolder) && isFolder.boolValue
        }.sorted()
    }

    @Test("every module is a row, and every path the first column names exists")
    func modulesAndPaths() throws {
        let rows = try rows()
        let named = Set(rows.flatMap(\.paths))
        for module in try subfolders(of: "Sources") {
            #expect(named.contains("Sources/\(module)") || rows.contains { $0.text.contains("`Sources/\(module)`") }, "Sources/\(module) has no row")
        }
        for path in named {
            let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
            #expect(FileManager.default.fileExists(atPath: Self.root.appending(path: trimmed).path), "the table names \(path), which does not exist")
        }
    }

    @Test("a module's row names every folder in it, and only folders that exist")
    func moduleFolders() throws {
        for row in try rows() {
            guard let module = row.paths.first, module.hasPrefix("Sources/") else { continue }
            let folders = try subfolders(of: module).filter { !$0.hasSuffix(".docc") && $0 != "include" }
            let named = Self.quoted(in: row.text).filter { $0.hasSuffix("/") }.map { String($0.dropLast()) }
            for folder in folders {
                #expect(named.contains(folder), "\(module)/\(folder) is not named in its row")
            }
            for name in named where !name.contains("/") {
                let exists = FileManager.default.enumerator(atPath: Self.root.appending(path: module).path)?
                    .contains { ($0 as? String).map { $0 == name || $0.hasSuffix("/" + name) } ?? false } ?? false
                #expect(exists, "\(module)'s row names \(name)/, which is not in it")
            }
        }
    }
}

struct LayoutError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
