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

    @Test("albums serve becomes albums-serve in the same process, so Ctrl-C and the process id stay the user's")
    func handsOverToTheServerProgram() async throws {
        let cli = try CLI()
        try cli.run("album", "create", "Trip")
        let server = try cli.start(["serve", "--listen", "127.0.0.1:0"])
        defer { if server.isRunning { server.terminate() } }
        #expect(try await cli.serverStarted().contains("serving "))
        let serving = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(server.processIdentifier)/exe")
        #expect(serving == CLI.binary.deletingLastPathComponent().appending(path: "albums-serve").resolvingSymlinksInPath().path)
        kill(server.processIdentifier, SIGINT)
        server.waitUntilExit()
        #expect(server.terminationStatus == 0)
        // A clean stop leaves the library alone in its folder: no empty -wal or -shm.
        #expect(try cli.folder.fileNames().filter { $0.hasPrefix("library.albums") } == ["library.albums"])
    }

    @Test("beyond loopback, serve needs --allow-remote and the address people use; without them it starts nothing and exits 64")
    func remoteNeedsItsName() throws {
        let cli = try CLI()
        let unflagged = try cli.run(["serve", "--listen", "0.0.0.0:0"])
        #expect(unflagged.status == 64 && unflagged.stderr.contains("--allow-remote"), "\(unflagged.stderr)")
        let unnamed = try cli.run(["serve", "--listen", "0.0.0.0:0", "--allow-remote"])
        #expect(unnamed.status == 64, "\(unnamed.stderr)")
        #expect(unnamed.stderr == "albums: listening on 0.0.0.0 needs the address people will use, so that requests naming any other host are refused: add --public-url http://NAME:PORT\n")
        #expect(!FileManager.default.fileExists(atPath: cli.libraryPath), "nothing opened, nothing created")
    }

    @Test("without albums-serve beside albums, serve says so in one line and exits 74")
    func missingServerProgram() throws {
        let cli = try CLI()
        let lonely = cli.folder.path("bin/albums")
        try FileManager.default.createDirectory(atPath: cli.folder.path("bin"), withIntermediateDirectories: true)
        // `cp` writes the copy in a process of its own: a copy written here
        // would be open for writing while other tests fork children, and a
        // child that still holds it makes running it fail with "Text file busy".
        let copying = try cli.runExecutable(["/bin/cp", CLI.binary.path, lonely])
        try #require(copying.status == 0, "\(copying.stderr)")
        let result = try cli.runExecutable([lonely, "--library", cli.folder.path("l.albums"), "serve"])
        #expect(result.status == 74)
        #expect(result.stderr == "albums: albums serve runs the albums-serve program beside albums, and \(cli.folder.path("bin/albums-serve")) is missing: "
            + "build it with scripts/build-release --product albums-serve and install it beside albums\n")
        let json = try cli.runExecutable([lonely, "--json", "--library", cli.folder.path("l.albums"), "serve"])
        #expect(json.status == 74 && json.stderr.contains(#""code":"server_missing""#))
        #expect(!FileManager.default.fileExists(atPath: cli.folder.path("l.albums")), "nothing opened, nothing created")
    }
}
#endif
