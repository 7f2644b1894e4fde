import Foundation
import Hummingbird
import HummingbirdAuth
import HyzerCore
import Synchronization

/// The one request context of the app: who is asking (nil when anonymous), their session,
/// the form token, and how bodies are decoded. JSON in and out uses ISO 8601 dates, the
/// contract's format for times.
public struct AppRequestContext: RequestContext, SessionRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The signed-in player or token owner; set by `IdentityMiddleware`.
    public var identity: Identity?
    /// Who is asking could not be read (the store failed, not "nobody"): every route answers
    /// 503 "try again" (`AccessMiddleware`), and the session is kept.
    public var identityUnavailable = false
    public let sessions: SessionContext<UserSession>
    /// The anti-forgery token every form on the page carries (`CSRFTokenMiddleware` sets it up).
    var formToken = FormToken(existing: nil) { "" }
    public var csrfToken: String { formToken.value }
    /// The client's address, for throttling sign-ins and sign-ups: the peer's, or the one a
    /// trusted proxy forwarded (set by `ClientAddressMiddleware`).
    public var clientAddress: String
    /// The club's name, which heads every page (set by `ClubNameMiddleware`).
    public var clubName = ""

    public init(source: Source) {
        coreContext = .init(source: source)
        sessions = .init()
        clientAddress = source.channel.remoteAddress?.ipAddress ?? "unknown"
    }

    public var requestDecoder: AppRequestDecoder { AppRequestDecoder() }
    public var responseEncoder: JSONEncoder { JSONCoding.encoder }
    /// Forms and API bodies are small: a score, a course, a player.
    public var maxUploadSize: Int { Self.maxBodyBytes }
    static let maxBodyBytes = 64 * 1024
}

/// Decodes a body by its declared type: JSON for the API, URL-encoded for HTML forms.
/// Anything else is refused (415) before it is read.
public struct AppRequestDecoder: RequestDecoder {
    public func decode<T: Decodable>(_ type: T.Type, from request: Request, context: some RequestContext) async throws -> T {
        switch MediaType(from: request.headers[.contentType] ?? "") {
        case .some(let media) where media.isType(.applicationJson):
            return try StrictJSON.decode(type, from: try await request.body.collect(upTo: context.maxUploadSize))
        case .some(let media) where media.isType(.applicationUrlEncoded):
            return try FormText.decode(type, from: try await request.body.collect(upTo: context.maxUploadSize))
        default:
            throw HTTPError(.unsupportedMediaType, message: "Send the body as application/json (API) or application/x-www-form-urlencoded (forms).")
        }
    }
}

enum JSONCoding {
    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}

/// Takes the client's address from `X-Forwarded-For` when the peer is a trusted proxy.
struct ClientAddressMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let proxies: TrustedProxies

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        context.clientAddress = proxies.client(peer: context.clientAddress, fields: request.headers)
        return try await next(request, context)
    }
}

/// A request's form token: the browser's own when it is valid, else one issued when first
/// needed (most answers need none: issuing costs a random nonce and an HMAC). It knows whether
/// a page wrote it: a reader without the token's cookie gets one only then, so pages without
/// forms carry no `Set-Cookie` and a shared cache may keep them.
final class FormToken: Sendable {
    private let issue: @Sendable () -> String
    private let state: Mutex<(token: String?, written: Bool)>

    init(existing: String?, issue: @escaping @Sendable () -> String) {
        self.issue = issue
        state = Mutex((existing, false))
    }

    var value: String {
        state.withLock { state in
            if let token = state.token { return token }
            let token = issue()
            state.token = token
            return token
        }
    }

    /// The token, as a page writes it into a form.
    func written() -> String {
        state.withLock { $0.written = true }
        return value
    }

    var wasWritten: Bool { state.withLock { $0.written } }
}
