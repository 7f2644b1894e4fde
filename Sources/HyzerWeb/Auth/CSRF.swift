import Foundation
import HTTPTypes
import Hummingbird
import HyzerCore
import HyzerStore

/// Cross-site request forgery: every page form carries a token that must equal the
/// `hyzer_csrf` cookie (a page on another site can neither read the cookie nor set the
/// field), the cookie must be one this server signed for the browser's current sign-in
/// (`FormTokenKey`: a planted cookie, or one from before a sign-in or sign-out, is refused),
/// and a state-changing request whose `Origin` is another site is refused outright.
enum CSRF {
    static let cookieName = "hyzer_csrf"
    static let fieldName = "csrf"
    static let headerName = HTTPField.Name("X-CSRF-Token")!

    /// What a token is bound to: the session cookie the request carries, or "" for none.
    static func binding(of request: Request) -> String {
        RequestCookie.value(UserSession.cookieName, in: request) ?? ""
    }

    /// The binding after a response: a response that sets or ends the session (sign-in,
    /// sign-out, a session found dead) changes it; nil when the response leaves it alone.
    static func newBinding(after response: Response) -> String? {
        let prefix = UserSession.cookieName + "="
        guard let set = response.headers[values: .setCookie].last(where: { $0.hasPrefix(prefix) }) else { return nil }
        // An ended session's cookie says `Max-Age=0` (`EndedSessionCookieMiddleware`).
        let ended = set.split(separator: ";").contains { $0.trimmingCharacters(in: .whitespaces).lowercased() == "max-age=0" }
        return ended ? "" : String(set.dropFirst(prefix.count).prefix { $0 != ";" })
    }

    static func isStateChanging(_ method: HTTPRequest.Method) -> Bool {
        ![.get, .head, .options].contains(method)
    }

    /// True when the request says it comes from another site. No `Origin` at all is allowed
    /// (older browsers, curl); the form token still has to match.
    static func isCrossSite(_ request: Request) -> Bool {
        guard let origin = request.headers[.origin] else { return false }
        guard let url = URL(string: origin), let host = url.host else { return true }
        let authority = url.port.map { "\(host):\($0)" } ?? host
        return authority.lowercased() != (request.head.authority ?? "").lowercased()
    }

    static func equal(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

/// Issues the form token and puts it in the context for the page's forms: the browser's
/// own while it is valid for the request's sign-in, a new one otherwise, and always a new
/// one when the response signs in or out (the token rotates with the session). The cookie is
/// set only when the page carried the token.
struct CSRFTokenMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let key: FormTokenKey
    let secureCookies: Bool

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        let binding = CSRF.binding(of: request)
        let cookie = RequestCookie.value(CSRF.cookieName, in: request)
        let existing = cookie.flatMap { key.isValid($0, binding: binding) ? $0 : nil }
        context.formToken = FormToken(existing: existing) { [key] in key.issue(binding: binding) }
        var response = try await next(request, context)
        if let rotated = CSRF.newBinding(after: response), rotated != binding || existing == nil {
            setCookie(key.issue(binding: rotated), on: &response)
        } else if existing == nil,
            context.formToken.wasWritten || (!binding.isEmpty && response.headers[.contentType]?.hasPrefix("text/html") == true)
        {
            // A page with a form, or any page of a signed-in browser (its menu signs out). A page
            // without a form hands out nothing: no cookie, so a shared cache may keep it.
            setCookie(context.csrfToken, on: &response)
        }
        return response
    }

    private func setCookie(_ token: String, on response: inout Response) {
        let cookie = Cookie(name: CSRF.cookieName, value: token, path: "/", secure: secureCookies, httpOnly: true, sameSite: .lax)
        response.headers[values: .setCookie].append(cookie.description)
        // A response that hands out a cookie is this browser's alone: no shared cache keeps it.
        if let policy = response.headers[.cacheControl], !policy.contains("private"), !policy.contains("no-store") {
            response.headers[.cacheControl] = "private, " + policy
        }
    }
}

/// Checks the form token and origin of every state-changing page request before its handler.
struct CSRFCheckMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    private struct TokenField: Decodable {
        var csrf: String?
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard CSRF.isStateChanging(request.method) else { return try await next(request, context) }
        if CSRF.isCrossSite(request) {
            throw Problem(status: .forbidden, title: "Refused", detail: "This form was sent from another site.", type: "/problems/csrf")
        }
        var request = request
        let sent: String
        if let type = request.headers[.contentType].flatMap(MediaType.init(from:)), !type.isType(.applicationUrlEncoded) {
            // A file sent as the body (a backup upload) carries its token in a header, and its
            // body is left unread for the handler to stream.
            sent = request.headers[CSRF.headerName] ?? ""
        } else {
            let body = try await request.collectBody(upTo: context.maxUploadSize)
            sent = (try? URLEncodedFormDecoder().decode(TokenField.self, from: String(buffer: body)))?.csrf ?? ""
        }
        guard RequestCookie.value(CSRF.cookieName, in: request) != nil, CSRF.equal(sent, context.csrfToken) else {
            throw Problem(
                status: .forbidden, title: "Form expired",
                detail: "This form is out of date or was not sent from Hyzer. Go back, reload the page and try again.", type: "/problems/csrf")
        }
        return try await next(request, context)
    }
}

/// The JSON API's front door: a body must be JSON or CSV (415 otherwise: a cross-site HTML form can
/// only send form types), and a state-changing call from another site's page is refused.
struct APIGuardMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if CSRF.isStateChanging(request.method) {
            if CSRF.isCrossSite(request) {
                throw Problem(
                    status: .forbidden, title: "Refused", detail: "State-changing API calls are not accepted from another site's pages.",
                    type: "/problems/csrf")
            }
            let type = request.headers[.contentType].flatMap(MediaType.init(from:))
            if request.headers[.contentType] != nil || request.headers[.contentLength].map({ $0 != "0" }) == true,
                type?.isType(.applicationJson) != true, type?.isType(MediaType(type: .text, subType: "csv")) != true
            {
                // Neither type is one a page on another site can send without a CORS preflight.
                throw Problem(
                    status: .unsupportedMediaType, title: "Unsupported media type",
                    detail: "Send the body as application/json (or text/csv for imports).")
            }
        }
        return try await next(request, context)
    }
}
