import Hummingbird

/// Hummingbird's `MetricsMiddleware`, finishing HEAD answers itself. The router answers HEAD
/// for every GET route (`RouterOptions.autoGenerateHeadEndpoints`) by replacing the GET
/// response's body unwritten, and the metrics middleware counts a request, times it and ends
/// its "active" mark when the body has been written: every HEAD would climb the active gauge
/// for good and never be counted. So a HEAD response's body (with that bookkeeping) is
/// written here, to nowhere, and the answer goes on empty with the GET's status and headers,
/// Content-Length included; a HEAD that matches no route (a 404 page) is emptied the same way.
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics = MetricsMiddleware<Context>()

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let response = try await metrics.handle(request, context: context, next: next)
        guard request.method == .head else { return response }
        try await response.body.write(DiscardingWriter())
        return Response(status: response.status, headers: response.headers, body: .init())
    }
}
