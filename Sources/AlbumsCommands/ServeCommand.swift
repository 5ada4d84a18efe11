import AlbumsPersistence
import ArgumentParser
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `albums serve`: its options, help and checks. The server itself is
/// another program, `albums-serve`, installed beside `albums`: linking
/// SwiftNIO and Hummingbird into every command made each one start slower
/// (BENCHMARKS.md, "Why the process targets are short"), so `albums` hands
/// its command line over to `albums-serve`, which parses it again with this
/// same type and serves (``ServeHost``).
package struct ServeCommand: AsyncParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the organizer page and its API on this machine, until Ctrl-C.",
        discussion: """
            Without people (albums user add), prints the page's URL with its session token:
            every request must show the token (the page keeps it in a cookie). With people,
            the page asks for a sign-in, and each person sees and changes only what is
            shared with them (albums share). Either way the Host and Origin headers must
            name this server. Listens on loopback only, unless --allow-remote.

            Behind a TLS reverse proxy (Documentation/People.md has Caddy's and nginx's
            configurations), --public-url names the address people use, and --trusted-proxy
            the proxy's address, whose X-Forwarded-For and X-Forwarded-Proto are believed.

            Examples:
              albums serve
              albums serve --listen 127.0.0.1:0 --open
              albums serve --public-url https://photos.example.org --trusted-proxy 127.0.0.1
            """).parsedOnItsOwn

    @OptionGroup package var global: GlobalOptions
    @Option(help: ArgumentHelp("Where to listen (port 0: any free port).", valueName: "HOST:PORT")) package var listen = "127.0.0.1:8765"
    @Flag(help: "Open the page in the default browser.") package var open = false
    @Flag(help: "Listen on an address other machines can reach (anyone with the URL can change the library).") package var allowRemote = false
    @Option(help: ArgumentHelp("The address people reach the server at, through a reverse proxy.", valueName: "URL")) package var publicURL: String?
    @Option(help: ArgumentHelp("A reverse proxy's address whose forwarded headers are believed (repeatable).", valueName: "ADDRESS"))
    package var trustedProxy: [String] = []

    package init() {}

    package func validate() throws {
        _ = try Self.parse(listen)
        _ = try parsedPublicURL()
    }

    /// `--public-url` as a URL, checked.
    package func parsedPublicURL() throws -> URL? {
        guard let publicURL else { return nil }
        guard let url = URL(string: publicURL), ["http", "https"].contains(url.scheme ?? ""), url.host() != nil, url.path().isEmpty || url.path() == "/"
        else { throw ValidationError("--public-url takes an address such as https://photos.example.org, with no path") }
        return url
    }

    /// `HOST:PORT`, `[IPv6]:PORT`.
    package static func parse(_ text: String) throws -> (host: String, port: Int) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port) else {
            throw ValidationError("--listen takes HOST:PORT, such as 127.0.0.1:8765")
        }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { throw ValidationError("--listen takes HOST:PORT, such as 127.0.0.1:8765") }
        return (host, port)
    }

    /// Replaces this process with `albums-serve` beside it, given the same
    /// command line: same process id, same terminal, same signals. Runs only
    /// in `albums`; `albums-serve` serves instead (``ServeHost``).
    package func run() async throws {
        throw ServerProgram.handOver(for: "albums serve")
    }
}

/// Serves `albums serve` in the `albums-serve` program, which links the
/// server: given the parsed command, it opens the library and serves until
/// interrupted.
package protocol ServeHost: SendableMetatype {
    static func serve(_ command: ServeCommand) async throws
}

/// Where the `albums-serve` program is: beside the running `albums`.
enum ServerProgram {
    static let name = "albums-serve"

    /// Replaces this process with `albums-serve`, given the same command
    /// line: same process id, same terminal, same signals. Returns only when
    /// that failed, with the failure to report; `what` says what needed it.
    static func handOver(for what: String) -> CommandFailure {
        let server = path
        _ = execv(server, CommandLine.unsafeArgv)
        let reason = errno == ENOENT ? "is missing" : "cannot be run (\(String(cString: strerror(errno))))"
        return CommandFailure(
            status: ExitStatus.inputOutput, code: "server_missing",
            message: "\(what) runs the albums-serve program beside albums, and \(server) \(reason): "
                + "build it with scripts/build-release --product albums-serve and install it beside albums")
    }

    static var path: String {
        LibraryPath.folder(of: runningExecutable) + "/" + name
    }

    /// The running executable's own path, whatever PATH or symlink named it.
    private static var runningExecutable: String {
        #if os(Linux)
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
            if length > 0 { return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        #endif
        return Bundle.main.executablePath ?? CommandLine.arguments[0]
    }
}
