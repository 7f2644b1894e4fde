import HTTPTypes
import HummingbirdCore
import HyzerCore
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// Serves the live streams — `GET /rounds/{id}/events[?scorecard=1]`, `/tv/events`,
/// `/sync/events` — in the channel pipeline, between the HTTP codec and the router. Any
/// other request passes through to the router untouched.
///
/// A stream request is answered here: the handler joins the `StreamHub`, writes the response
/// head, a `retry:` hint and the topic's current state, then every newer state the hub hands
/// it. Every frame is a full state, so `Last-Event-ID` needs no replay and an unreadable one
/// changes nothing. A client whose socket is full gets nothing new until it drains, then only
/// the newest state; one that stays full across two heartbeats is closed (it reconnects and
/// gets the current state).
final class EventStreamHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// An event stream is never cached, and proxies must not buffer it.
    static let headers: HTTPFields = {
        var headers: HTTPFields = [
            .contentType: "text/event-stream", .cacheControl: "no-cache", HTTPField.Name("X-Accel-Buffering")!: "no",
            .vary: "Accept-Encoding",
        ]
        headers.append(contentsOf: SecurityPolicy.fields)
        return headers
    }()
    /// How long a browser waits before reconnecting after the stream drops.
    static let retryMilliseconds = 2000
    private static let retryHint = ByteBuffer(string: ServerSentEvent.retry(milliseconds: retryMilliseconds))
    /// What a gzip stream starts with: the header, then the retry hint as its first piece.
    private static let gzipStart: ByteBuffer? = {
        guard var start = GzipCoding.streamHeader, var hint = GzipCoding.streamPiece(retryHint) else { return nil }
        start.writeBuffer(&hint)
        return start
    }()
    /// Bytes (the kernel doubles it): several full frames, a second or more of a slow phone's link.
    static let socketSendBuffer: SocketOptionValue = 64 * 1024

    private enum State {
        /// Requests go to the router. A stream asked for while `unanswered` requests are
        /// still being answered waits for their ends, so responses never interleave.
        case routing(unanswered: Int, waiting: StreamRequest?)
        /// Asking the access rules; nothing is written until they answer.
        case authorizing(StreamTopic)
        /// Joined the hub; `started` once the response head is written.
        case streaming(StreamTopic, started: Bool)
        /// Rejected, refused or left: the connection is closing.
        case finished
    }

    private struct StreamRequest {
        var topic: StreamTopic
        var head: HTTPRequest
    }

    /// What a connection's first request made of it: Hummingbird's request task waits for this
    /// (`LiveHTTP1Channel`), and is not needed at all by a connection that is a stream.
    enum ConnectionUse: Sendable {
        /// Its first request went to the router, or something the router answers (a parse error,
        /// a half-close) came first.
        case routed
        /// Its first request was a live stream: the connection is this handler's alone.
        case stream
        /// It closed before either.
        case closed
    }

    private let hub: StreamHub
    private let access: StreamAccess
    private let shares: StreamShares
    private let proxies: TrustedProxies
    /// The client whose share this stream holds, until the connection ends.
    private var heldShare: String?
    private var context: ChannelHandlerContext?
    private var use: ConnectionUse?
    /// The async channel's one close, when it lets go of a connection that is a stream.
    private var handingOver = false
    private var usePromise: EventLoopPromise<ConnectionUse>?
    private var state = State.routing(unanswered: 0, waiting: nil)
    /// Who opened the stream: it is decided again when access changes (`StreamAccessWatch`).
    private(set) var credentials: StreamCredentials?
    /// The hub's recheck count when access was last asked.
    private var askedAt = 0
    private var lastVersion = -1
    /// Whether this stream is gzip (see `GzipCoding`): its client takes it.
    private(set) var takesGzip = false
    /// The newest frame, held while the socket is full; a newer one replaces it.
    private var pending: ByteBuffer?
    /// The HTTP/1.1 encoder's place in the pipeline, once the stream is open: a frame framed
    /// as a chunk already (`LoopBytes.chunk`, once per event loop) is written from there,
    /// past the HTTP handlers, straight to the socket. Ten thousand screens on one round cost
    /// one write each instead of a walk through four handlers that frame the same bytes again.
    /// Nil for an HTTP/1.0 client (its body is not chunked: `HTTP10Framing`).
    private var socketSide: ChannelHandlerContext?
    private var stalledAtLastBeat = false

    init(hub: StreamHub, access: StreamAccess, shares: StreamShares, proxies: TrustedProxies) {
        self.hub = hub
        self.access = access
        self.shares = shares
        self.proxies = proxies
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        leave()
        giveBackShare()
        decide(.closed)
        self.context = nil
        socketSide = nil
    }

    private func giveBackShare() {
        guard let client = heldShare else { return }
        heldShare = nil
        shares.giveBack(for: client)
    }

    /// Completes once the connection's first request shows what the connection is for.
    func connectionUse(on loop: any EventLoop) -> EventLoopFuture<ConnectionUse> {
        if let use { return loop.makeSucceededFuture(use) }
        let promise = usePromise ?? loop.makePromise(of: ConnectionUse.self)
        usePromise = promise
        return promise.futureResult
    }

    private func decide(_ use: ConnectionUse) {
        guard self.use == nil else { return }
        self.use = use
        usePromise?.succeed(use)
        usePromise = nil
    }

    /// Whether the connection belongs to a stream (asked for, open or being refused): from
    /// then on, only this handler reads from it, writes to it and closes it.
    private var isStream: Bool {
        switch state {
        case .authorizing, .streaming: true
        case .routing, .finished: false
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // Once a stream is asked for, the connection is the stream's: the rest of its
        // request, and anything a client sends after it, is not for the router.
        guard case .routing(let unanswered, .none) = state else { return }
        if case .head(let head) = unwrapInboundIn(data) {
            if head.method == .get, let target = head.path, let topic = StreamTopic(target: target) {
                let request = StreamRequest(topic: topic, head: head)
                if use == nil {
                    // Whoever waits for the first request (the async channel) lets go, and closes.
                    handingOver = usePromise != nil
                    decide(.stream)
                }
                if unanswered > 0 {
                    state = .routing(unanswered: unanswered, waiting: request)
                } else {
                    authorize(request, context)
                }
                return
            }
            state = .routing(unanswered: unanswered + 1, waiting: nil)
        }
        decide(.routed)
        context.fireChannelRead(data)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        // A stream's connection may have no request task (when the stream was its first
        // request), and then the async channel behind this handler no longer asks for reads:
        // without them a client's close would go unnoticed. Asking for every stream is harmless.
        if isStream { context.read() }
        context.fireChannelReadComplete()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A request the decoder could not parse is answered (400) by the router's side.
        decide(.routed)
        context.fireErrorCaught(error)
    }

    /// A stream's connection is closed by this handler alone. The async channel behind it is
    /// finished, and asks to close, as soon as the connection turns out to be a stream (see
    /// `LiveHTTP1Channel`): that must not end the stream.
    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        if isStream, mode == .output || (mode == .all && handingOver) {
            if mode == .all { handingOver = false }
            promise?.succeed()
            return
        }
        context.close(mode: mode, promise: promise)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        context.write(data, promise: promise)
        guard case .end = unwrapOutboundIn(data), case .routing(let unanswered, let waiting) = state else { return }
        let remaining = max(0, unanswered - 1)
        if remaining == 0, let waiting {
            authorize(waiting, context)
        } else {
            state = .routing(unanswered: remaining, waiting: waiting)
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable, let pending {
            self.pending = nil
            context.writeAndFlush(wrapOutboundOut(.body(pending)), promise: nil)
        }
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        leave()
        giveBackShare()
        decide(.closed)
        context.fireChannelInactive()
    }

    /// A graceful shutdown asks every connection to finish. A stream never finishes by
    /// itself, so it closes now (the browser reconnects to the next server); a connection
    /// the router answers is left to the server's own handler, which this one stands before.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // The client closed its side: a stream ends (the browser reconnects if it still wants
        // one); for any other connection the router's side decides.
        if event as? ChannelEvent == .inputClosed, isStream {
            leave()
            state = .finished
            context.close(promise: nil)
            return
        }
        decide(.routed)
        if event is ChannelShouldQuiesceEvent {
            switch state {
            case .authorizing, .streaming, .finished:
                leave()
                state = .finished
                context.close(promise: nil)
                return
            case .routing:
                break
            }
        }
        context.fireUserInboundEventTriggered(event)
    }

    /// Streams follow the same rule as their pages: the decision comes from `AccessRules`
    /// (an async read of the session and settings), then the stream opens or is refused.
    private func authorize(_ request: StreamRequest, _ context: ChannelHandlerContext) {
        state = .authorizing(request.topic)
        let client = TrustedProxies.limitKey(
            proxies.client(peer: context.channel.remoteAddress?.ipAddress ?? "unknown", fields: request.head.headerFields))
        switch shares.take(for: client) {
        case .clientFull(let limit):
            refuse(
                .tooManyRequests, "This address has \(limit) live streams open, the most one client may. Close some pages and try again.\n",
                extra: [.retryAfter: "30"])
            return
        case .serverFull:
            refuse(.serviceUnavailable, "The server has every live stream it takes open. Try again shortly.\n", extra: [.retryAfter: "30"])
            return
        case nil:
            heldShare = client
        }
        credentials = StreamCredentials(request.topic.audience, request.head)
        takesGzip = Self.gzipStart != nil && GzipCoding.acceptsGzip(request.head.headerFields[.acceptEncoding])
        // The server's idle timeout counts requests and responses the router sees; a stream is
        // answered here (refused, or kept open by its heartbeats), so that timer must not close
        // it — not even while the store is slow to say whether it may open.
        if let idle = try? context.pipeline.syncOperations.handler(type: HTTPConnectionStateHandler.self) {
            context.pipeline.syncOperations.removeHandler(idle, promise: nil)
        }
        ask()
    }

    private func ask() {
        if let fixed = access.fixed {
            decided(fixed)
            return
        }
        guard let credentials, let context else { return }
        let access = self.access
        askedAt = hub.rechecks
        let decision = context.eventLoop.makePromise(of: AccessDecision.self)
        decision.completeWithTask { try await access.decide(credentials) }
        decision.futureResult.assumeIsolated().whenComplete { [self] result in
            switch result {
            case .success(let answer): decided(answer)
            case .failure: unavailable()
            }
        }
    }

    /// Who is asking could not be read: neither open nor refuse for good; the browser retries.
    private func unavailable() {
        guard case .authorizing = state else { return }
        refuse(.serviceUnavailable, "Hyzer could not check who you are just now: try again in a moment.\n", extra: [.retryAfter: "2"])
    }

    private func decided(_ decision: AccessDecision) {
        guard case .authorizing(let topic) = state, let context else { return }
        switch decision {
        case .allowed:
            // A recheck of the open streams that began while this was asked did not see this
            // stream, and the answer may be from before the change it was for: ask again.
            guard access.fixed != nil || hub.rechecks == askedAt else {
                ask()
                return
            }
            open(topic, context)
        case .signInRequired:
            refuse(.unauthorized, "Sign in to follow this stream.\n")
        case .forbidden(let role):
            refuse(.forbidden, "This stream needs the \(role.rawValue) role.\n")
        }
    }

    private func open(_ topic: StreamTopic, _ context: ChannelHandlerContext) {
        // Linux grows a socket's send buffer up to megabytes for a reader that does not read:
        // bounded, a stalled client holds little kernel memory and becomes unwritable soon,
        // so it is skipped to the newest state instead of queueing stale ones.
        try? context.channel.syncOptions?.setOption(.socketOption(.so_sndbuf), value: Self.socketSendBuffer)
        state = .streaming(topic, started: false)
        if (try? context.pipeline.syncOperations.handler(type: HTTP10Framing.self)) == nil {
            socketSide = try? context.pipeline.syncOperations.context(handlerType: HTTPResponseEncoder.self)
        }
        context.read()
        switch hub.join(self, topic, on: context.eventLoop) {
        case .frame(let frame):
            send(frame.version, LoopBytes(plain: frame.body.plain, gzip: takesGzip ? frame.body.gzipPiece : nil))
        case .waiting:
            break
        case .stopped:
            state = .finished
            context.close(promise: nil)
        }
    }

    private func leave() {
        guard case .streaming(let topic, _) = state, let context else { return }
        state = .finished
        hub.leave(self, topic, on: context.eventLoop)
    }

    // MARK: Called by the hub, on this channel's event loop

    func send(_ version: Int, _ frame: LoopBytes) {
        guard case .streaming(let topic, let started) = state, let context, version > lastVersion else { return }
        if !started {
            // zlib failing before anything was sent: this stream goes plain instead.
            let gzipStart = takesGzip && frame.gzip != nil ? Self.gzipStart : nil
            takesGzip = gzipStart != nil
            var headers = Self.headers
            if gzipStart != nil { headers[.contentEncoding] = "gzip" }
            state = .streaming(topic, started: true)
            context.write(wrapOutboundOut(.head(HTTPResponse(status: .ok, headerFields: headers))), promise: nil)
            context.write(wrapOutboundOut(.body(gzipStart ?? Self.retryHint)), promise: nil)
        }
        guard let bytes = takesGzip ? frame.gzip : frame.plain else {
            // zlib failing later: a gzip stream cannot take plain bytes. The client reconnects.
            context.close(promise: nil)
            return
        }
        lastVersion = version
        if context.channel.isWritable {
            pending = nil
            // Written at once in this order: what went through the handlers before is ahead
            // of the chunk in the socket's queue.
            if let socketSide, let chunk = takesGzip ? frame.gzipChunk : frame.plainChunk {
                socketSide.writeAndFlush(NIOAny(chunk), promise: nil)
            } else {
                context.writeAndFlush(wrapOutboundOut(.body(bytes)), promise: nil)
            }
        } else {
            if pending != nil { hub.countSkipped() }
            pending = bytes
        }
    }

    /// The topic does not exist: a plain 404, and the connection closes.
    func reject() {
        guard case .streaming(_, started: false) = state else { return }
        leave()
        refuse(.notFound, "No such round.\n")
    }

    /// Answers the stream request with a short plain-text error and closes the connection.
    private func refuse(_ status: HTTPResponse.Status, _ message: String, extra: HTTPFields = [:]) {
        guard let context else { return }
        state = .finished
        let body = ByteBuffer(string: message)
        let head = SecurityPolicy.plainAnswer(status, bytes: body.readableBytes, extra: extra)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
    }

    func heartbeat(_ comment: LoopBytes) {
        guard case .streaming(_, started: true) = state, let context else { return }
        guard context.channel.isWritable else {
            if stalledAtLastBeat { context.close(promise: nil) }
            stalledAtLastBeat = true
            return
        }
        stalledAtLastBeat = false
        guard pending == nil, let bytes = takesGzip ? comment.gzip : comment.plain else { return }
        context.writeAndFlush(wrapOutboundOut(.body(bytes)), promise: nil)
    }

    func close() {
        context?.close(promise: nil)
    }
}
