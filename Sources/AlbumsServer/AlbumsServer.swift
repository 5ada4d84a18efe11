import AlbumsPersistence
import AlbumsThumbnails
import AlbumsTransfer
import Foundation
import Hummingbird
import Logging
import NIOCore
import Synchronization

/// How `albums serve` listens and who may use it.
package struct ServeOptions: Sendable {
    /// The address to listen on: loopback unless ``allowsRemote``.
    package var host: String
    /// The port; 0 takes a free one (printed with the URL).
    package var port: Int
    /// The session token every request must show.
    package var token: String
    /// Listening beyond loopback, on the user's explicit word.
    package var allowsRemote: Bool
    /// The address people reach the server at through a reverse proxy
    /// (`https://photos.example.org`): the only Host and Origin it answers
    /// to, and, when it is HTTPS, cookies are marked Secure.
    package var publicURL: URL?
    /// The proxies (their addresses) whose `X-Forwarded-For` and
    /// `X-Forwarded-Proto` are believed: sign-ins are slowed per client
    /// address, which only the proxy knows.
    package var trustedProxies: Set<String>

    package init(
        host: String = "127.0.0.1", port: Int = 8765, token: String = ServeOptions.newToken(), allowsRemote: Bool = false,
        publicURL: URL? = nil, trustedProxies: Set<String> = []
    ) {
        self.host = host
        self.port = port
        self.token = token
        self.allowsRemote = allowsRemote
        self.publicURL = publicURL
        self.trustedProxies = trustedProxies
    }

    /// The `host:port` the public URL names, as a Host header carries it.
    var publicAuthority: String? {
        guard let publicURL, let host = publicURL.host() else { return nil }
        let port = publicURL.port.map { ":\($0)" } ?? ""
        return (host + port).lowercased()
    }

    /// 128 random bits as 32 hexadecimal digits, from the system's generator.
    package static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }

    /// Whether ``host`` is a loopback address, reachable from this machine only.
    package var isLoopback: Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    /// The `host:port` forms a browser on this machine sends as Host.
    func authorities(port: Int) -> Set<String> {
        var names = [host, "localhost", "127.0.0.1", "[::1]"]
        if host.contains(":") { names.append("[\(host)]") }
        return Set(names.map { "\($0):\(port)".lowercased() })
    }
}

/// Why `albums serve` will not start.
package enum ServeRefusal: Error, CustomStringConvertible {
    case remoteNotAllowed(host: String)
    /// Beyond loopback, requests must name the server: without the address
    /// people use, any Host would be answered (DNS rebinding).
    case remoteNeedsPublicURL(host: String)
    /// The address cannot be listened on: in use, not this machine's, or a privileged port.
    case cannotListen(address: String, detail: String)

    package var code: String {
        switch self {
        case .remoteNotAllowed: "remote_not_allowed"
        case .remoteNeedsPublicURL: "public_url_needed"
        case .cannotListen: "cannot_listen"
        }
    }

    package var description: String {
        switch self {
        case .remoteNotAllowed(let host):
            "\(host) is reachable from other machines: anyone who learns the URL can change the library. Add --allow-remote to listen there anyway"
        case .remoteNeedsPublicURL(let host):
            "listening on \(host) needs the address people will use, so that requests naming any other host are refused: add --public-url http://NAME:PORT"
        case .cannotListen(let address, let detail):
            "cannot listen on \(address): \(detail); choose another with --listen HOST:PORT (port 0 takes any free one)"
        }
    }
}

/// `albums serve`: the organizer page and its API over one library.
package enum AlbumsServer {
    /// Why the page will show no thumbnails (libvips cannot be loaded),
    /// or nil when it will; loads libvips on first call.
    package static var thumbnailsUnavailableReason: String? { ThumbnailStore.unavailableReason }

    /// Why videos browsers cannot play as they are will get no rendition
    /// (FFmpeg's libraries or its `ffmpeg` program missing), or nil when they will.
    package static var renditionsUnavailableReason: String? { PlayableRenditions().unavailableReason }

    /// The router: the page, the API, and the gate in front of both.
    ///
    /// - Parameter authorities: The `host:port` names requests must carry
    ///   (read per request: with port 0 they are known once listening).
    package static func router(
        session: TransferSession, thumbnails: ThumbnailStore = ThumbnailStore(), renditions: PlayableRenditions = PlayableRenditions(), token: String,
        authorities: @escaping @Sendable () -> Set<String>
    ) -> Router<AlbumsRequestContext> {
        router(
            library: session.library, thumbnails: thumbnails, renditions: renditions, loads: LoadsInFlight(),
            settings: GateSettings(token: token, authorities: authorities))
    }

    static func router(
        library: Library, thumbnails: ThumbnailStore, renditions: PlayableRenditions = PlayableRenditions(), loads: LoadsInFlight, settings: GateSettings,
        throttle: SignInThrottle = SignInThrottle()
    ) -> Router<AlbumsRequestContext> {
        routes(library: library, thumbnails: thumbnails, renditions: renditions, loads: loads, settings: settings, throttle: throttle).router
    }

    /// The router, and every route it answers (what the OpenAPI document must describe).
    static func routes(
        library: Library, thumbnails: ThumbnailStore, renditions: PlayableRenditions = PlayableRenditions(), loads: LoadsInFlight, settings: GateSettings,
        throttle: SignInThrottle = SignInThrottle()
    ) -> (router: Router<AlbumsRequestContext>, allowed: AllowedMethods) {
        let router = Router(context: AlbumsRequestContext.self)
        router.add(middleware: Gate(library: library, settings: settings))
        router.add(middleware: ErrorAnswering())
        router.add(middleware: LibraryPresence(library: library))
        var allowed = AllowedMethods()
        router.get("/") { request, _ in try page("organizer/index.html", request) }
        router.get("signin") { request, _ in try page("signin/signin.html", request) }
        // `/page/VERSION/organizer/app.js` (what the HTML names) or `/page/organizer/app.js`.
        router.get("page/**") { request, context in
            let path = PageFiles.unversioned(request.uri.path)
            let name = String(path.dropFirst("/page/".count))
            let version = path == request.uri.path ? "" : String(request.uri.path.split(separator: "/")[1])
            return try page(name, request, versioned: PageFiles.isVersioned(name, under: version))
        }
        router.get("api/openapi.json") { request, _ in try page("openapi.json", request) }
        for path in ["/", "signin", "page/**", "api/openapi.json"] { allowed.add(.get, path) }
        APIRoutes(library: library, thumbnails: thumbnails, renditions: renditions, uploads: UploadInbox(libraryPath: library.path), loads: loads)
            .register(on: router, recording: &allowed)
        SessionRoutes(library: library, settings: settings, throttle: throttle).register(on: router, recording: &allowed)
        // Counted apart from sign-ins: a link without a password always opens, and no success of one forgives the other's failures.
        ShareRoutes(library: library, thumbnails: thumbnails, renditions: renditions, settings: settings, throttle: SignInThrottle(clock: throttle.now))
            .register(on: router, recording: &allowed)
        PeopleRoutes(library: library).register(on: router, recording: &allowed)
        // Added last, so it wraps only what no route answered: a known path
        // asked with another method.
        router.add(middleware: MethodCheck(allowed: allowed))
        return (router, allowed)
    }

    /// A page file. `versioned`: asked under this build's version, so it
    /// never changes under that name and the browser keeps it; otherwise
    /// the browser asks again each time (no-cache) and gets 304 while it is the same.
    static func page(_ name: String, _ request: Request? = nil, versioned: Bool = false) throws -> Response {
        guard let file = PageFiles.file(named: name) else { throw RequestRefusal(status: .notFound, code: "not_found", message: "this server has no page file named \(name)") }
        let headers: HTTPFields = [
            .contentType: file.contentType, .cacheControl: versioned ? "public, max-age=31536000, immutable" : "no-cache", .eTag: file.tag,
            // The page runs only its own scripts and reaches only this server.
            .contentSecurityPolicy: "default-src 'self'; img-src 'self' blob: data:; style-src 'self'; frame-ancestors 'none'",
        ]
        if let asked = request?.headers[.ifNoneMatch], asked.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == file.tag }) {
            return Response(status: .notModified, headers: headers)
        }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: file.text)))
    }

    /// Serves until SIGINT or SIGTERM, then stops taking requests, lets
    /// those in flight finish, and returns. A write in flight is one
    /// transaction: it commits or does not; nothing is half-written.
    ///
    /// - Parameter listening: Called with the URL (token included) once the
    ///   server listens.
    package static func run(library: Library, options: ServeOptions, listening announce: @escaping @Sendable (String) -> Void) async throws {
        if !options.isLoopback && !options.allowsRemote { throw ServeRefusal.remoteNotAllowed(host: options.host) }
        if !options.isLoopback && options.publicURL == nil { throw ServeRefusal.remoteNeedsPublicURL(host: options.host) }
        let port = Mutex(options.port)
        let listening = Mutex(false)
        let loads = LoadsInFlight()
        let thumbnails = ThumbnailStore()
        let renditions = PlayableRenditions()
        let settings = GateSettings(
            token: options.token,
            authorities: {
                // Behind a proxy, or beyond loopback: only the public name.
                if let authority = options.publicAuthority { return [authority] }
                return options.authorities(port: port.withLock { $0 })
            }, publicURL: options.publicURL, trustedProxies: options.trustedProxies)
        let router = router(library: library, thumbnails: thumbnails, renditions: renditions, loads: loads, settings: settings)
        let hasPeople = try await library.read { try $0.hasPeople() }
        var logger = Logger(label: "albums-serve")
        logger.logLevel = .warning
        let app = Application(
            router: router,
            configuration: .init(address: .hostname(options.host, port: options.port), serverName: "albums"),
            onServerRunning: { channel in
                listening.withLock { $0 = true }
                let bound = channel.localAddress?.port ?? options.port
                port.withLock { $0 = bound }
                let host = options.host.contains(":") ? "[\(options.host)]" : options.host
                // With people, the page asks for a sign-in and the token opens nothing.
                let base = options.publicURL.map { $0.absoluteString.hasSuffix("/") ? String($0.absoluteString.dropLast()) : $0.absoluteString }
                    ?? "http://\(host):\(bound)"
                announce(hasPeople ? "\(base)/signin" : "\(base)/?token=\(options.token)")
            },
            logger: logger)
        // The grid's thumbnails are made before they are asked for, at low
        // priority and never while requests are answered, and the videos'
        // renditions where browsers need them; shutdown stops both.
        let warmer = ThumbnailWarmer(
            library: library, store: thumbnails,
            prepareVideo: { video in
                guard let source = try? VideoPlayback.source(of: video, in: library) else { return }
                await renditions.prepare(video, from: source)
            },
            fetchFromBucket: { try await library.originalBytes(of: $0) })
        let warming = ThumbnailStore.unavailableReason == nil ? Task(priority: .background) { await warmer.run() } : nil
        defer {
            warming?.cancel()
            renditions.stop()
        }
        do {
            try await app.runService()
        } catch let error as IOError where !listening.withLock({ $0 }) {
            let address = options.host.contains(":") ? "[\(options.host)]:\(options.port)" : "\(options.host):\(options.port)"
            let detail = error.errnoCode == EADDRINUSE ? "the address is in use (another albums serve?)" : String(cString: strerror(error.errnoCode))
            throw ServeRefusal.cannotListen(address: address, detail: detail)
        }
        // Requests are done; the loads they started finish and commit.
        await loads.waitForAll()
    }
}

/// Turns what handlers throw into the API's JSON errors, once, behind the
/// gate: the file's holder and admins read paths, everyone else file
/// names. (The gate answers its own failures, before anyone is known.)
struct ErrorAnswering: RouterMiddleware {
    typealias Context = AlbumsRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            return APIError.response(for: error, showingPaths: context.showsServerPaths)
        }
    }
}
