import HTTPTypes
import Hummingbird
import HyzerStore
import NIOCore

/// Wraps the router, because router middleware only runs once a route has matched: a method
/// the path does not take is a 405 naming the ones it does (`Allow`), where the router alone
/// would say 404. (HEAD is the router's own: `RouterOptions.autoGenerateHeadEndpoints`.)
/// The headers it gives a viewer's GET of a kept page are noted for `KeptPageLane`.
struct RouterFront<Router: HTTPResponderBuilder>: HTTPResponderBuilder {
    let router: Router
    let table: RouteTable
    let pages: PageCache
    let stores: Stores

    func buildResponder() -> FrontResponder<Router.Responder> {
        FrontResponder(wrapped: router.buildResponder(), table: table, pages: pages, stores: stores)
    }
}

struct FrontResponder<Wrapped: HTTPResponder>: HTTPResponder {
    typealias Context = Wrapped.Context
    let wrapped: Wrapped
    let table: RouteTable
    let pages: PageCache
    let stores: Stores

    func respond(to request: Request, context: Context) async throws -> Response {
        // What the chain adds to a plain GET's kept page is noted for `KeptPageHandler`.
        let plain = pages.lane.plain(request.head)
        // Read before the chain decides who is asking: a sign-out meanwhile moves it.
        let stamp = plain?.sessionCookies == nil ? nil : stores.sessionStamp
        let note = plain == nil ? nil : KeptPageLane.Note()
        let response = try await KeptPageLane.$current.withValue(note) { try await wrapped.respond(to: request, context: context) }
        if let plain, let note { pages.lane.noteHeaders(of: response, to: request.head, plain, note: note, stamp: stamp) }
        guard response.status == .notFound, let refusal = methodNotAllowed(request) else { return response }
        try await Self.discard(response)
        return refusal
    }

    /// Writes a response that is replaced nowhere, so whatever runs after its body is written
    /// (for a stream, the metrics middleware counts the request and ends its "active" mark
    /// there) still runs.
    private static func discard(_ response: Response) async throws {
        try await response.body.write(DiscardingWriter())
    }

    private func methodNotAllowed(_ request: Request) -> Response? {
        let allowed = table.methods(for: request.uri.path)
        // HEAD goes where GET goes: a GET route's 404 (no such round) is HEAD's 404 too.
        guard !allowed.isEmpty, !allowed.contains(request.method), !(request.method == .head && allowed.contains(.get)) else { return nil }
        let allow = (allowed.contains(.get) ? allowed + [.head] : allowed).map(\.rawValue).sorted().joined(separator: ", ")
        if request.uri.path.hasPrefix("/api/") {
            let problem = Problem(status: .methodNotAllowed, title: "Method not allowed", detail: "\(request.uri.path) takes \(allow).")
            var response = (try? problem.response()) ?? Response(status: .methodNotAllowed)
            response.headers[.allow] = allow
            // Answered outside the router's middleware: its security headers are added here.
            response.headers.append(contentsOf: SecurityPolicy.fields)
            return response
        }
        var headers: HTTPFields = [.allow: allow, .contentType: "text/plain; charset=utf-8"]
        headers.append(contentsOf: SecurityPolicy.fields)
        return Response(
            status: .methodNotAllowed,
            headers: headers,
            body: .init(byteBuffer: ByteBuffer(string: "\(request.method) is not allowed here; this address takes \(allow).\n"))
        )
    }
}

/// The router's routes as path patterns, to say which methods a path takes. Catch-all (`**`)
/// routes are left out: they exist to answer 404, not to take a method.
struct RouteTable: Sendable {
    private enum Segment: Sendable, Equatable {
        case literal(String)
        case any
    }

    private let patterns: [(method: HTTPRequest.Method, segments: [Segment])]

    init(_ routes: [(method: HTTPRequest.Method, path: String)]) {
        patterns = routes.compactMap { route in
            let parts = route.path.split(separator: "/")
            guard !parts.contains("**") else { return nil }
            let segments = parts.map { part -> Segment in
                part.contains("{") || part.contains("*") ? .any : .literal(String(part))
            }
            return (route.method, segments)
        }
    }

    func methods(for path: String) -> [HTTPRequest.Method] {
        let parts = path.split(separator: "/")
        var methods: [HTTPRequest.Method] = []
        for pattern in patterns where pattern.segments.count == parts.count && !methods.contains(pattern.method) {
            let matches = zip(pattern.segments, parts).allSatisfy { segment, part in
                if case .literal(let text) = segment { return text == part }
                return true
            }
            if matches { methods.append(pattern.method) }
        }
        return methods.sorted { $0.rawValue < $1.rawValue }
    }
}

struct DiscardingWriter: ResponseBodyWriter {
    mutating func write(_ buffer: ByteBuffer) async throws {}
    mutating func write(contentsOf buffers: some Sequence<ByteBuffer>) async throws {}
    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
