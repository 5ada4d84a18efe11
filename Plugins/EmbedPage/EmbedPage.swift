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
        let files = try FileManager.default
            .contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            // package.json only tells node's test runner that the scripts are ES modules.
            .filter { !$0.lastPathComponent.hasPrefix(".") && $0.lastPathComponent != "package.json" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedPageFiles.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(files.count) page files",
                executable: try context.tool(named: "FileEmbedder").url,
                arguments: [output.path, "PageFiles"] + files.map(\.path),
                inputFiles: files,
                outputFiles: [output]
            )
        ]
    }
}
