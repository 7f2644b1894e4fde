import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdAuth
import HyzerCore
import HyzerStore

/// Finds who is asking: an `Authorization: Bearer` token, else the session cookie. Shared by
/// the router (`IdentityMiddleware`) and the live-stream handler, which sees only the head.
struct IdentityResolver: Sendable {
    let stores: Stores
    let credentials: any CredentialStore
    let sessions: SessionStorage<UserSession>

    /// A token wins over a session; a token that is wrong is no identity (never the session's).
    /// nil: nobody, or an identity that no longer exists or is disabled. Throws when the store
    /// could not be read: that is not "nobody", and must not end anyone's session.
    func identity(authorization: String?, session: UserSession?) async throws -> Identity? {
        if let token = Self.bearerToken(authorization) {
            guard let owner = try await credentials.owner(ofToken: token) else { return nil }
            return try await stores.domain.identity(of: owner)
        }
        guard let session else { return nil }
        return try await stores.domain.identity(of: session.playerID)
    }

    /// For a live stream: the same lookup from the request head alone.
    func identity(for head: HTTPRequest) async throws -> Identity? {
        let request = Request(head: head, body: .init(buffer: ByteBuffer()))
        let session = try await sessions.load(request: request)
        return try await identity(authorization: head.headerFields[.authorization], session: session)
    }

    static func bearerToken(_ header: String?) -> String? {
        guard let header, header.count > 7, header.prefix(7).lowercased() == "bearer " else { return nil }
        let token = header.dropFirst(7).trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }
}

/// Puts the identity in the request context. Runs after the session middleware; a session
/// whose player is gone or disabled is ended. When the identity cannot be read at all, the
/// failure is logged and every route answers 503 (see `AccessMiddleware`): a busy or failing
/// database never signs anyone out.
struct IdentityMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let resolver: IdentityResolver

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        let session = context.sessions.session
        do {
            context.identity = try await resolver.identity(authorization: request.headers[.authorization], session: session)
            if session != nil, context.identity == nil, request.headers[.authorization] == nil {
                context.sessions.clearSession()
            }
        } catch {
            context.logger.error(
                "Could not read who is asking; answering 503 and keeping the session", metadata: ["path": "\(request.uri.path)", "error": "\(error)"])
            context.identityUnavailable = true
        }
        var response = try await next(request, context)
        ViewerTag.mark(&response, request: request, context: context)
        return response
    }
}

/// Names who a page was rendered for, opaquely, so the phone's service worker (Public/sw.js)
/// keeps each page with its viewer and never shows it to another: a new session (even of the
/// same player) has a new tag, and an anonymous page says so. From the session cookie the
/// request carries, so it costs a digest and no read: the identity was resolved already.
enum ViewerTag {
    static let header = HTTPField.Name("X-Hyzer-Viewer")!
    /// When the session ends (seconds since 1970): with no signal to ask the server, the worker
    /// stops showing the session's pages then.
    static let untilHeader = HTTPField.Name("X-Hyzer-Viewer-Until")!
    static let anonymous = "anonymous"

    static func mark(_ response: inout Response, request: Request, context: AppRequestContext) {
        // Pages only (a 304 too: the browser's copy takes the headers it brings); the API and
        // files are not kept as pages.
        guard response.status == .notModified || response.headers[.contentType]?.hasPrefix("text/html") == true else { return }
        guard context.identity != nil, let source = source(of: request, context: context) else {
            response.headers[header] = anonymous
            return
        }
        response.headers[header] = tag(source)
        if let left = context.sessions.withLockedSession({ $0?.expiresIn }) {
            response.headers[untilHeader] = String(Int(Date().timeIntervalSince1970) + Int(left.components.seconds))
        }
    }

    /// The session cookie, or a bearer token (which wins over it, as in `IdentityResolver`).
    private static func source(of request: Request, context: AppRequestContext) -> String? {
        if let token = IdentityResolver.bearerToken(request.headers[.authorization]) { return "token:" + token }
        guard context.sessions.session != nil else { return nil }
        let cookie = CSRF.binding(of: request)
        return cookie.isEmpty ? nil : "session:" + cookie
    }

    /// Not the stored session key's digest (that is SHA-256 of the cookie alone): a tag read by
    /// a page script tells nothing about the database's rows.
    static func tag(_ source: String) -> String {
        String(Secret.digest("hyzer-viewer\u{0}" + source).prefix(32))
    }
}
