import AlbumsPersistence
import AlbumsTransfer
import AlbumsWire
import Foundation
import Hummingbird

/// Signing in and out, and who is signed in (`/api/session`).
struct SessionRoutes: Sendable {
    let library: Library
    let settings: GateSettings
    let throttle: SignInThrottle

    func register(on router: Router<AlbumsRequestContext>, recording allowed: inout AllowedMethods) {
        router.get("api/session") { _, context in try await whoIsSignedIn(context) }
        router.post("api/session") { request, context in try await signIn(request, context) }
        router.delete("api/session") { request, context in try await signOut(request, context) }
        for method in [HTTPRequest.Method.get, .post, .delete] { allowed.add(method, "api/session") }
    }

    private struct SessionJSON: Encodable {
        /// `people`: the server asks for sign-ins; `token`: it works with its token.
        let mode: String
        /// Who is signed in; null when nobody is.
        @KeptNull var person: PersonJSON?
    }

    private func whoIsSignedIn(_ context: AlbumsRequestContext) async throws -> Response {
        let hasPeople = try await library.read { try $0.hasPeople() }
        var person: PersonJSON?
        if case .person(let signedIn) = context.principal { person = PersonJSON(signedIn) }
        return JSONResponse.make(SessionJSON(mode: hasPeople ? "people" : "token", person: person))
    }

    private struct Credentials: Decodable {
        let name: String
        let password: String
    }

    /// `POST /api/session` with `{"name", "password"}`: a session cookie, or
    /// 401 saying only that the name or password is wrong (which of them is
    /// not told, and an unknown name takes as long as a wrong password).
    private func signIn(_ request: Request, _ context: AlbumsRequestContext) async throws -> Response {
        let body = try await RequestParts.bodyText(request)
        guard let credentials = try? JSONDecoder().decode(Credentials.self, from: Data(body.utf8)) else {
            throw RequestRefusal.badParameter("sign in with a JSON object {\"name\": …, \"password\": …}")
        }
        let address = settings.clientAddress(request, peer: context.peer)
        if case .wait(let seconds) = throttle.admit(name: credentials.name, address: address) {
            return APIError.tooManyAttempts("failed sign-ins", wait: seconds)
        }
        let person = try await library.person(named: credentials.name, password: credentials.password)
        guard let person else {
            return APIError.response(status: .unauthorized, code: "sign_in_failed", message: "that name and password do not match a person who may sign in")
        }
        throttle.noteSuccess(name: credentials.name, address: address)
        let session = try await library.write { try $0.openSession(for: person) }
        var response = JSONResponse.make(SessionJSON(mode: "people", person: PersonJSON(person)))
        response.setCookie(
            Cookie(
                name: Gate.personCookie(secure: settings.isSecure(request, peer: context.peer)), value: session.token, maxAge: Int(PersonSession.lifetime), path: "/",
                secure: settings.isSecure(request, peer: context.peer), httpOnly: true, sameSite: .strict))
        return response
    }

    /// `DELETE /api/session`: the session ends in the file, so its cookie,
    /// replayed, signs nobody in.
    private func signOut(_ request: Request, _ context: AlbumsRequestContext) async throws -> Response {
        let cookie = Gate.personCookie(secure: settings.isSecure(request, peer: context.peer))
        if let token = request.cookies[cookie]?.value {
            try await library.write { try $0.closeSession(token: token) }
        }
        var response = Response(status: .noContent)
        response.setCookie(
            Cookie(name: cookie, value: "", maxAge: 0, path: "/", secure: settings.isSecure(request, peer: context.peer), httpOnly: true, sameSite: .strict))
        return response
    }
}
