import AlbumsPersistence
import AlbumsTestSupport
import Foundation
import Testing

/// The built `albums` binary, run as a user would.
struct CLI {
    let folder: TemporaryFolder
    var libraryPath: String { folder.path("library.albums") }

    init() throws {
        folder = try TemporaryFolder()
    }

    /// The binary beside the test bundle (swift test builds it first).
    static let binary: URL = {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appending(path: "albums")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        return packageRoot.appending(path: ".build/debug/albums")
    }()

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let examplePhotos = ExamplePhotos.folder.path

    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// Starts `albums ARGUMENTS` on this folder's library, without waiting;
    /// its output goes to files in the folder (a pipe nobody reads would
    /// block it once full).
    /// `environment` is added to this process's own.
    func start(_ arguments: [String], environment: [String: String] = [:]) throws -> Process {
        FileManager.default.createFile(atPath: folder.path("started.out"), contents: nil)
        FileManager.default.createFile(atPath: folder.path("started.err"), contents: nil)
        return try start(
            arguments, stdout: try FileHandle(forWritingTo: URL(fileURLWithPath: folder.path("started.out"))),
            stderr: try FileHandle(forWritingTo: URL(fileURLWithPath: folder.path("started.err"))), adding: environment)
    }

    /// What a started `albums serve` printed, once it says it serves (or
    /// after 30 s, when it never does).
    func serverStarted() async throws -> String {
        var output = ""
        for _ in 0..<600 where !output.contains("Ctrl-C stops") {
            try await Task.sleep(for: .milliseconds(50))
            output = (try? String(contentsOfFile: folder.path("started.out"), encoding: .utf8)) ?? ""
        }
        return output
    }

    private func start(
        _ arguments: [String], executable: URL = Self.binary, stdout: Any, stderr: Any, adding added: [String: String] = [:],
        input: FileHandle = FileHandle.nullDevice
    ) throws -> Process {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment.merging(added) { $1 }
        environment["ALBUMS_LIBRARY"] = libraryPath
        process.environment = environment
        process.currentDirectoryURL = folder.url
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = input
        try process.run()
        return process
    }

    /// Runs `albums ARGUMENTS` to the end.
    @discardableResult
    func run(_ arguments: String...) throws -> Result {
        try run(arguments)
    }

    @discardableResult
    func run(_ arguments: [String]) throws -> Result {
        try runExecutable([Self.binary.path] + arguments)
    }

    /// Runs `albums ARGUMENTS` with `input` on its standard input (a
    /// file, as a script's redirection gives it) and bcrypt at its lowest cost.
    @discardableResult
    func run(input: String, _ arguments: String...) throws -> Result {
        let path = folder.path("stdin-\(UUID().uuidString)")
        try Data(input.utf8).write(to: URL(fileURLWithPath: path))
        return try runExecutable([Self.binary.path] + arguments, environment: ["ALBUMS_BCRYPT_COST": "4"], input: try FileHandle(forReadingFrom: URL(fileURLWithPath: path)))
    }

    /// Runs a command line (an executable's path, then its arguments) in
    /// this folder, with this folder's library in the environment.
    func runExecutable(_ commandLine: [String], environment: [String: String] = [:], input: FileHandle = FileHandle.nullDevice) throws -> Result {
        let stdout = Pipe()
        let stderr = Pipe()
        let process = try start(
            Array(commandLine.dropFirst()), executable: URL(fileURLWithPath: commandLine[0]), stdout: stdout, stderr: stderr,
            adding: environment, input: input)
        // Read before waiting: a full pipe would block the child.
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self))
    }

    /// Opens the library in this process, to look at what the binary left.
    func library() throws -> Library {
        try Library.open(at: libraryPath, options: Library.Options(allowsConcurrentReads: false))
    }

    /// Writes `count` distinct JPEGs of `megabytes` each, sparse (the
    /// example's header, the index, then zeros): cheap to make, yet each
    /// load reads and hashes them all, which keeps an import busy for a while.
    func largePhotos(_ count: Int, megabytes: Int) throws -> String {
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: Self.examplePhotos).appending(path: "01-harbour.jpg"))
        let inbox = folder.path("large")
        try FileManager.default.createDirectory(atPath: inbox, withIntermediateDirectories: true)
        for index in 0..<count {
            let path = URL(fileURLWithPath: inbox).appending(path: String(format: "photo-%05d.jpg", index)).path
            try (jpeg + Data("\(index)".utf8)).write(to: URL(fileURLWithPath: path))
            #expect(truncate(path, off_t(megabytes << 20)) == 0)
        }
        return inbox
    }
}
