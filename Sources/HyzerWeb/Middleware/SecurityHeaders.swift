import HTTPTypes
import Hummingbird

/// Headers every response carries: no inline script may run, nothing is sniffed into
/// another type, no page is framed (the TV may be, from origins a setting names), and
/// links leak no paths to other sites.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The policy for `/tv` (its `frame-ancestors` as the operator allows embedding) and for
    /// every other response (`'none'`), each written once rather than per request.
    private let tvPolicy: String
    private let policy = SecurityPolicy.text(frameAncestors: "'none'")

    init(tvFrameAncestors: String) {
        tvPolicy = SecurityPolicy.text(frameAncestors: tvFrameAncestors)
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        let isTV = request.uri.path == "/tv"
        response.headers[.contentSecurityPolicy] = isTV ? tvPolicy : policy
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[SecurityPolicy.referrerPolicy] = "same-origin"
        if !isTV || tvPolicy == policy { response.headers[SecurityPolicy.frameOptions] = "DENY" }
        return response
    }
}

enum SecurityPolicy {
    static func text(frameAncestors: String) -> String {
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; object-src 'none'; frame-ancestors \(frameAncestors)"
    }

    // Valid header names, written once: these literals cannot fail.
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
    static let frameOptions = HTTPField.Name("X-Frame-Options")!

    /// What every answer carries that is written outside the router (live streams, the front
    /// door's and the streams' plain-text refusals), as the middleware gives every other.
    static let fields: HTTPFields = [
        .contentSecurityPolicy: text(frameAncestors: "'none'"), .xContentTypeOptions: "nosniff",
        referrerPolicy: "same-origin", frameOptions: "DENY",
    ]

    /// A short plain-text answer written in the pipeline, closing its connection.
    static func plainAnswer(_ status: HTTPResponse.Status, bytes: Int, extra: HTTPFields = [:]) -> HTTPResponse {
        var headers: HTTPFields = [.contentType: "text/plain; charset=utf-8", .contentLength: String(bytes), .connection: "close"]
        headers.append(contentsOf: extra)
        headers.append(contentsOf: fields)
        return HTTPResponse(status: status, headerFields: headers)
    }
}
