import HTTPTypes
import Hummingbird

/// Headers every response carries: no inline script may run, nothing is sniffed into
/// another type, no page is framed (the TV may be, from origins a setting names), and
/// links leak no paths to other sites.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The headers of `/tv` (its `frame-ancestors` as the operator allows embedding, and no
    /// `X-Frame-Options` unless that is `'none'`) and of every other response
    /// (`SecurityPolicy.fields`, as the answers made outside the router carry them), each
    /// written once rather than per request.
    private let tvFields: HTTPFields

    init(tvFrameAncestors: String) {
        var fields = SecurityPolicy.fields
        fields[.contentSecurityPolicy] = SecurityPolicy.text(frameAncestors: tvFrameAncestors)
        if fields[.contentSecurityPolicy] != SecurityPolicy.fields[.contentSecurityPolicy] { fields[SecurityPolicy.frameOptions] = nil }
        tvFields = fields
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        for field in request.uri.path == "/tv" ? tvFields : SecurityPolicy.fields {
            response.headers[field.name] = field.value
        }
        return response
    }
}

enum SecurityPolicy {
    static func text(frameAncestors: String) -> String {
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; worker-src 'self'; manifest-src 'self'; form-action 'self'; base-uri 'none'; object-src 'none'; frame-ancestors \(frameAncestors)"
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
