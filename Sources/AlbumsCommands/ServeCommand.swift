import AlbumsPersistence
import AlbumsServer
import ArgumentParser
import Foundation

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
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
            """)

    @OptionGroup var global: GlobalOptions
    @Option(help: ArgumentHelp("Where to listen (port 0: any free port).", valueName: "HOST:PORT")) var listen = "127.0.0.1:8765"
    @Flag(help: "Open the page in the default browser.") var open = false
    @Flag(help: "Listen on an address other machines can reach (anyone with the URL can change the library).") var allowRemote = false
    @Option(help: ArgumentHelp("The address people reach the server at, through a reverse proxy.", valueName: "URL")) var publicURL: String?
    @Option(help: ArgumentHelp("A reverse proxy's address whose forwarded headers are believed (repeatable).", valueName: "ADDRESS"))
    var trustedProxy: [String] = []

    func validate() throws {
        _ = try Self.parse(listen)
        _ = try parsedPublicURL()
    }

    private func parsedPublicURL() throws -> URL? {
        guard let publicURL else { return nil }
        guard let url = URL(string: publicURL), ["http", "https"].contains(url.scheme ?? ""), url.host() != nil, url.path().isEmpty || url.path() == "/"
        else { throw ValidationError("--public-url takes an address such as https://photos.example.org, with no path") }
        return url
    }

    /// `HOST:PORT`, `[IPv6]:PORT`.
    static func parse(_ text: String) throws -> (host: String, port: Int) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port) else {
            throw ValidationError("--listen takes HOST:PORT, such as 127.0.0.1:8765")
        }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { throw ValidationError("--listen takes HOST:PORT, such as 127.0.0.1:8765") }
        return (host, port)
    }

    func run() async throws {
        let (host, port) = try Self.parse(listen)
        let options = ServeOptions(
            host: host, port: port, allowsRemote: allowRemote, publicURL: try parsedPublicURL(), trustedProxies: Set(trustedProxy))
        if !options.isLoopback && !allowRemote {
            throw CommandFailure(status: ExitStatus.usage, code: "remote_not_allowed", message: ServeRefusal.remoteNotAllowed(host: host).description)
        }
        do {
            try await serve(options)
        } catch let refusal as ServeRefusal {
            throw CommandFailure(status: ExitStatus.inputOutput, code: refusal.code, message: refusal.description)
        }
    }

    private func serve(_ options: ServeOptions) async throws {
        let library = try global.openLibrary(for: .writing, concurrentReads: true)
        defer { try? library.close() }
        if let reason = AlbumsServer.thumbnailsUnavailableReason {
            global.console.note("albums: warning: the page will show no thumbnails: \(reason)")
        }
        let hasPeople = try await library.read { try $0.hasPeople() }
        if !options.isLoopback && !hasPeople {
            global.console.note("albums: warning: listening on \(options.host): anyone who can reach it and learns the URL can change this library")
        }
        let console = global.console
        let openBrowser = open
        try await AlbumsServer.run(library: library, options: options) { url in
            if console.json {
                console.result(#"{"url":"\#(url)"}"#)
            } else {
                console.result("serving \(library.path) at \(url)")
                console.result("Ctrl-C stops")
            }
            if openBrowser { Self.openInBrowser(url) }
        }
    }

    private static func openInBrowser(_ url: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        #if os(macOS)
            process.arguments = ["open", url]
        #else
            process.arguments = ["xdg-open", url]
        #endif
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try? process.run()
    }
}
