import Hummingbird
import HyzerStore

struct HomeController {
    let stores: Stores
    let renderer: TemplateRenderer
    let live: LiveStandings
    let hub: StreamHub

    func addRoutes(to groups: RouteGroups) {
        groups.viewer.get("/", use: home)
        groups.everyone.get("/healthz", use: health)
        groups.everyone.get("/metrics", use: metrics)
    }

    @Sendable func home(_ request: Request, context: AppRequestContext) async throws -> HTML {
        renderer.page(HomePage(summaries: try await stores.domain.roundSummaries(), events: try await stores.domain.events()), "home")
    }

    /// Liveness plus a read of the store, so a wedged database shows up here.
    @Sendable func health(_ request: Request, context: AppRequestContext) async throws -> Response {
        _ = try await stores.domain.roundSummaries(limit: 1)
        return Response(status: .ok, headers: [.contentType: "text/plain; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: "ok\n")))
    }

    /// Prometheus text format, for operators.
    @Sendable func metrics(_ request: Request, context: AppRequestContext) async throws -> Response {
        let streams = hub.statistics
        let rendered = await live.framesRenderedCount
        let text = """
            # HELP hyzer_live_subscribers Open live streams (round pages, leaderboards, TVs, sync pages).
            # TYPE hyzer_live_subscribers gauge
            hyzer_live_subscribers \(streams.subscribers)
            # HELP hyzer_live_frames_rendered_total Standings and TV frames rendered (each sent to every subscriber).
            # TYPE hyzer_live_frames_rendered_total counter
            hyzer_live_frames_rendered_total \(rendered)
            # HELP hyzer_live_frames_skipped_total States a slow client never saw because a newer one replaced them.
            # TYPE hyzer_live_frames_skipped_total counter
            hyzer_live_frames_skipped_total \(streams.framesSkipped)

            """
        return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
