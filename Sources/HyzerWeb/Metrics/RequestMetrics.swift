import Dispatch
import HTTPTypes
import Metrics
import Synchronization

/// The request series as Hummingbird's `MetricsMiddleware` names them (`hb.requests`,
/// `hb.request.errors`, `http.server.request.duration`, `http.server.active_requests`), made
/// once per route, method and status and shared by everything that answers: the router's
/// middleware (`RequestMetricsMiddleware`) and the kept-page lane.
final class RequestMetrics: Sendable {
    static let shared = RequestMetrics()

    struct Endpoint: Sendable {
        let requests: Counter
        let errors: Counter
        let duration: Metrics.Timer

        /// One answer, `start` (a `DispatchTime` in nanoseconds) to now.
        func answered(since start: UInt64, failed: Bool = false) {
            requests.increment()
            if failed { errors.increment() }
            duration.recordNanoseconds(Int64(DispatchTime.now().uptimeNanoseconds - start))
        }
    }

    private struct Key: Hashable {
        let route: String
        let method: HTTPRequest.Method
        let status: Int
    }

    private let endpoints = Mutex<[Key: Endpoint]>([:])
    private let active = Mutex<[HTTPRequest.Method: Meter]>([:])

    func endpoint(route: String, method: HTTPRequest.Method, status: HTTPResponse.Status) -> Endpoint {
        endpoints.withLock { endpoints in
            let key = Key(route: route, method: method, status: status.code)
            if let known = endpoints[key] { return known }
            let dimensions = [
                ("http.route", route), ("http.request.method", method.rawValue), ("http.response.status_code", String(status.code)),
            ]
            let made = Endpoint(
                requests: Counter(label: "hb.requests", dimensions: dimensions),
                errors: Counter(
                    label: "hb.request.errors",
                    dimensions: [("http.route", route), ("http.request.method", method.rawValue), ("error.type", String(status.code))]),
                duration: Metrics.Timer(label: "http.server.request.duration", dimensions: dimensions, preferredDisplayUnit: .seconds))
            endpoints[key] = made
            return made
        }
    }

    /// Requests of `method` begun and not yet answered.
    func activeRequests(_ method: HTTPRequest.Method) -> Meter {
        active.withLock { active in
            if let known = active[method] { return known }
            let made = Meter(label: "http.server.active_requests", dimensions: [("http.request.method", method.rawValue)])
            active[method] = made
            return made
        }
    }
}
