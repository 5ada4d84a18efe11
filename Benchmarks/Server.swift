import AlbumsPersistence
import AlbumsTransfer
import Foundation

/// `albums serve` as a user's browser meets it: a proposal's round trip
/// over loopback HTTP against the same proposal in process, thumbnails made
/// and cached against `vipsthumbnail`, and the time from a CLI commit to the
/// event reaching a client. HTTP is spoken by curl (one kept-alive
/// connection; its own `time_total` per request), so that the client's cost
/// is a real client's, not ours.
struct ServerBenchmark {
    struct Proposals {
        let items: Int
        let inProcess: (median: Double, p99: Double)
        let http: (median: Double, p99: Double)
    }

    struct Thumbnails {
        let photos: Int
        let pixels: String
        let firstPerSecond: Double
        let cachedPerSecond: Double
        let vipsPerSecond: Double
    }

    struct Events {
        let commits: Int
        let median: Double
        let p99: Double
    }

    let folder: URL
    let sizes: [Int]

    func run() throws -> (proposals: [Proposals], thumbnails: Thumbnails, events: Events) {
        var proposals: [Proposals] = []
        for size in sizes {
            proposals.append(try proposalRoundTrip(items: size))
        }
        return (proposals, try thumbnails(), try eventLatency())
    }

    private func percentile(_ values: [Double], _ fraction: Double) -> Double {
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
    }

    // MARK: Proposals

    private func proposalRoundTrip(items: Int) throws -> Proposals {
        let sectionFolder = folder.appending(path: "serve-\(items)")
        try FileManager.default.createDirectory(at: sectionFolder, withIntermediateDirectories: true)
        let (library, _, path) = try makeLibrary(count: items, in: sectionFolder)
        let session = TransferSession(library: library)
        let operation = TransferOperation.move(try ReferenceParser.parse("Album:1"), to: .at(items / 2, in: "Album"))
        var local: [Double] = []
        for round in 0..<320 {
            let start = ContinuousClock.now
            _ = try session.propose(operation)
            if round >= 20 { local.append(microseconds(ContinuousClock.now - start)) }
        }
        try library.close()

        let server = try Server(library: path)
        defer { server.stop() }
        let body = #"{"op": "move", "items": ["Album:1"], "to": "Album", "at": \#(items / 2 + 1)}"#
        var arguments = ["-s"]
        for index in 0..<320 {
            if index > 0 { arguments.append("--next") }
            arguments += [
                "-s", "-o", "/dev/null", "-w", "%{time_total}\n", "-H", "Authorization: Bearer \(server.token)",
                "-H", "Content-Type: application/json", "--data-binary", body, "\(server.base)/api/operations?dry_run=1",
            ]
        }
        let times = try capture("/usr/bin/curl", arguments).split(separator: "\n").compactMap { Double($0) }.dropFirst(20).map { $0 * 1e6 }
        guard times.count == 300 else { fatalError("curl answered \(times.count) of 300 proposals") }
        return Proposals(items: items, inProcess: (median(local), percentile(local, 0.99)), http: (median(Array(times)), percentile(Array(times), 0.99)))
    }

    // MARK: Thumbnails

    /// Camera photos of the test corpus when it has been made (ALBUMS_PHOTO_CORPUS), else the example photos.
    private func photos() throws -> [String] {
        if let corpus = ProcessInfo.processInfo.environment["ALBUMS_PHOTO_CORPUS"] {
            let folder = URL(fileURLWithPath: corpus).appending(path: "photos")
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("camera-") }.sorted()
            if !names.isEmpty { return names.map { folder.appending(path: $0).path } }
        }
        let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appending(path: "Examples/Photos")
        return try FileManager.default.contentsOfDirectory(atPath: examples.path).filter { !$0.hasSuffix(".txt") && !$0.hasSuffix(".json") }
            .sorted().map { examples.appending(path: $0).path }
    }

    private func thumbnails() throws -> Thumbnails {
        let sources = try photos()
        let sectionFolder = folder.appending(path: "serve-thumbnails")
        try FileManager.default.createDirectory(at: sectionFolder, withIntermediateDirectories: true)
        let path = sectionFolder.appending(path: "photos.albums").path
        _ = try runProcess(albumsBinary, ["--library", path, "init"])
        _ = try runProcess(albumsBinary, ["--library", path, "import"] + sources)
        let library = try Library.open(at: path, options: Library.Options(access: .existing))
        let ids = try library.read { reader in try reader.photos().map(\.id.rawValue) }
        let pixels = try library.read { reader in
            try reader.photos().map { Double(($0.content.pixelWidth ?? 0) * ($0.content.pixelHeight ?? 0)) / 1e6 }.reduce(0, +) / Double(ids.count)
        }
        try library.close()

        let cache = sectionFolder.appending(path: "cache")
        let server = try Server(library: path, environment: ["XDG_CACHE_HOME": cache.path])
        defer { server.stop() }
        let jobs = ProcessInfo.processInfo.activeProcessorCount
        func fetchAll() throws -> Double {
            var arguments = ["-s", "--parallel", "--parallel-max", "\(jobs)", "-H", "Authorization: Bearer \(server.token)"]
            for id in ids { arguments += ["-o", "/dev/null", "\(server.base)/api/photos/\(id)/thumbnail?size=256"] }
            return try runProcess("/usr/bin/curl", arguments) / 1000
        }
        let first = try fetchAll()
        let cached = try fetchAll()
        // The same photos and size by libvips' own command, as many at once as the server makes.
        let output = sectionFolder.appending(path: "vips")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let start = ContinuousClock.now
        let batches = stride(from: 0, to: sources.count, by: max(1, (sources.count + jobs - 1) / jobs)).map {
            Array(sources[$0..<min(sources.count, $0 + max(1, (sources.count + jobs - 1) / jobs))])
        }
        DispatchQueue.concurrentPerform(iterations: batches.count) { index in
            _ = try? runProcess("/usr/bin/vipsthumbnail", ["-s", "256", "-o", "\(output.path)/%s-\(index).jpg"] + batches[index])
        }
        let vips = microseconds(ContinuousClock.now - start) / 1e6
        return Thumbnails(
            photos: ids.count, pixels: String(format: "%.1f MP on average", pixels),
            firstPerSecond: Double(ids.count) / first, cachedPerSecond: Double(ids.count) / cached, vipsPerSecond: Double(ids.count) / vips)
    }

    // MARK: Events

    private func eventLatency() throws -> Events {
        let sectionFolder = folder.appending(path: "serve-events")
        try FileManager.default.createDirectory(at: sectionFolder, withIntermediateDirectories: true)
        let (library, _, path) = try makeLibrary(count: 3_000, in: sectionFolder)
        try library.close()
        let server = try Server(library: path)
        defer { server.stop() }
        let stream = Process()
        stream.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        stream.arguments = ["-s", "-N", "-H", "Authorization: Bearer \(server.token)", "\(server.base)/api/events"]
        let pipe = Pipe()
        stream.standardOutput = pipe
        try stream.run()
        defer { stream.terminate() }
        let arrivals = EventArrivals()
        pipe.fileHandleForReading.readabilityHandler = { handle in
            let text = String(decoding: handle.availableData, as: UTF8.self)
            for _ in 0..<text.components(separatedBy: "event: change").count - 1 { arrivals.record() }
        }
        Thread.sleep(forTimeInterval: 0.5)  // the stream is open
        var latencies: [Double] = []
        for round in 0..<40 {
            // Started at a random moment of the server's 20 ms watch: started
            // right after the last event, a commit lands at the same point of
            // the watch every round, and the median measures the CLI's speed.
            Thread.sleep(forTimeInterval: Double.random(in: 0..<0.02))
            // The CLI process commits and exits; the clock runs from its exit.
            _ = try runProcess(albumsBinary, ["--library", path, "move", "Album:1", "--to", "Album"])
            let committed = ContinuousClock.now
            guard let arrived = arrivals.wait(for: round + 1, timeout: 5) else { fatalError("event \(round + 1) never arrived") }
            latencies.append(microseconds(arrived - committed) / 1000)
        }
        pipe.fileHandleForReading.readabilityHandler = nil
        return Events(commits: latencies.count, median: median(latencies), p99: percentile(latencies, 0.99))
    }
}

/// When each event reached the client.
private final class EventArrivals: @unchecked Sendable {
    private let condition = NSCondition()
    private var times: [ContinuousClock.Instant] = []

    func record() {
        condition.lock()
        times.append(ContinuousClock.now)
        condition.broadcast()
        condition.unlock()
    }

    func wait(for count: Int, timeout: Double) -> ContinuousClock.Instant? {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: timeout)
        while times.count < count {
            if !condition.wait(until: deadline) { return nil }
        }
        return times[count - 1]
    }
}

/// `albums serve` on a free loopback port, until stopped.
private final class Server {
    let process = Process()
    let base: String
    let token: String

    init(library: String, environment: [String: String] = [:]) throws {
        process.executableURL = URL(fileURLWithPath: albumsBinary)
        process.arguments = ["--library", library, "--json", "serve", "--listen", "127.0.0.1:0"]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { fatalError("albums serve ended before printing its URL") }
            line += chunk
        }
        let url = try JSONDecoder().decode([String: String].self, from: line.prefix { $0 != UInt8(ascii: "\n") })["url"] ?? ""
        guard let range = url.range(of: "/?token=") else { fatalError("albums serve printed \(url)") }
        base = String(url[..<range.lowerBound])
        token = String(url[range.upperBound...])
    }

    func stop() {
        process.interrupt()
        process.waitUntilExit()
    }
}

/// A process's standard output.
func capture(_ executable: String, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
}

func printServer(_ result: (proposals: [ServerBenchmark.Proposals], thumbnails: ServerBenchmark.Thumbnails, events: ServerBenchmark.Events)) {
    print("")
    print("albums serve — a proposal in process vs over loopback HTTP (curl, one kept-alive connection), µs")
    print("| items | in process median | p99 | HTTP median | p99 | HTTP / in process |")
    print("|---:|---:|---:|---:|---:|---:|")
    for row in result.proposals {
        print("| \(row.items) | \(format(row.inProcess.median)) | \(format(row.inProcess.p99)) | \(format(row.http.median)) | \(format(row.http.p99)) | \(String(format: "%.1f×", row.http.median / row.inProcess.median)) |")
    }
    let t = result.thumbnails
    print("")
    print("thumbnails, 256 px, \(t.photos) photos (\(t.pixels)), \(ProcessInfo.processInfo.activeProcessorCount) at a time — photos per second")
    print("| first request (made) | vipsthumbnail, same photos | made / vipsthumbnail | cached |")
    print("|---:|---:|---:|---:|")
    print("| \(format(t.firstPerSecond)) | \(format(t.vipsPerSecond)) | \(String(format: "%.2f", t.firstPerSecond / t.vipsPerSecond)) | \(format(t.cachedPerSecond)) |")
    print("")
    print("a CLI commit (albums move, 3,000 items) until its event reaches a client (curl -N /api/events), ms")
    print("| commits | median | p99 |")
    print("|---:|---:|---:|")
    print("| \(result.events.commits) | \(format(result.events.median)) | \(format(result.events.p99)) |")
}
