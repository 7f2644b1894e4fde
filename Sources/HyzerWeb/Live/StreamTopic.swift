import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import HyzerCore
import NIOCore

/// What one event stream follows. Each topic numbers its own frames.
enum StreamTopic: Hashable, Sendable {
    /// `/rounds/{id}/events`: the leaderboard, plus the scorecard grid for a round page.
    case round(UUID, scorecard: Bool)
    /// `/tv/events`: the boards of every active round.
    case tv
    /// `/sync/events`: the sync-status fragment.
    case sync
    /// `/events/{id}/bracket/events`: an event's bracket, as its matches stand.
    case bracket(UUID)

    /// The addresses streams are served at (by `GET`, in the pipeline): the router never sees
    /// them, so they are named to it for the 405 another method gets.
    static let paths = ["/rounds/{id}/events", "/tv/events", "/sync/events", "/events/{id}/bracket/events"]

    /// Which source renders the topic's frames.
    enum Source: Hashable, Sendable {
        case standings
        case sync
    }

    /// Who may follow it: the same audience as the page it belongs to.
    var audience: Audience {
        switch self {
        case .round, .tv, .bracket: .viewer
        case .sync: .member
        }
    }

    var source: Source {
        switch self {
        case .round, .tv, .bracket: .standings
        case .sync: .sync
        }
    }

    /// The topic a `GET` target names, or nil for any other target (the router answers those,
    /// including a round id that is not a UUID: 404). Whether the round exists is the
    /// source's question.
    init?(target: String) {
        // Every request is asked whether it is a stream: most are not, and say so by their end.
        guard RequestTarget.path(target, endsWith: "/events") else { return nil }
        let uri = URI(target)
        let parts = uri.path.split(separator: "/", omittingEmptySubsequences: false)
        switch parts.count {
        case 3 where parts[1] == "tv" && parts[2] == "events":
            self = .tv
        case 3 where parts[1] == "sync" && parts[2] == "events":
            self = .sync
        case 4 where parts[1] == "rounds" && parts[3] == "events":
            guard let id = UUID(text: String(parts[2])) else { return nil }
            self = .round(id, scorecard: uri.queryParameters.get("scorecard") == "1")
        case 5 where parts[1] == "events" && parts[3] == "bracket" && parts[4] == "events":
            guard let id = UUID(text: String(parts[2])) else { return nil }
            self = .bracket(id)
        default:
            return nil
        }
    }
}

/// Decides whether a stream request may be answered, from its head (cookies, Authorization)
/// and its topic's audience, with the router's own rules.
/// Throws when who is asking could not be read: neither allowed nor refused (see
/// `IdentityMiddleware`).
struct StreamAccess: Sendable {
    let decide: @Sendable (Audience, HTTPRequest) async throws -> AccessDecision
    /// Set when the answer never depends on the request: no task is needed to give it.
    let fixed: AccessDecision?

    init(_ decide: @escaping @Sendable (Audience, HTTPRequest) async throws -> AccessDecision) {
        self.decide = decide
        fixed = nil
    }

    private init(fixed: AccessDecision) {
        decide = { _, _ in fixed }
        self.fixed = fixed
    }

    static let open = StreamAccess(fixed: .allowed)

    func decide(_ credentials: StreamCredentials) async throws -> AccessDecision {
        try await decide(credentials.audience, credentials.head)
    }
}

/// What an open stream was allowed with, kept to decide again when access changes: the
/// audience, the bearer token and the session cookie, nothing else (every browser's other
/// cookies differ, and streams with the same credentials are decided once). A value longer
/// than any Hyzer issues is no credential at all, as it would be for the router.
struct StreamCredentials: Hashable, Sendable {
    var audience: Audience
    var bearer: String?
    var session: String?

    static let longest = 256

    init(_ audience: Audience, _ head: HTTPRequest) {
        self.audience = audience
        // A token too long to be one Hyzer issued is kept as one short wrong token: decided
        // again, it is still a wrong token, which never falls back to the session.
        bearer = IdentityResolver.bearerToken(head.headerFields[.authorization]).map { $0.count <= Self.longest ? $0 : "-" }
        let cookies = Cookies(from: head.headerFields[values: .cookie])
        session = cookies[UserSession.cookieName].map { String($0.value) }.flatMap { $0.count <= Self.longest ? $0 : nil }
    }

    /// A head that says what these credentials say, to ask the access rules again.
    var head: HTTPRequest {
        var fields = HTTPFields()
        if let bearer { fields[.authorization] = "Bearer \(bearer)" }
        if let session { fields[.cookie] = "\(UserSession.cookieName)=\(session)" }
        return HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/", headerFields: fields)
    }
}

/// One rendered state of a topic, complete in itself: a client that missed earlier frames
/// needs only the newest.
struct StreamFrame: Sendable {
    /// Grows with every change of the topic (a round's version; a sequence for the others).
    let version: Int
    let body: StreamBytes

    init(version: Int, bytes: ByteBuffer) {
        self.version = version
        body = StreamBytes(bytes)
    }
}
