// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "albums",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .executable(name: "albums", targets: ["albums"]),
        .executable(name: "albums-serve", targets: ["albums-serve"]),
        .library(name: "AlbumsPersistence", targets: ["AlbumsPersistence"]),
        .library(name: "AlbumsTransfer", targets: ["AlbumsTransfer"]),
        .library(name: "AlbumsImporting", targets: ["AlbumsImporting"]),
        .library(name: "AlbumsImageFacts", targets: ["AlbumsImageFacts"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", exact: "4.5.2"),
        // The HTTP server of `albums serve` (SwiftNIO underneath). Without the
        // swift-configuration trait: albums configures it from its own options.
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1", traits: ["FullFoundation"]),
        // Streaming multipart/form-data parsing for the page's file uploads:
        // boundaries split across network reads are its job, not ours.
        .package(url: "https://github.com/vapor/multipart-kit", exact: "4.7.1"),
        // bcrypt for people's and share links' passwords: a maintained
        // implementation (OpenBSD's, in C), never one of our own.
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", exact: "2.5.0"),
        // What the server uses of Hummingbird's own foundations directly:
        // NIO's byte buffers and socket addresses, the logger it is given, and
        // the HTTP types its tests build requests with.
        .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.3.0"),
        // Hummingbird's own lifecycle: event streams end on graceful shutdown.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        // ZIP archives (ZIP64 included: a Google Takeout comes in parts of up
        // to 50 GB), read entry by entry over the system's zlib.
        .package(url: "https://github.com/weichsel/ZIPFoundation", exact: "0.9.20"),
        // The HTTP client of the object storage (S3): SwiftNIO's, with TLS.
        .package(url: "https://github.com/swift-server/async-http-client", exact: "1.37.0"),
    ],
    targets: [
        // What an image or video file says of itself, read from its header
        // without decoding: format, size, orientation, capture date (JPEG,
        // TIFF, HEIF, PNG, GIF, WebP, XMP; ISO media, Matroska, AVI), whether
        // the file is whole, and what kind of media it is. Depends on no other
        // albums module.
        .target(name: "AlbumsImageFacts"),
        // The library file and every rule of its data: migrations, albums and
        // folders, photos, ordered items, placeholders, history and undo, the
        // change journal, people and their rights, backups, integrity.
        .target(
            name: "AlbumsPersistence",
            dependencies: [
                "AlbumsImageFacts",
                .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C API, for opening files immutable (see ImmutableDatabaseFile).
                .product(name: "GRDBSQLite", package: "GRDB.swift", condition: .when(platforms: [.linux])),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
            ],
            plugins: ["EmbedMigrations"]
        ),
        // Drag-and-drop operations over the library: moves, copies, swaps,
        // proposals, batches, references and the session that streams change sets.
        .target(
            name: "AlbumsTransfer",
            dependencies: ["AlbumsPersistence", "AlbumsImageFacts"]
        ),
        // Bringing photos in and taking them out: loads through placeholders,
        // folder trees, five organizers' catalogs, Takeout archives, export,
        // and a source's check and relink.
        .target(
            name: "AlbumsImporting",
            dependencies: [
                "AlbumsTransfer", "AlbumsPersistence", "AlbumsImageFacts", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"), "SystemZlib",
            ]
        ),
        // The front ends' vocabulary, shared by the CLI and the API and by no
        // library product: the JSON answers, the table of failures with their
        // exit and HTTP statuses, and path-free messages.
        .target(
            name: "AlbumsWire",
            dependencies: ["AlbumsImporting", "AlbumsTransfer", "AlbumsPersistence"]
        ),
        // Where a library keeps copies of its originals beyond their sources:
        // S3-compatible object storage: its requests signed here (AWS
        // Signature Version 4 over swift-crypto's HMAC) and carried by
        // AsyncHTTPClient, which the server's tests build already.
        .target(
            name: "AlbumsStorage",
            dependencies: [
                "AlbumsImporting", "AlbumsPersistence", "AlbumsImageFacts", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"), .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        // The system's zlib, for the gzip streams of .tgz archives.
        .systemLibrary(name: "SystemZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // Thumbnails, upright and cached on disk: photos' made by libvips,
        // videos' from a frame FFmpeg decodes.
        .target(
            name: "AlbumsThumbnails",
            dependencies: ["AlbumsPersistence", "AlbumsImageFacts", "CVips", "CFFmpeg", .product(name: "Crypto", package: "swift-crypto")]
        ),
        // A non-variadic C face on libvips (Swift cannot call variadic C),
        // which opens libvips on first use (albums serve, at start): linked, its
        // hundred shared libraries slowed every albums process's start by ~28 ms.
        .target(name: "CVips", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        // A frame of a video, picked and scaled by FFmpeg's libraries, which it
        // opens on first use (albums serve's thumbnails), as CVips opens libvips.
        // Built against their headers (libavformat-dev, libavcodec-dev,
        // libswscale-dev): a frame is read through their structures' fields.
        .target(
            name: "CFFmpeg",
            linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux])), .linkedLibrary("m", .when(platforms: [.linux]))]),
        // `albums serve`: the gate, the HTTP API and its OpenAPI document, its
        // events, and the page, embedded at build time.
        .target(
            name: "AlbumsServer",
            dependencies: [
                "AlbumsPersistence",
                "AlbumsTransfer",
                "AlbumsImporting",
                "AlbumsWire",
                "AlbumsThumbnails",
                "AlbumsImageFacts",
                .product(name: "Hummingbird", package: "hummingbird"),
                // HMAC for share links' unlock cookies.
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "MultipartKit", package: "multipart-kit"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["Page", "API/openapi.json"],
            plugins: ["EmbedPage"]
        ),
        // Every `albums` command, its output and its exit status. Not the
        // server: `albums serve` hands its command line to `albums-serve`.
        .target(
            name: "AlbumsCommands",
            dependencies: [
                "AlbumsPersistence",
                "AlbumsTransfer",
                "AlbumsImporting",
                "AlbumsWire",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // `albums serve` in the program that links the server: opens the library and serves.
        .target(
            name: "AlbumsServeCommand",
            dependencies: ["AlbumsCommands", "AlbumsPersistence", "AlbumsServer"]
        ),
        // The executable is a trampoline into AlbumsCommands.
        .executableTarget(
            name: "albums",
            dependencies: ["AlbumsCommands"]
        ),
        // `albums` with the server linked, installed beside it; `albums serve`
        // runs it. Kept apart so that no other command pays at start-up for
        // SwiftNIO's and Hummingbird's ~2,500 protocol conformances.
        .executableTarget(
            name: "albums-serve",
            dependencies: ["AlbumsCommands", "AlbumsServeCommand", "AlbumsImporting", "AlbumsStorage"]
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
            path: "Benchmarks",
            // The page's scrolling benchmark drives Chromium from Python (scripts/benchmark scroll).
            exclude: ["scroll_benchmark.py", "warm_benchmark.py", "storage_benchmark.py", "video_thumbnail_benchmark.py", "upload_thumbnail_benchmark.py", "Floor"]
        ),
        // The floor of an albums process: its dependencies doing sqlite3's SQL, nothing of albums.
        .executableTarget(
            name: "albums-floor",
            dependencies: [
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Benchmarks/Floor"
        ),

        // Crash, concurrency and replica harnesses (scripts/reliability builds them in release mode).
        .executableTarget(
            name: "albums-reliability",
            dependencies: [
                "AlbumsPersistence",
                "AlbumsTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Reliability",
            // The server harnesses are Python clients of `albums serve`.
            exclude: ["Server"]
        ),

        // Build support: turns files into Swift source, so the binary carries
        // them and never looks files up at run time: migrations/*.sql (the
        // schema) and the page `albums serve` serves.
        .executableTarget(
            name: "FileEmbedder",
            path: "BuildTools/FileEmbedder"
        ),
        .plugin(
            name: "EmbedMigrations",
            capability: .buildTool(),
            dependencies: ["FileEmbedder"]
        ),
        .plugin(
            name: "EmbedPage",
            capability: .buildTool(),
            dependencies: ["FileEmbedder"]
        ),

        // Fixtures shared by the test targets: temporary folders, libraries, seeded randomness.
        .target(
            name: "AlbumsTestSupport",
            dependencies: ["AlbumsPersistence", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Tests/AlbumsTestSupport"
        ),
        // The header readers against real files of every format (against
        // ffprobe and exiftool where the corpus is there), and the capture-date rules.
        .testTarget(
            name: "AlbumsImageFactsTests",
            dependencies: ["AlbumsImageFacts"]
        ),
        // The library file's rules: schema, order keys, history, the journal, integrity.
        .testTarget(
            name: "AlbumsPersistenceTests",
            dependencies: ["AlbumsPersistence", "AlbumsImageFacts", "AlbumsTestSupport", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // Moves, copies, swaps and removals, proposals, batches, smart albums,
        // rights and history, against models of themselves.
        .testTarget(
            name: "AlbumsTransferTests",
            dependencies: [
                "AlbumsTransfer", "AlbumsImporting", "AlbumsPersistence", "AlbumsImageFacts", "AlbumsTestSupport",
                .product(name: "Crypto", package: "swift-crypto"), .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // Loads through placeholders, tree imports and catalogs' paths, on real files.
        .testTarget(
            name: "AlbumsImportingTests",
            dependencies: [
                "AlbumsImporting", "AlbumsTransfer", "AlbumsPersistence", "AlbumsImageFacts", "AlbumsTestSupport",
                .product(name: "Crypto", package: "swift-crypto"), .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // Request signing against AWS's published Signature Version 4
        // examples, and the bucket client against a real S3 server.
        .testTarget(
            name: "AlbumsStorageTests",
            dependencies: [
                "AlbumsStorage", "AlbumsImporting", "AlbumsTransfer", "AlbumsPersistence", "AlbumsTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // The failure table both front ends read.
        .testTarget(
            name: "AlbumsWireTests",
            dependencies: ["AlbumsWire", "AlbumsTransfer", "AlbumsPersistence", "AlbumsTestSupport"]
        ),
        // Thumbnails of every format, upright, cached; against real libvips.
        .testTarget(
            name: "AlbumsThumbnailsTests",
            dependencies: [
                "AlbumsThumbnails", "AlbumsTransfer", "AlbumsImporting", "AlbumsPersistence", "AlbumsImageFacts", "AlbumsTestSupport", "CFFmpeg",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // The server's API in process (HummingbirdTesting), every endpoint and refusal.
        .testTarget(
            name: "AlbumsServerTests",
            dependencies: [
                "AlbumsServer", "AlbumsTransfer", "AlbumsImporting", "AlbumsWire", "AlbumsPersistence", "AlbumsThumbnails", "AlbumsImageFacts", "AlbumsTestSupport",
                "AlbumsStorage",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        // Runs the built `albums` binary end to end.
        .testTarget(
            name: "AlbumsCLITests",
            dependencies: [
                "albums", "albums-serve", "AlbumsCommands", "AlbumsPersistence", "AlbumsTransfer", "AlbumsImporting", "AlbumsWire", "AlbumsImageFacts", "AlbumsTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"), .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
