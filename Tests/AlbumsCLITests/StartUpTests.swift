import Foundation
import Testing

#if os(Linux)
/// What an `albums` process loads before it does its work: libvips, linked,
/// brought about a hundred shared libraries and 28 ms to every command's start.
@Suite("Start-up: libvips is opened by albums serve alone", .serialized)
struct StartUpTests {
    @Test("commands other than serve never load libvips", arguments: [["--version"], ["album", "list"], ["move", "Trip:1", "--to", "Trip"]])
    func noLibvips(_ arguments: [String]) throws {
        let cli = try CLI()
        try cli.run("album", "create", "Trip")
        try cli.run("import", CLI.examplePhotos, "--to", "Trip")
        // glibc's loader names every library it looks for on stderr.
        let result = try cli.runExecutable([CLI.binary.path] + arguments, environment: ["LD_DEBUG": "libs"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("libsqlite3"), "LD_DEBUG said nothing: this test would see nothing either")
        #expect(!result.stderr.contains("libvips"))
    }

    @Test("albums serve without a usable libvips says so on start and serves the page")
    func serveWithoutLibvips() async throws {
        let cli = try CLI()
        try cli.run("album", "create", "Trip")
        // An empty file where the loader looks first: dlopen refuses it.
        let broken = cli.folder.path("broken-libs")
        try FileManager.default.createDirectory(atPath: broken, withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: broken + "/libvips.so.42", contents: Data())
        let server = try cli.start(["serve", "--listen", "127.0.0.1:0"], environment: ["LD_LIBRARY_PATH": broken])
        defer { if server.isRunning { server.terminate() } }
        #expect(try await cli.serverStarted().contains("serving "))
        let warning = try String(contentsOfFile: cli.folder.path("started.err"), encoding: .utf8)
        #expect(warning.hasPrefix("albums: warning: the page will show no thumbnails: libvips cannot be loaded ("))
        #expect(warning.contains("apt-get install libvips42"))
        kill(server.processIdentifier, SIGINT)
        server.waitUntilExit()
        #expect(server.terminationStatus == 0)
    }
}
#endif
