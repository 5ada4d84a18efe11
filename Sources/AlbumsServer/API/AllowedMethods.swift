import Hummingbird

/// The paths this server serves and the methods each takes, recorded as
/// routes are registered: a known path asked with another method is
/// answered 405 with `Allow` (RFC 9110 §15.5.6), not 404 as if it did not
/// exist.
struct AllowedMethods: Sendable {
    private var routes: [(segments: [Substring], methods: Set<HTTPRequest.Method>)] = []

    /// Every route registered, as `GET /api/albums/{name}/items`: how the
    /// OpenAPI document names them, for holding the two together.
    var described: Set<String> {
        Set(routes.flatMap { route in
            let path = "/" + route.segments.map { $0.first == ":" ? "{\($0.dropFirst())}" : String($0) }.joined(separator: "/")
            return route.methods.map { "\($0.rawValue) \(path)" }
        })
    }

    /// Records that `path` (a route template: `:name` stands for any one
    /// segment, a last `**` for one or more) takes `method`.
    mutating func add(_ method: HTTPRequest.Method, _ path: String) {
        let segments = Self.segments(path)
        if let index = routes.firstIndex(where: { $0.segments == segments }) {
            routes[index].methods.insert(method)
        } else {
            routes.append((segments, [method]))
        }
    }

    /// The methods `path` takes; `nil` when no route has this shape.
    func methods(forPath path: String) -> Set<HTTPRequest.Method>? {
        let asked = Self.segments(path)
        let matching = routes.filter { route in
            let isOpenEnded = route.segments.last == "**"
            let fixed = isOpenEnded ? route.segments.dropLast() : route.segments[...]
            return (isOpenEnded ? asked.count > fixed.count : asked.count == fixed.count)
                && zip(fixed, asked).allSatisfy { template, segment in template.first == ":" || template == segment }
        }
        return matching.isEmpty ? nil : matching.reduce(into: Set()) { $0.formUnion($1.methods) }
    }

    private static func segments(_ path: String) -> [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: true)
    }
}

/// Answers 405 with `Allow` for a known path asked with a method it does not take.
struct MethodCheck<Context: RequestContext>: RouterMiddleware {
    let allowed: AllowedMethods

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let methods = allowed.methods(forPath: request.uri.path), !methods.contains(request.method) else {
            return try await next(request, context)
        }
        let names = methods.map(\.rawValue).sorted()
        var response = APIError.response(
            status: .methodNotAllowed, code: "method_not_allowed",
            message: "\(request.uri.path) takes \(names.joined(separator: " or ")), not \(request.method.rawValue)")
        response.headers[.allow] = names.joined(separator: ", ")
        return response
    }
}
