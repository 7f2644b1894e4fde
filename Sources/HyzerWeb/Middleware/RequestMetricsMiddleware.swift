import Dispatch
import Hummingbird

/// Counts and times every request by route and status, as Hummingbird's `MetricsMiddleware`
/// does and under its names (`RequestMetrics`), with two differences:
///
/// - A body of known length (a rendered page, a JSON answer) is timed when it is handed to
///   the server, not wrapped to be timed once written: Hummingbird writes a body it can see
///   whole as one batch with its head (one socket write, no extra hop to the event loop),
///   and a wrapped body loses that. Streams (live updates, downloads of unknown length) are
///   still timed and ended when their last byte is written.
/// - HEAD answers are finished here. The router answers HEAD for every GET route
///   (`RouterOptions.autoGenerateHeadEndpoints`) by replacing the GET response's body
///   unwritten: a wrapped body would never end its "active" mark nor be counted. A HEAD
///   that matches no route (a 404 page) is emptied the same way.
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics = RequestMetrics.shared

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = DispatchTime.now().uptimeNanoseconds
        let active = metrics.activeRequests(request.method)
        active.increment()
        var response: Response
        do {
            response = try await next(request, context)
        } catch {
            let status = (error as? any HTTPResponseError)?.status ?? .internalServerError
            metrics.endpoint(route: context.endpointPath ?? "NotFound", method: request.method, status: status).answered(since: start, failed: true)
            active.decrement()
            throw error
        }
        let endpoint = metrics.endpoint(route: context.endpointPath ?? "Unknown", method: request.method, status: response.status)
        if request.method == .head {
            endpoint.answered(since: start)
            active.decrement()
            return Response(status: response.status, headers: response.headers, body: .init())
        }
        guard response.body.contentLength == nil else {
            endpoint.answered(since: start)
            active.decrement()
            return response
        }
        let body = response.body
        response.body = ResponseBody { writer in
            defer {
                endpoint.answered(since: start)
                active.decrement()
            }
            try await body.write(writer)
        }
        return response
    }
}
