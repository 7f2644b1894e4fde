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

    func addRoutes(pages: RouteGroups, api: RouteGroups) {
        pages.member.get("/sync", use: page)
        pages.coach.post("/sync/now", use: syncNow)
        pages.coach.post("/sync/retry", use: retry)
        api.member.get("/sync", use: json)
        api.coach.post("/sync/now", use: syncNowAPI)
    }

    @Sendable func page(_ request: Request, context: AppRequestContext) async throws -> HTML {
        renderer.page(SyncPage(sync: try await SyncStatusView(status: await engine.status(), stores: stores)), "sync")
    }

    @Sendable func json(_ request: Request, context: AppRequestContext) async throws -> SyncResponse {
        SyncResponse(await engine.status())
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
        let form = try await request.decode(as: RetryForm.self, context: context)
        let type = form.type.flatMap(RecordType.init(rawValue:))
        if form.type != nil && type == nil {
            throw Problem(status: .unprocessableContent, title: "Invalid input", detail: "Unknown record type.")
        }
        try await engine.retryFailed(type: type, id: form.id)
        return .redirect(to: "/sync", type: .normal)
    }
}
