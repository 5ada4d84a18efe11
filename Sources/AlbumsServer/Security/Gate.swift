import AlbumsPersistence
import Crypto
import Foundation
import Hummingbird

/// Who may ask this server anything, and as whom.
///
/// Every request must carry a Host naming this server (no DNS rebinding)
/// and, when it sends one, an Origin of this server (no cross-site
/// requests). Then:
/// - a library with no people: the session token printed by `albums serve`
///   (a cookie set by the first visit with `?token=`, or `Authorization:
///   Bearer`), and the request acts for the file's holder;
/// - a library with people: a signed-in person's session cookie, and the
///   request acts for them; the page goes to the sign-in page without one.
/// Share links' pages and their API are open to anyone: the link's token,
/// checked by their routes, is what they show.
struct Gate: RouterMiddleware {
    typealias Context = AlbumsRequestContext

    let library: Library
    let settings: GateSettings

    /// The cookie the token's first visit sets.
    static func tokenCookie(secure: Bool) -> String { cookieName("albums_session", secure: secure) }
    /// The cookie a person's sign-in sets.
    static func personCookie(secure: Bool) -> String { cookieName("albums_person", secure: secure) }

    /// Behind HTTPS a cookie's name takes the `__Host-` prefix: the browser
    /// then takes it only from this very host, over HTTPS, for the whole
    /// site, so no other site under the same domain can set one in its place.
    private static func cookieName(_ name: String, secure: Bool) -> String {
        secure ? "__Host-" + name : name
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let allowed = settings.authorities()
        guard let authority = request.head.authority, allowed.isEmpty || allowed.contains(authority.lowercased()) else {
            return APIError.response(
                status: .misdirectedRequest, code: "wrong_host", message: "this server answers only to \(allowed.sorted().joined(separator: ", "))")
        }
        let scheme = settings.isSecure(request, peer: context.peer) ? "https" : "http"
        if let origin = request.headers[.origin], origin != "\(scheme)://\(authority)" {
            return APIError.response(status: .forbidden, code: "wrong_origin", message: "requests from \(origin) are refused: only the page this server serves may call it")
        }
        let path = request.uri.path
        if Self.isShared(path) { return try await next(request, context) }
        // A library moved away cannot say who a cookie signs in: the holder's
        // token goes on to be told where it was (LibraryPresence); anyone
        // else is answered as a stranger is, with no path.
        if !library.isFileInPlace {
            guard presentsToken(request, context) else { return LibraryPresence.unavailable(showingPaths: false, library: library) }
            var context = context
            context.credential = .serverToken
            return try await next(request, context)
        }
        // One read on every request (proposals come at pointer rate): whether
        // the library has people, and if so who the cookie signs in.
        let cookie = request.cookies[Self.personCookie(secure: scheme == "https")]?.value
        // Nobody is known yet: a failing read is answered here, with no path in it
        // (what the gate passes on is answered after it, by who asks).
        let asker: Asker
        do {
            asker = try await library.read { reader -> Asker in
                guard try reader.hasPeople() else { return .tokenMode }
                return .person(try cookie.flatMap { try reader.person(signedInWith: $0) })
            }
        } catch {
            return APIError.response(for: error, showingPaths: false)
        }
        guard case .person(let person) = asker else { return try await withToken(request, context, next) }

        var context = context
        if let person, let cookie {
            context.principal = .person(person)
            context.credential = .personSession(token: cookie)
            return try await next(request, context)
        }
        if Self.isOpenForSignIn(path, request.method) { return try await next(request, context) }
        if request.method == .get && (path == "/" || path == "/index.html") {
            return Response(status: .seeOther, headers: [.location: "/signin"])
        }
        return APIError.response(status: .unauthorized, code: "sign_in_needed", message: "sign in first: open this server's /signin page")
    }

    /// Who a request comes from, as the library says.
    private enum Asker: Sendable {
        /// The library has no people: the token decides.
        case tokenMode
        /// The library has people: the person the cookie signs in, if any.
        case person(Person?)
    }

    /// The token mode: as `albums serve` worked before it had people.
    private func withToken(_ request: Request, _ context: Context, _ next: (Request, Context) async throws -> Response) async throws -> Response {
        let token = settings.token
        if presentsToken(request, context) {
            var context = context
            context.credential = .serverToken
            return try await next(request, context)
        }
        let givenInURL = request.uri.queryParameters.get("token").map { Self.same(String($0), token) } == true
        // A read of the API with the token in its URL (curl pasting the printed
        // URL's token) is answered: a redirect would answer it with nothing.
        if givenInURL, request.method == .get, request.uri.path.hasPrefix("/api/") {
            var context = context
            context.credential = .serverToken
            return try await next(request, context)
        }
        // The first visit: the URL printed by `albums serve` carries the token once.
        if request.method == .get, givenInURL {
            var response = Response(status: .seeOther, headers: [.location: request.uri.path])
            response.setCookie(
                Cookie(
                    name: Self.tokenCookie(secure: settings.isSecure(request, peer: context.peer)), value: token, path: "/",
                    secure: settings.isSecure(request, peer: context.peer), httpOnly: true,
                    sameSite: .strict))
            return response
        }
        if request.uri.path == "/api/session", request.method == .get { return try await next(request, context) }
        return APIError.response(
            status: .unauthorized, code: "unauthorized",
            message: "this server needs its session token: open the URL albums serve printed, or send it as Authorization: Bearer TOKEN")
    }

    private func presentsToken(_ request: Request, _ context: Context) -> Bool {
        let name = Self.tokenCookie(secure: settings.isSecure(request, peer: context.peer))
        if let cookie = request.cookies[name]?.value, Self.same(cookie, settings.token) { return true }
        if let authorization = request.headers[.authorization], authorization.hasPrefix("Bearer "),
            Self.same(String(authorization.dropFirst(7)), settings.token)
        {
            return true
        }
        return false
    }

    /// A share link's page and API, and the files of the public pages'
    /// folders (the share page's, the sign-in page's and what they share
    /// with the organizer): open to anyone; for a link, its token decides.
    /// Folders, never file names: a new module of the share page needs no
    /// word here.
    static func isShared(_ path: String) -> Bool {
        let path = PageFiles.unversioned(path)
        return path.hasPrefix("/s/") || path.hasPrefix("/api/share/")
            || (path.hasPrefix("/page/") && PageFiles.isPublic(String(path.dropFirst("/page/".count))))
    }

    /// What someone not signed in may ask: the sign-in page and signing in
    /// (the sign-in page's own files are public, ``isShared(_:)``).
    static func isOpenForSignIn(_ path: String, _ method: HTTPRequest.Method) -> Bool {
        switch (method, PageFiles.unversioned(path)) {
        case (.get, "/signin"), (.get, "/api/session"), (.post, "/api/session"): true
        default: false
        }
    }

    /// Compares in time independent of where the strings differ, or of
    /// how much of them is the same: both are hashed first (SHA-256), so
    /// the comparison runs over 32 bytes whatever the strings' lengths.
    static func same(_ a: String, _ b: String) -> Bool {
        let (x, y) = (SHA256.hash(data: Data(a.utf8)), SHA256.hash(data: Data(b.utf8)))
        return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

/// How the gate reads requests: the token, the names this server answers
/// to, and what a reverse proxy in front of it says.
struct GateSettings: Sendable {
    /// The session token of the token mode.
    let token: String
    /// The `host:port` forms this server answers to; empty: any.
    let authorities: @Sendable () -> Set<String>
    /// The address people reach the server at through a proxy (`https://photos.example.org`), if any.
    let publicURL: URL?
    /// Peers whose `X-Forwarded-For` and `X-Forwarded-Proto` are believed.
    let trustedProxies: Set<String>

    init(token: String, authorities: @escaping @Sendable () -> Set<String>, publicURL: URL? = nil, trustedProxies: Set<String> = []) {
        self.token = token
        self.authorities = authorities
        self.publicURL = publicURL
        self.trustedProxies = trustedProxies
    }

    /// Whether the browser reached the page over HTTPS (cookies are then `Secure`).
    func isSecure(_ request: Request, peer: String?) -> Bool {
        if publicURL?.scheme == "https" { return true }
        if let peer, trustedProxies.contains(peer), request.headers[.init("X-Forwarded-Proto")!]?.lowercased() == "https" { return true }
        return false
    }

    /// The client's address: the peer's, or, behind a trusted proxy, the
    /// one the proxy says it served (the last in `X-Forwarded-For`).
    func clientAddress(_ request: Request, peer: String?) -> String? {
        guard let peer, trustedProxies.contains(peer), let forwarded = request.headers[.init("X-Forwarded-For")!] else { return peer }
        return forwarded.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? peer
    }
}
