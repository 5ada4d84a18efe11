import Foundation
import Hummingbird

/// What every request must show (README, "The organizer in the browser"): the session token
/// (a cookie set by the first visit with `?token=`, or `Authorization:
/// Bearer`), a Host header naming this server (no DNS rebinding), and,
/// when it sends one, an Origin of this server (no cross-site requests).
struct AccessGuard<Context: RequestContext>: RouterMiddleware {
    let token: String
    /// The `host:port` forms this server answers to; empty: any (listening
    /// beyond loopback, where the names are the network's).
    let authorities: @Sendable () -> Set<String>

    static var cookieName: String { "albums_session" }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let allowed = authorities()
        guard let authority = request.head.authority, allowed.isEmpty || allowed.contains(authority.lowercased()) else {
            return APIError.response(
                status: .misdirectedRequest, code: "wrong_host", message: "this server answers only to \(allowed.sorted().joined(separator: ", "))")
        }
        if let origin = request.headers[.origin], origin != "http://\(authority)" {
            return APIError.response(status: .forbidden, code: "wrong_origin", message: "requests from \(origin) are refused: only the page this server serves may call it")
        }
        if presentsToken(request) { return try await next(request, context) }
        // The first visit: the URL printed by `albums serve` carries the token once.
        if request.method == .get, request.uri.queryParameters.get("token") == token {
            var response = Response(status: .seeOther, headers: [.location: request.uri.path])
            response.setCookie(Cookie(name: Self.cookieName, value: token, path: "/", httpOnly: true, sameSite: .strict))
            return response
        }
        return APIError.response(status: .unauthorized, code: "unauthorized", message: "this server needs its session token: open the URL albums serve printed")
    }

    private func presentsToken(_ request: Request) -> Bool {
        if let cookie = request.cookies[Self.cookieName]?.value, Self.same(cookie, token) { return true }
        if let authorization = request.headers[.authorization], authorization.hasPrefix("Bearer "),
            Self.same(String(authorization.dropFirst(7)), token)
        {
            return true
        }
        return false
    }

    /// Compares in time independent of where the strings differ.
    static func same(_ a: String, _ b: String) -> Bool {
        let (x, y) = (Array(a.utf8), Array(b.utf8))
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
