import HTTPTypes
import Hummingbird
import HyzerSync

/// Read your own writes across a cluster. A write answered here reaches the cloud before its
/// answer leaves (at most `patience`), and the answer names the cloud's change number then:
/// `Hyzer-Seen: N` for API clients, and a short-lived `hyzer_seen` cookie for browsers, so the
/// redirect that follows a form carries it. Whichever instance a request carrying either lands
/// on answers only once it has pulled through N (again at most `patience`): the scorer sees
/// the save on the next page, whichever instance serves it. Installed in cluster mode only.
///
/// Only a signed-in request (a session or an API token) waits: every write that the record
/// stream carries needs an identity, and the anonymous posts (sign-in, setup, joining) leave
/// their client signed in. So an anonymous reader's number, made up or left over from before
/// a sign-out, costs the cloud nothing, and the shared cache may answer it.
struct ReadYourWritesMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    static let header = HTTPField.Name("Hyzer-Seen")!
    static let cookieName = "hyzer_seen"

    let engine: SyncEngine
    let patience: Duration
    let secureCookies: Bool

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if context.identity != nil, let seen = Self.seen(in: request), !(await engine.waitUntilPulled(through: seen, within: patience)) {
            context.logger.notice("Answering before this instance pulled a write the client has seen", metadata: ["seen": "\(seen)"])
        }
        var response = try await next(request, context)
        guard CSRF.isStateChanging(request.method), response.status.code < 400 else { return response }
        if let position = await engine.pushedPosition(within: patience) {
            response.headers[Self.header] = String(position)
            let cookie = Cookie(
                name: Self.cookieName, value: String(position), maxAge: 60, path: "/", secure: secureCookies, httpOnly: true, sameSite: .lax)
            response.headers[values: .setCookie].append(cookie.description)
        }
        return response
    }

    /// The newest change number the client says it has seen, from the header or the cookie.
    static func seen(in request: Request) -> Int64? {
        let header = request.headers[Self.header].flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) }
        let cookie = RequestCookie.value(Self.cookieName, in: request).flatMap { Int64($0) }
        return [header, cookie].compactMap { $0 }.filter { $0 > 0 }.max()
    }
}
