/// The migrations this build carries, generated from `migrations/*.sql` by
/// the EmbedMigrations build plugin (see `EmbeddedMigrationFiles.swift` in
/// the build folder).
package enum EmbeddedMigrations {
    /// Every migration, in version order, with the SHA-256 listed in
    /// `migrations/SHA256SUMS`: hashing them here would cost every command
    /// the start of swift-crypto (`MigrationTests` holds the list to the texts).
    package static let all: [Migration] = zip(embeddedFiles, embeddedSHA256).map { file, checksum in
        guard let migration = Migration(fileName: file.fileName, sql: file.text, checksum: checksum) else {
            fatalError("migrations/\(file.fileName) is not named NNNN_name.sql")  // trap: the build tool refuses such names
        }
        return migration
    }

    /// The schema version of a library that has every migration applied.
    package static var latestVersion: Int { all.last?.version ?? 0 }
}
