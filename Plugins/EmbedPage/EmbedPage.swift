import Foundation
import PackagePlugin

/// Generates `EmbeddedPageFiles.swift` from the files in the target's
/// `Page` folder: the page `albums serve` serves is in the binary, never
/// looked up at run time (`Bundle.module` traps on Linux once the binary moves).
@main
struct EmbedPage: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let folder = target.directoryURL.appending(path: "Page")
        // The page's folders by page and layer, each file named by its path
        // below Page (`organizer/view/pane.js`); package.json only tells node's
        // test runner that the scripts are ES modules.
        let pageFiles = (FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])?.allObjects ?? [])
            .compactMap { $0 as? URL }
            .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
            .filter { !$0.lastPathComponent.hasPrefix(".") && $0.lastPathComponent != "package.json" }
            .sorted { $0.path < $1.path }
        // The API's document lives beside the API's routes, and is served as `openapi.json`.
        let files = pageFiles + [target.directoryURL.appending(path: "API/openapi.json")]
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedPageFiles.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(files.count) page files",
                executable: try context.tool(named: "FileEmbedder").url,
                arguments: [output.path, "PageFiles", "--relative-to", folder.path] + files.map(\.path),
                inputFiles: files,
                outputFiles: [output]
            )
        ]
    }
}
