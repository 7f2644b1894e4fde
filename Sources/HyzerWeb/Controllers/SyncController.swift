import Foundation
import Hummingbird
import HyzerCore
import HyzerStore
import HyzerSync
import ServiceLifecycle

/// The sync-status page, its JSON and live stream, and the "Sync now" and "Retry" actions.
struct SyncController {
    let stores: Stores
    let renderer: TemplateRenderer
    let engine: SyncEngine

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("/sync", use: page)
        router.get("/sync/events", use: events)
        router.post("/sync/now", use: syncNow)
        router.post("/sync/retry", use: retry)
        router.get("/api/v1/sync", use: json)
        router.post("/api/v1/sync/now", use: syncNowAPI)
    }

    func view(_ status: SyncEngine.Status) throws -> SyncStatusView {
        SyncStatusView(status: status, log: try stores.operational.recentLog(limit: 50), failed: try stores.operational.failedEntries(limit: 50))
    }

    @Sendable func page(_ request: Request, context: AppRequestContext) async throws -> HTML {
        renderer.page(SyncPage(sync: try view(await engine.status())), "sync")
    }

    @Sendable func json(_ request: Request, context: AppRequestContext) async throws -> Response {
        let data = try JSONCoding.encoder.encode(SyncResponse(await engine.status()))
        return Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// `event: sync` with the status fragment, at once and after every change.
    @Sendable func events(_ request: Request, context: AppRequestContext) async throws -> Response {
        let engine = engine
        let renderer = renderer
        let controller = self
        return Response(
            status: .ok,
            headers: LiveController.eventStreamHeaders,
            body: ResponseBody { writer in
                let updates = await engine.statusUpdates()
                var sequence = 0
                do {
                    try await writer.write(ByteBuffer(string: ServerSentEvent.retry(milliseconds: LiveController.retryMilliseconds)))
                    try await request.body.consumeWithCancellationOnInboundClose { _ in
                        for await status in updates.cancelOnGracefulShutdown() {
                            sequence += 1
                            let html = renderer.render(try controller.view(status), "sync-status")
                            try await writer.write(ByteBuffer(string: ServerSentEvent.encode(event: "sync", id: String(sequence), data: html)))
                        }
                    }
                } catch {
                    // The client left or the server is stopping.
                }
                try? await writer.finish(nil)
            }
        )
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
