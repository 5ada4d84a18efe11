import Foundation

/// `albums import` of a few hundred MB of images against `sha256sum` over
/// the same files, as processes, in one run.
func runImportBenchmark(in folder: URL, megabytes: Int = 300) throws {
    let photos = folder.appending(path: "photos")
    try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
    // Distinct files: a real JPEG header (the example's), then random bytes.
    let header = try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "Examples/Photos/01-harbour.jpg"))
    let fileSize = 2 << 20
    let count = megabytes * (1 << 20) / fileSize
    var generator = SystemRandomNumberGenerator()
    for index in 0..<count {
        var data = header
        data.append(Data((0..<(fileSize - header.count) / 8).flatMap { _ in withUnsafeBytes(of: generator.next()) { Array($0) } }))
        try data.write(to: photos.appending(path: String(format: "photo-%04d.jpg", index)))
    }
    let files = try FileManager.default.contentsOfDirectory(atPath: photos.path).sorted().map { photos.appending(path: $0).path }
    let totalBytes = Double(count * fileSize)
    let albums = albumsBinary

    func seconds(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Double {
        try runProcess(executable, arguments, environment: environment) / 1000
    }

    _ = try seconds("/usr/bin/sha256sum", files)  // warm the page cache: both then read from memory
    var hashTimes: [Double] = []
    var importTimes: [Double] = []
    for round in 0..<3 {
        hashTimes.append(try seconds("/usr/bin/sha256sum", files))
        // A fresh library each round, its album made untimed.
        let library = ["ALBUMS_LIBRARY": folder.appending(path: "import-\(round).albums").path]
        _ = try seconds(albums, ["album", "create", "Bench"], environment: library)
        importTimes.append(try seconds(albums, ["import", photos.path, "--to", "Bench"], environment: library))
    }
    let hash = hashTimes.sorted()[1]
    let load = importTimes.sorted()[1]
    let cores = ProcessInfo.processInfo.activeProcessorCount
    print("")
    print("import vs sha256sum — \(count) files, \(Int(totalBytes) >> 20) MB, page cache warm, median of 3, \(cores) cores")
    print(String(format: "  sha256sum            %6.2f s  %7.0f MB/s", hash, totalBytes / hash / 1e6))
    print(String(format: "  albums import        %6.2f s  %7.0f MB/s", load, totalBytes / load / 1e6))
    print(String(format: "import throughput / sha256sum: %.2f× (target ≥ 1×: %@)", hash / load, hash / load >= 1 ? "pass" : "short"))
}
