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

    func addRoutes(to groups: RouteGroups) {
        groups.viewer.get("/", use: home)
        groups.everyone.get("/healthz", use: health)
        groups.everyone.get("/metrics", use: metrics)
    }

    @Sendable func home(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await renderer.cachedPage(request, context, store: stores.domain, page: "home") {
            .init(html: renderer.page(HomePage(summaries: try await stores.domain.roundSummaries(), events: try await stores.domain.events()), "home"), version: nil)
        }
    }

    /// Liveness plus a read of the store, so a wedged database shows up here.
    @Sendable func health(_ request: Request, context: AppRequestContext) async throws -> Response {
        _ = try await stores.domain.roundSummaries(limit: 1)
        return Response(status: .ok, headers: [.contentType: "text/plain; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: "ok\n")))
    }

    /// Prometheus text format, for operators: see `ServerMetrics`.
    @Sendable func metrics(_ request: Request, context: AppRequestContext) async throws -> Response {
        let bytes = await metricsRegistry.scrape(hub: hub, connectionTasks: connectionTasks, live: live, engine: engine, stores: stores)
        return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
