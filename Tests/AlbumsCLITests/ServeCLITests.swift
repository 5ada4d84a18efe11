import Foundation
import Testing

#if os(Linux)
@Suite("albums serve as a process")
struct ServeCLITests {
    @Test("it makes the grid's thumbnails before any page asks, and Ctrl-C still stops it at once")
    func warmsThumbnails() async throws {
        let cli = try CLI()
        try cli.run("album", "create", "Trip")
        try cli.run("import", CLI.examplePhotos, "--to", "Trip")
        let photos = try cli.run("--json", "list", "Trip").stdout.components(separatedBy: "\"photo_id\":").count - 1
        let cache = cli.folder.path("cache")
        let server = try cli.start(["serve", "--listen", "127.0.0.1:0"], environment: ["XDG_CACHE_HOME": cache])
        defer { if server.isRunning { server.terminate() } }
        let thumbnails = URL(fileURLWithPath: cache + "/albums/thumbnails")
        func made() -> Int {
            let files = FileManager.default.enumerator(at: thumbnails, includingPropertiesForKeys: nil)?.allObjects as? [URL] ?? []
            return files.filter { $0.lastPathComponent.hasSuffix("-256.jpg") }.count
        }
        for _ in 0..<600 where made() < photos {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(photos > 0 && made() == photos, "every photo's thumbnail, with no request made")
        let asked = ContinuousClock.now
        kill(server.processIdentifier, SIGINT)
        server.waitUntilExit()
        #expect(server.terminationStatus == 0)
        #expect(ContinuousClock.now - asked < .seconds(10))
    }
}
#endif
