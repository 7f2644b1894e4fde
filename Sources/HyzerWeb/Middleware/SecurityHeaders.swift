import HTTPTypes
import Hummingbird

/// Headers every response carries: no inline script may run, nothing is sniffed into
/// another type, no page is framed (the TV may be, from origins a setting names), and
/// links leak no paths to other sites.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    /// `frame-ancestors` for `/tv`; `'none'` unless the operator allows embedding.
    let tvFrameAncestors: String

    // Valid header names, written once: these literals cannot fail.
    private static var referrerPolicy: HTTPField.Name { HTTPField.Name("Referrer-Policy")! }
    private static var frameOptions: HTTPField.Name { HTTPField.Name("X-Frame-Options")! }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        let ancestors = request.uri.path == "/tv" ? tvFrameAncestors : "'none'"
        response.headers[.contentSecurityPolicy] = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; object-src 'none'; frame-ancestors \(ancestors)"
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[Self.referrerPolicy] = "same-origin"
        if ancestors == "'none'" { response.headers[Self.frameOptions] = "DENY" }
        return response
    }
}
