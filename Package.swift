// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "albums",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .executable(name: "albums", targets: ["albums"]),
        .library(name: "AlbumsPersistence", targets: ["AlbumsPersistence"]),
        .library(name: "AlbumsTransfer", targets: ["AlbumsTransfer"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", exact: "4.5.2"),
    ],
    targets: [
        // The library file: migrations, albums, photos, ordered items, placeholders.
        .target(
            name: "AlbumsPersistence",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C API, for opening files immutable (see ImmutableDatabaseFile).
                .product(name: "GRDBSQLite", package: "GRDB.swift", condition: .when(platforms: [.linux])),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            plugins: ["EmbedMigrations"]
        ),
        // Drag-and-drop operations over the library: moves, copies, proposals, change sets.
        .target(
            name: "AlbumsTransfer",
            dependencies: ["AlbumsPersistence"]
        ),
        // Every `albums` command, its output and its exit status.
        .target(
            name: "AlbumsCommands",
            dependencies: [
                "AlbumsPersistence",
                "AlbumsTransfer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The executable is a trampoline into AlbumsCommands.
        .executableTarget(
            name: "albums",
            dependencies: ["AlbumsCommands"]
        ),

        // A host app embedding the library: proposal, drop, change set.
        .executableTarget(
            name: "embedding-example",
            dependencies: [
                "AlbumsPersistence", "AlbumsTransfer",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Examples/EmbeddingExample"
        ),

        // Benchmarks (scripts/benchmark builds them in release mode).
        .executableTarget(
            name: "albums-benchmarks",
            dependencies: [
                "AlbumsPersistence", "AlbumsTransfer",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Benchmarks"
        ),

        // Crash and concurrency harnesses (scripts/reliability builds them in release mode).
        .executableTarget(
            name: "albums-reliability",
            dependencies: [
                "AlbumsTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Reliability"
        ),

        // Build support: turns migrations/*.sql into Swift source, so the
        // binary carries its schema and never looks files up at run time.
        .executableTarget(
            name: "MigrationEmbedder",
            path: "BuildTools/MigrationEmbedder"
        ),
        .plugin(
            name: "EmbedMigrations",
            capability: .buildTool(),
            dependencies: ["MigrationEmbedder"]
        ),

        // Fixtures shared by the test targets: temporary folders, libraries, seeded randomness.
        .target(
            name: "AlbumsTestSupport",
            dependencies: ["AlbumsPersistence", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Tests/AlbumsTestSupport"
        ),
        .testTarget(
            name: "AlbumsPersistenceTests",
            dependencies: ["AlbumsPersistence", "AlbumsTestSupport", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .testTarget(
            name: "AlbumsTransferTests",
            dependencies: ["AlbumsTransfer", "AlbumsPersistence", "AlbumsTestSupport"]
        ),
        // Runs the built `albums` binary end to end.
        .testTarget(
            name: "AlbumsCLITests",
            dependencies: ["albums", "AlbumsCommands", "AlbumsPersistence", "AlbumsTestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
