import Foundation
import PackagePlugin

/// Generates `EmbeddedMigrationFiles.swift` from the package's `migrations/*.sql`.
///
/// The schema's only source is `migrations/`; the generated file puts those
/// exact texts into the binary, so an `albums` copied anywhere still knows
/// its schema (`Bundle.module` would trap on Linux once the binary moves).
@main
struct EmbedMigrations: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let migrationsFolder = context.package.directoryURL.appending(path: "migrations")
        let sqlFiles = try FileManager.default
            .contentsOfDirectory(at: migrationsFolder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "sql" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        // Their SHA-256, listed beside them, so the binary need not hash them at every start.
        let checksums = migrationsFolder.appending(path: "SHA256SUMS")
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedMigrationFiles.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(sqlFiles.count) migrations",
                executable: try context.tool(named: "FileEmbedder").url,
                arguments: [output.path, "EmbeddedMigrations", "--numbered", "--checksums", checksums.path] + sqlFiles.map(\.path),
                inputFiles: sqlFiles + [checksums],
                outputFiles: [output]
            )
        ]
    }
}
