import Hummingbird
import HyzerStore

struct HomeController {
    let stores: Stores
    let renderer: TemplateRenderer

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("/", use: home)
        router.get("/healthz", use: health)
    }

    @Sendable func home(_ request: Request, context: AppRequestContext) async throws -> HTML {
        renderer.page(HomePage(summaries: try await stores.domain.roundSummaries()), "home")
    }

    /// Liveness plus a read of the store, so a wedged database shows up here.
    @Sendable func health(_ request: Request, context: AppRequestContext) async throws -> Response {
        _ = try await stores.domain.roundSummaries(limit: 1)
        return Response(status: .ok, headers: [.contentType: "text/plain; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: "ok\n")))
    }
}
