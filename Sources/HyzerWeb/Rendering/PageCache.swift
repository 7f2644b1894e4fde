import Foundation
import HTTPTypes
import Hummingbird
import HyzerCore
import HyzerStore
import NIOCore
import Synchronization

/// Rendered page bytes, kept until what they show changes: the leaderboard, round, TV and home
/// pages (and a round's score history in JSON) are rendered once per change and then served as
/// they are, gzipped once when asked.
///
/// - **When a render is stale.** Each entry holds the store's change count read *before* the
///   data it shows (`DomainStore.changeCount`, bumped at every commit that changes the user's
///   data, before the write returns): an entry is served only while the count is unchanged.
/// - **Whose render it is.** The key is the page with its parameters (`CachedPage`) plus its audience: who is
///   signed in (id, role, name: what the page and its menu show them) and, for them, their form
///   token, which their page carries. Anonymous pages have no forms and carry no form token, so
///   every anonymous viewer shares one render; nothing of a signed-in view reaches anyone else.
/// - **Conditional requests.** The ETag is the round's version (when the page shows one round)
///   and a digest of the bytes: `If-None-Match` with it answers 304 without a body.
final class PageCache: Sendable {
    struct Audience: Hashable, Sendable {
        var identity: Identity?
        var formToken: String
    }

    struct Key: Hashable, Sendable {
        var page: CachedPage
        var audience: Audience
    }

    final class Entry: Sendable {
        let changeCount: UInt64
        let etag: String
        let body: ByteBuffer
        let status: HTTPResponse.Status
        let contentType: String
        /// Compressed on first request that accepts gzip, then kept.
        let gzipped = Mutex<ByteBuffer?>(nil)

        init(changeCount: UInt64, etag: String, body: ByteBuffer, status: HTTPResponse.Status, contentType: String) {
            self.changeCount = changeCount
            self.etag = etag
            self.body = body
            self.status = status
            self.contentType = contentType
        }
    }

    /// Pages × audiences kept, and their bytes; past either the least recently used half goes.
    static let capacity = 512
    static let byteCapacity = 64 << 20
    private let entries = Mutex<(map: [Key: (entry: Entry, used: UInt64)], clock: UInt64, bytes: Int)>(([:], 0, 0))
    /// Requests for kept pages answered ahead of the router.
    let lane: KeptPageLane

    init(lane: KeptPageLane) {
        self.lane = lane
    }

    /// What a miss renders: the page (or the JSON document), and the version of the round
    /// it shows (if one).
    struct Render: Sendable {
        enum Body: Sendable {
            case html(HTML)
            /// The same for every reader (`CachedPage.isShared`).
            case json(any Encodable & Sendable)
        }

        var body: Body
        var version: Int?

        init(html: HTML, version: Int?) {
            body = .html(html)
            self.version = version
        }

        init(json: any Encodable & Sendable, version: Int?) {
            body = .json(json)
            self.version = version
        }
    }

    /// Serves `page` (the controller's normalised name for what it renders) from its render
    /// when nothing changed since, else renders it with `render` (which reads the store and
    /// must use only what `page` names) and keeps it.
    func serve(
        _ request: Request, context: AppRequestContext, store: DomainStore, page: CachedPage,
        render: () async throws -> Render
    ) async throws -> Response {
        let audience = Audience(identity: context.identity, formToken: context.identity == nil ? "" : context.csrfToken)
        let key = Key(page: page, audience: page.isShared ? Audience(identity: nil, formToken: "") : audience)
        // A signed-in client that keeps no form-token cookie (an API client) would get a new
        // token, so a new key, each time: its renders are not kept, unless shared by everyone.
        let keepable = page.isShared || context.identity == nil || RequestCookie.value(CSRF.cookieName, in: request) != nil
        let count = store.changeCount
        let entry: Entry
        let hit: Bool
        if let cached = lookup(key), cached.changeCount == count {
            entry = cached
            hit = true
        } else {
            hit = false
            let made = try await render()
            let body: ByteBuffer
            let status: HTTPResponse.Status
            let contentType: String
            switch made.body {
            case .html(let html):
                let chrome = PageChrome(
                    csrf: audience.formToken, token: audience.identity == nil ? nil : context.formToken, identity: audience.identity,
                    clubName: context.clubName)
                (body, status, contentType) = (ByteBuffer(string: html.render(chrome)), html.status, "text/html; charset=utf-8")
            case .json(let document):
                (body, status, contentType) = (
                    ByteBuffer(bytes: try context.responseEncoder.encode(document)), .ok, "application/json; charset=utf-8"
                )
            }
            let etag = "\"" + (made.version.map { "r\($0)-" } ?? "") + Self.digest(body) + "\""
            entry = Entry(changeCount: count, etag: etag, body: body, status: status, contentType: contentType)
            if status == .ok, keepable { keep(entry, for: key) }
        }
        if entry.status == .ok, keepable { lane.note(key: key, route: context.endpointPath) }
        return respond(entry, to: request, signedIn: audience.identity != nil, hit: hit)
    }

    /// The render of `key`, if one is kept under `count`.
    func kept(_ key: Key, at count: UInt64) -> Entry? {
        guard let entry = lookup(key), entry.changeCount == count else { return nil }
        return entry
    }

    static let cacheHeader = HTTPField.Name("X-Cache")!
    static let publicPolicy = "public, max-age=0, s-maxage=1"
    /// The headers `respond` writes (and the length its body gives).
    static let ownHeaders: [HTTPField.Name] = [.contentType, .cacheControl, .eTag, .vary, cacheHeader, .contentEncoding, .contentLength]

    func respond(_ entry: Entry, to request: Request, signedIn: Bool, hit: Bool) -> Response {
        let (head, body) = answer(entry, to: request.headers, signedIn: signedIn, hit: hit)
        return Response(status: head.status, headers: head.headerFields, body: body.map { .init(byteBuffer: $0) } ?? .init())
    }

    /// The entry as an answer to a request with `fields`: gzipped when accepted, or 304 without
    /// a body when the request's `If-None-Match` names it.
    func answer(_ entry: Entry, to fields: HTTPFields, signedIn: Bool, hit: Bool) -> (head: HTTPResponse, body: ByteBuffer?) {
        let gzip = GzipCoding.acceptsGzip(fields[.acceptEncoding]) ? gzipped(entry) : nil
        let headers = Self.headers(of: entry, gzip: gzip != nil, signedIn: signedIn, hit: hit)
        if entry.status == .ok, let match = fields[.ifNoneMatch], let etag = headers[.eTag], Self.matches(match, etag) {
            return (HTTPResponse(status: .notModified, headerFields: headers), nil)
        }
        return (HTTPResponse(status: entry.status, headerFields: headers), gzip ?? entry.body)
    }

    static func headers(of entry: Entry, gzip: Bool, signedIn: Bool, hit: Bool) -> HTTPFields {
        var headers: HTTPFields = [
            .contentType: entry.contentType,
            // An anonymous page is the same for every reader: a browser asks about it each time
            // (a 304 when unchanged), and a shared cache in front of a cluster (nginx's
            // micro-cache) may answer a second of spectators with one render; the live stream
            // brings any newer state at once. A signed-in view (a name, forms, a form token) is
            // never stored, so it does not outlive a sign-out on a shared tablet.
            .cacheControl: signedIn ? "private, no-store" : Self.publicPolicy,
            // Each encoding is its own representation, with its own tag.
            .eTag: gzip ? String(entry.etag.dropLast()) + "-gz\"" : entry.etag,
            .vary: "Accept-Encoding, Cookie, Authorization",
            // Whether these bytes were rendered for this request or kept from an earlier one.
            Self.cacheHeader: hit ? "hit" : "miss",
        ]
        if gzip { headers[.contentEncoding] = "gzip" }
        return headers
    }

    /// The entry's bytes gzipped (once, then kept), or nil when compression fails.
    func gzipped(_ entry: Entry) -> ByteBuffer? {
        if let done = entry.gzipped.withLock({ $0 }) { return done }
        guard let compressed = GzipCoding.page(entry.body) else { return nil }
        entry.gzipped.withLock { $0 = compressed }
        return compressed
    }

    private func lookup(_ key: Key) -> Entry? {
        entries.withLock { state in
            guard var found = state.map[key] else { return nil }
            state.clock += 1
            found.used = state.clock
            state.map[key] = found
            return found.entry
        }
    }

    private func keep(_ entry: Entry, for key: Key) {
        entries.withLock { state in
            // Of two renders racing, the one made under the later count stays.
            if let kept = state.map[key], kept.entry.changeCount > entry.changeCount { return }
            state.clock += 1
            state.bytes += entry.body.readableBytes - (state.map[key]?.entry.body.readableBytes ?? 0)
            state.map[key] = (entry, state.clock)
            guard state.map.count > Self.capacity || state.bytes > Self.byteCapacity else { return }
            let cutoff = state.map.values.map(\.used).sorted()[state.map.count / 2]
            state.map = state.map.filter { $0.value.used >= cutoff }
            state.bytes = state.map.values.reduce(0) { $0 + $1.entry.body.readableBytes }
        }
    }

    // MARK: Headers

    /// `If-None-Match`: a list of ETags (weak ones compared weakly) or `*`.
    static func matches(_ header: String, _ etag: String) -> Bool {
        header.split(separator: ",").contains { candidate in
            let tag = candidate.trimmingCharacters(in: .whitespaces)
            return tag == "*" || tag == etag || tag == "W/" + etag
        }
    }

    /// FNV-1a 64 of the bytes, as hex: stable across restarts, cheap next to a render.
    static func digest(_ buffer: ByteBuffer) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        buffer.withUnsafeReadableBytes { bytes in
            for byte in bytes {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01b3
            }
        }
        return String(hash, radix: 16)
    }
}
