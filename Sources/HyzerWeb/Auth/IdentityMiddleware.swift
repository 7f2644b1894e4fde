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
        return try await next(request, context)
    }
}
