import Foundation
import Hummingbird
import HummingbirdCore
import HyzerCore

/// Enforces one audience's rule on the routes of its group. A refusal writes nothing: the
/// handler never runs.
struct AccessMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    enum Style: Sendable {
        /// Pages: anonymous → sign-in and back; wrong role → a 403 page naming the role.
        case page
        /// JSON API: 401 or 403 problem documents.
        case api
    }

    let audience: Audience
    let style: Style
    let rules: AccessRules

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if context.identityUnavailable { throw Problem.identityUnavailable }
        let decision: AccessDecision
        do {
            decision = try await rules.decide(audience, identity: context.identity)
        } catch {
            context.logger.error("Could not read the club's access settings; answering 503", metadata: ["error": "\(error)"])
            throw Problem.identityUnavailable
        }
        switch decision {
        case .allowed:
            return try await next(request, context)
        case .signInRequired where style == .page:
            return .redirect(to: SignInLink.path(returningTo: request.uri), type: .normal)
        case .signInRequired:
            throw Problem(status: .unauthorized, title: "Sign-in required", detail: "Sign in, or send Authorization: Bearer <token>.")
        case .forbidden(let needs):
            throw Problem.forbidden(needs: needs)
        }
    }
}

extension Problem {
    /// The store could not say who is asking: nothing is decided, nobody is signed out.
    static var identityUnavailable: Problem {
        var problem = Problem(
            status: .serviceUnavailable, title: "Try again",
            detail: "Hyzer could not check who you are just now (its database did not answer). You are still signed in: try again in a moment.",
            type: "/problems/unavailable")
        problem.retryAfter = 2
        return problem
    }
}

enum SignInLink {
    /// `/signin?next=…` back to the page asked for; only local paths are ever followed.
    static func path(returningTo uri: URI) -> String {
        let target = uri.query.map { "\(uri.path)?\($0)" } ?? uri.path
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~/")
        return "/signin?next=\(target.addingPercentEncoding(withAllowedCharacters: allowed) ?? "/")"
    }

    /// A `next` value that is safe to redirect to: a path on this server, never another site.
    static func safeNext(_ next: String?) -> String {
        guard let next, next.hasPrefix("/"), !next.hasPrefix("//"), !next.contains("\\"),
            !next.unicodeScalars.contains(where: { $0.value < 0x20 })
        else { return "/" }
        return next
    }
}

extension Problem {
    static func forbidden(needs role: Role) -> Problem {
        Problem(
            status: .forbidden, title: "Not allowed",
            detail: "This needs the \(role.rawValue) role\(role == .admin ? "" : " or higher"). Ask a club admin if you should have it.",
            type: "/problems/forbidden"
        )
    }
}
