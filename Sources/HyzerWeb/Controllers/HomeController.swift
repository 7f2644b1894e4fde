import Hummingbird
import HyzerStore
import HyzerSync

struct HomeController {
    let stores: Stores
    let renderer: TemplateRenderer
    let live: LiveStandings
    let hub: StreamHub
    let connectionTasks: ConnectionTasks
    let engine: SyncEngine
    let metricsRegistry: ServerMetrics
    /// With a token, `/metrics` is the operator's alone (the token, or a signed-in admin);
    /// without, it is read like the leaderboards.
    let metricsToken: String?

    func addRoutes(to groups: RouteGroups) {
        groups.viewer.get("/", use: home)
        groups.everyone.get("/healthz", use: health)
        (metricsToken == nil ? groups.viewer : groups.everyone).get("/metrics", use: metrics)
    }

    @Sendable func home(_ request: Request, context: AppRequestContext) async throws -> Response {
        let page = PageNumber.lenient(request)
        return try await renderer.cachedPage(request, context, store: stores.domain, page: .home(page: page)) {
            let (summaries, hasMore) = try await stores.domain.roundSummaries(page: page)
            // Past the last page there is nothing to show, and nothing to keep.
            if page > 1, summaries.isEmpty { throw HTTPError(.notFound, message: "There are fewer pages of rounds.") }
            let events = page == 1 ? try await stores.domain.events() : []
            return .init(html: renderer.page(HomePage(summaries: summaries, events: events, page: page, hasMore: hasMore), "home"), version: nil)
        }
    }

    /// Liveness plus a read of the store, so a wedged database shows up here.
    @Sendable func health(_ request: Request, context: AppRequestContext) async throws -> Response {
        _ = try await stores.domain.roundSummaries(limit: 1)
        return Response(status: .ok, headers: [.contentType: "text/plain; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: "ok\n")))
    }

    /// Prometheus text format, for operators: see `ServerMetrics`.
    @Sendable func metrics(_ request: Request, context: AppRequestContext) async throws -> Response {
        if let metricsToken, context.identity?.role != .admin {
            let sent = IdentityResolver.bearerToken(request.headers[.authorization]) ?? ""
            guard CSRF.equal(sent, metricsToken) else {
                var refusal = Response(
                    status: .unauthorized, headers: [.contentType: "text/plain; charset=utf-8"],
                    body: .init(byteBuffer: ByteBuffer(string: "Send the metrics token: Authorization: Bearer <token>.\n")))
                refusal.headers[.wwwAuthenticate] = "Bearer realm=\"metrics\""
                return refusal
            }
        }
        let bytes = await metricsRegistry.scrape(
            hub: hub, connectionTasks: connectionTasks, live: live, engine: engine, stores: stores, lane: renderer.cache.lane)
        return Response(
            status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
