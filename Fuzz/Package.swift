// swift-tools-version: 6.1
// libFuzzer targets for albums' parsers. scripts/fuzz builds them with
// -sanitize=fuzzer,address and runs each for a bounded time.
import PackageDescription

// The whole build is instrumented by scripts/fuzz (-sanitize=address with
// libFuzzer's coverage); only these executables link libFuzzer, which
// brings main: the build plugin's tool keeps its own.
let fuzzer: [SwiftSetting] = [.unsafeFlags(["-parse-as-library"])]
let libFuzzer: [LinkerSetting] = [.unsafeFlags(["-sanitize=fuzzer,address"])]

let package = Package(
    name: "albums-fuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "albums", path: "..")],
    targets: [
        // main for each executable: libFuzzer's driver.
        .target(name: "FuzzDriver"),
        // ALBUM:N, ALBUM:N-M and id:P references, as typed on the command line.
        .executableTarget(
            name: "FuzzReferences",
            dependencies: ["FuzzDriver", .product(name: "AlbumsTransfer", package: "albums")],
            swiftSettings: fuzzer, linkerSettings: libFuzzer),
        // JSON Lines batches, as `albums apply` reads them.
        .executableTarget(
            name: "FuzzBatches",
            dependencies: ["FuzzDriver", .product(name: "AlbumsTransfer", package: "albums")],
            swiftSettings: fuzzer, linkerSettings: libFuzzer),
        // A Google Takeout's .zip and .tgz archives, read and extracted as `albums import` does.
        .executableTarget(
            name: "FuzzArchives",
            dependencies: ["FuzzDriver", .product(name: "AlbumsImporting", package: "albums")],
            swiftSettings: fuzzer, linkerSettings: libFuzzer),
        // The image header readers and completeness checks, as `albums import` runs them: their module alone.
        .executableTarget(
            name: "FuzzImageHeaders",
            dependencies: ["FuzzDriver", .product(name: "AlbumsImageFacts", package: "albums")],
            swiftSettings: fuzzer, linkerSettings: libFuzzer),
    ],
    swiftLanguageModes: [.v6]
)
