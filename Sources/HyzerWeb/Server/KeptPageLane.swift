import Foundation
import HTTPTypes
import Hummingbird
import HyzerStore
import Synchronization

/// A viewer's GET of a kept page, answered in the connection's pipeline (`KeptPageHandler`):
/// no task hop, no middleware chain, no route lookup — the page cache's bytes and the headers
/// the chain gave the same request the last time it went through, while nothing the chain
/// decided from has changed.
///
/// - **Who takes it.** A GET with no `Authorization`, `Range` or `Hyzer-Seen`, and no cookie
///   but the form token's and (outside a cluster) the session's (`plain`). Anything else, an
///   unknown cookie included, goes the whole way.
/// - **What it serves.** Only what the whole way answered before, for the same target and
///   (signed in) the same cookies, from the page cache: 200, no `Set-Cookie`, marked for its
///   viewer. `PageCache.serve` notes the page's key and route in the request's `Note`;
///   `FrontResponder` then records them with the headers the chain added (Hummingbird's own,
///   `Date` and `Server`, are added here). A page is served while its kept render stands under the store's
///   change count, as on the whole way; whatever the chain decides from data (a round removed,
///   leaderboards made private, the club renamed, a player's role) moves that count.
/// - **Signed in**, the chain also decided who the cookies stand for. That holds while
///   `Stores.sessionStamp` — read before the chain began — is unchanged (no session, token,
///   player or setting written here, nothing written to `sync.sqlite` by another process),
///   the session has not expired (`X-Hyzer-Viewer-Until`) and at most `sessionTrust` has passed.
/// - **Not while restoring** or refilling: those answers are the chain's.
final class KeptPageLane: Sendable {
    /// What the one pass over a plain request's headers found that the answer depends on.
    struct Plain {
        var acceptEncoding: String?
        var conditional = false
        /// The Cookie header when it carries a session: part of what the answer is kept for.
        var sessionCookies: String?
    }

    struct Route: Sendable {
        let key: PageCache.Key
        /// Counted as the router's metrics middleware counts the route.
        let metrics: RequestMetrics.Endpoint
        /// What the chain added to the page cache's own headers; nil until the first answer.
        var extra: HTTPFields?
        /// Signed in: the sessions as they were when the chain decided, and until when.
        var session: (stamp: Stores.SessionStamp, until: Date)?
        /// The whole header block of the kept render last served, plain and gzipped: built
        /// once per render rather than field by field for every request.
        var prepared: [Bool: (entry: PageCache.Entry, headers: HTTPFields)] = [:]
    }

    static let capacity = 1024
    /// How long a signed-in answer is replayed before the chain decides again: as long as a
    /// kept session is trusted against writes the stamps cannot see.
    static let sessionTrust: TimeInterval = 60
    private let routes = Mutex<[String: Route]>([:])
    /// Whether signed-in viewers take the lane: not in a cluster, whose sessions live in the
    /// shared database and end by notification.
    let signedIn: Bool
    /// Requests answered here.
    let answered = Atomic<Int>(0)

    init(signedIn: Bool) {
        self.signedIn = signedIn
    }

    /// An answer written by the pipeline: the head, and the body (empty for a 304).
    struct Answer {
        var head: HTTPResponse
        var body: ByteBuffer
    }

    /// The request, if every middleware treats it alike each time it comes.
    func plain(_ request: HTTPRequest) -> Plain? {
        guard request.method == .get else { return nil }
        var plain = Plain()
        for field in request.headerFields {
            switch field.name {
            // `Expect: 100-continue` is the task's to answer, before the body comes.
            case .authorization, .range, .ifRange, .expect, ReadYourWritesMiddleware.header: return nil
            // Hummingbird closes after a request that asks it to: the whole way does that.
            case .connection where !HeaderBytes.with(field.value, { HeaderBytes.equals(HeaderBytes.trimmed($0[...]), caseInsensitive: "keep-alive") }):
                return nil
            case .cookie:
                guard plain.sessionCookies == nil else { return nil }
                switch RequestCookie.kinds(in: field.value) {
                case .formTokenOnly: continue
                case .withSession where signedIn: plain.sessionCookies = field.value
                default: return nil
                }
            case .acceptEncoding: plain.acceptEncoding = plain.acceptEncoding.map { $0 + ", " + field.value } ?? field.value
            case .ifNoneMatch, .ifModifiedSince: plain.conditional = true
            default: continue
            }
        }
        return plain
    }

    private static func routeKey(_ request: HTTPRequest, _ plain: Plain) -> String? {
        guard let target = request.path else { return nil }
        return plain.sessionCookies.map { target + "\u{0}" + $0 } ?? target
    }

    /// What the page cache kept for one request that goes the whole way: the render's key
    /// and route, handed to `noteHeaders` with the chain's answer to that same request (never
    /// another's that raced it).
    final class Note: Sendable {
        fileprivate let kept = Mutex<(key: PageCache.Key, route: String?)?>(nil)
    }

    /// The note of the request being answered, set by `FrontResponder` around the chain.
    @TaskLocal static var current: Note?

    /// Called by the page cache as it answers a request the whole way with a kept render.
    func note(key: PageCache.Key, route: String?) {
        Self.current?.kept.withLock { $0 = (key, route) }
    }

    /// Called with the chain's answer to a plain request and its `note`: recorded (the key
    /// and the headers together) only for an answer that is the same each time. `stamp`: the
    /// sessions as they were before the chain read them.
    func noteHeaders(of response: Response, to request: HTTPRequest, _ plain: Plain, note: Note, stamp: Stores.SessionStamp?) {
        guard response.status == .ok, response.headers[PageCache.cacheHeader] != nil, !response.headers.contains(.setCookie),
            let viewer = response.headers[ViewerTag.header], let target = Self.routeKey(request, plain),
            let (key, route) = note.kept.withLock({ $0 })
        else { return }
        var session: (stamp: Stores.SessionStamp, until: Date)?
        if plain.sessionCookies != nil {
            guard viewer != ViewerTag.anonymous, let stamp, let until = response.headers[ViewerTag.untilHeader].flatMap(TimeInterval.init)
            else { return }
            session = (stamp, min(Date(timeIntervalSince1970: until), Date(timeIntervalSinceNow: Self.sessionTrust)))
        } else if viewer != ViewerTag.anonymous || key.audience.identity != nil {
            return
        }
        var extra = response.headers
        for name in PageCache.ownHeaders { extra[name] = nil }
        let metrics = RequestMetrics.shared.endpoint(route: route ?? "Unknown", method: .get, status: .ok)
        routes.withLock { routes in
            if routes[target]?.key != key {
                if routes.count >= Self.capacity { routes.removeAll(keepingCapacity: true) }
                routes[target] = Route(key: key, metrics: metrics)
            }
            routes[target]?.session = session
            if routes[target]?.extra != extra {
                routes[target]?.extra = extra
                routes[target]?.prepared = [:]
            }
        }
    }

    /// Whether answers to this request are recorded (the lane may take it while its render stands).
    func holds(_ request: HTTPRequest, _ plain: Plain) -> Bool {
        guard let target = Self.routeKey(request, plain) else { return false }
        return routes.withLock { $0[target]?.extra != nil }
    }

    /// The page, if this plain request was answered the whole way before and everything that
    /// answer was decided from still stands. `date`: the `Date` header's text now.
    func answer(_ request: HTTPRequest, _ plain: Plain, pages: PageCache, stores: Stores, date: String) -> Answer? {
        let start = DispatchTime.now().uptimeNanoseconds
        guard let target = Self.routeKey(request, plain), let route = routes.withLock({ $0[target] }), let extra = route.extra,
            stores.restoringSince == nil, !stores.isRefilling, let entry = pages.kept(route.key, at: stores.domain.changeCount)
        else { return nil }
        let signedIn = plain.sessionCookies != nil
        if signedIn {
            guard let session = route.session, Date() < session.until, stores.sessionStamp == session.stamp else { return nil }
        }
        var answer: Answer
        if plain.conditional {
            let (head, body) = pages.answer(entry, to: request.headerFields, signedIn: signedIn, hit: true)
            answer = Answer(head: head, body: body ?? ByteBuffer())
            if let body { answer.head.headerFields[.contentLength] = String(body.readableBytes) }
            answer.head.headerFields.append(contentsOf: extra)
            answer.head.headerFields[.server] = Self.serverName
        } else {
            let gzip = GzipCoding.acceptsGzip(plain.acceptEncoding) ? pages.gzipped(entry) : nil
            let body = gzip ?? entry.body
            let headers: HTTPFields
            if let prepared = route.prepared[gzip != nil], prepared.entry === entry {
                headers = prepared.headers
            } else {
                var fields = PageCache.headers(of: entry, gzip: gzip != nil, signedIn: signedIn, hit: true)
                fields[.contentLength] = String(body.readableBytes)
                fields.append(contentsOf: extra)
                fields[.server] = Self.serverName
                headers = fields
                routes.withLock { $0[target]?.prepared[gzip != nil] = (entry, fields) }
            }
            answer = Answer(head: HTTPResponse(status: entry.status, headerFields: headers), body: body)
        }
        answer.head.headerFields[.date] = date
        answered.add(1, ordering: .relaxed)
        route.metrics.answered(since: start)
        return answer
    }

    /// The `Server` header of every answer (Hummingbird's configuration adds it on the whole way).
    static let serverName = "Hyzer"
}
