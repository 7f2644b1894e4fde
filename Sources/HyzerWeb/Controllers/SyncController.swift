import Foundation
import Hummingbird
import HyzerCore
import HyzerStore
import HyzerSync
import ServiceLifecycle

/// The sync-status page (its live stream is `SyncStatusFeed`), its JSON, and the "Sync now" and "Retry" actions.
struct SyncController {
    let stores: Stores
    let renderer: TemplateRenderer
    let engine: SyncEngine

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("/sync", use: page)
        router.post("/sync/now", use: syncNow)
        router.post("/sync/retry", use: retry)
        router.get("/api/v1/sync", use: json)
        router.post("/api/v1/sync/now", use: syncNowAPI)
    }

    @Sendable func page(_ request: Request, context: AppRequestContext) async throws -> HTML {
        renderer.page(SyncPage(sync: try SyncStatusView(status: await engine.status(), operational: stores.operational)), "sync")
    }

    @Sendable func json(_ request: Request, context: AppRequestContext) async throws -> Response {
        let data = try JSONCoding.encoder.encode(SyncResponse(await engine.status()))
        return Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    @Sendable func syncNow(_ request: Request, context: AppRequestContext) async throws -> Response {
        await engine.syncNow()
        return .redirect(to: "/sync", type: .normal)
    }

    @Sendable func syncNowAPI(_ request: Request, context: AppRequestContext) async throws -> Response {
        await engine.syncNow()
        return Response(status: .accepted)
    }

    @Sendable func retry(_ request: Request, context: AppRequestContext) async throws -> Response {
        let fields = try await FormFields.read(request, context: context)
        let type = fields["type"].flatMap(RecordType.init(rawValue:))
        if fields["type"] != nil && type == nil {
            throw Problem(status: .unprocessableContent, title: "Invalid input", detail: "Unknown record type.")
        }
        try await engine.retryFailed(type: type, id: fields["id"])
        return .redirect(to: "/sync", type: .normal)
    }
}
