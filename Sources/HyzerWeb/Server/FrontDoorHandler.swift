import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// The first handler after the HTTP codec, ahead of the live streams and the router: what
/// every request must pass wherever it is answered.
///
/// - A new connection must send a whole request head within `headTimeout`, so a client that
///   opens connections and sends nothing (or half a head) cannot hold them. Later requests
///   on a kept-alive connection fall under the server's idle timeout.
/// - A request body must keep coming: at least `minimumBodyBytes` in every `headTimeout`,
///   so a body trickled a byte at a time cannot hold a connection either.
/// - `Host` (every one given) must name this server (`AllowedHosts`).
/// - A path whose decoded form holds control characters (`%00`, `%0d%0a`) is refused before a
///   file lookup or a redirect could act on it.
///
/// A refused request gets a short plain-text 400 once the requests before it on the
/// connection are answered, and the connection closes.
final class FrontDoorHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// 100 bytes a second at the default timeout: any real client, a phone on one bar included.
    static let minimumBodyBytes = 1024

    private let hosts: AllowedHosts
    private let headTimeout: TimeAmount
    private let shares: StreamShares
    private let proxies: TrustedProxies
    /// The peer whose connection share this connection holds.
    private var heldConnection: String?
    private var headDeadline: Scheduled<Void>?
    private var sawHead = false
    /// Requests passed on whose responses have not ended.
    private var unanswered = 0
    /// A refusal waiting for the answers before it.
    private var refusal: String?
    private var refused = false
    private var bodyCheck: Scheduled<Void>?
    private var bodyBytes = 0

    init(hosts: AllowedHosts, headTimeout: TimeAmount, shares: StreamShares, proxies: TrustedProxies) {
        self.hosts = hosts
        self.headTimeout = headTimeout
        self.shares = shares
        self.proxies = proxies
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { admit(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        admit(context)
        context.fireChannelActive()
    }

    /// A peer over its share of connections is closed at once. A trusted proxy is many
    /// clients: its connections are not counted.
    private func admit(_ context: ChannelHandlerContext) {
        if heldConnection == nil, let peer = context.channel.remoteAddress?.ipAddress,
            let bytes = TrustedProxies.bytes(of: peer), !proxies.trusts(bytes)
        {
            let key = TrustedProxies.limitKey(peer)
            guard shares.takeConnection(for: key) else {
                context.close(promise: nil)
                return
            }
            heldConnection = key
        }
        startHeadDeadline(context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        giveBackConnection()
        context.fireChannelInactive()
    }

    private func giveBackConnection() {
        guard let peer = heldConnection else { return }
        heldConnection = nil
        shares.giveBackConnection(for: peer)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        giveBackConnection()
        headDeadline?.cancel()
        headDeadline = nil
        bodyCheck?.cancel()
        bodyCheck = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused, refusal == nil else { return }
        switch unwrapInboundIn(data) {
        case .head(let head):
            sawHead = true
            headDeadline?.cancel()
            headDeadline = nil
            if let reason = refusal(of: head) {
                refusal = reason
                if unanswered == 0 { refuse(context) }
                return
            }
            unanswered += 1
            watchBody(context)
        case .body(let buffer):
            bodyBytes += buffer.readableBytes
        case .end:
            bodyCheck?.cancel()
            bodyCheck = nil
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        context.write(data, promise: promise)
        guard case .end = unwrapOutboundIn(data), !refused else { return }
        unanswered = max(0, unanswered - 1)
        if unanswered == 0, refusal != nil { refuse(context) }
    }

    private static var hostField: HTTPField.Name { HTTPField.Name("Host")! }

    /// The host names of the last request on this connection that passed: a kept-alive
    /// client sends the same ones every time, and need not be parsed again.
    private var approvedNames: [String?] = []

    private func refusal(of head: HTTPRequest) -> String? {
        // The first Host is the authority; any other is still in the fields, and must pass too.
        let names = [head.authority] + head.headerFields[values: Self.hostField].map(Optional.some)
        if names != approvedNames {
            if !names.allSatisfy({ hosts.allows(authority: $0) }) {
                return "This server does not answer to that host name. Use its address, or add the name to --allowed-hosts.\n"
            }
            approvedNames = names
        }
        if let path = head.path, RequestTarget.hasControlCharacters(path) {
            return "The address holds control characters.\n"
        }
        return nil
    }

    private func startHeadDeadline(_ context: ChannelHandlerContext) {
        guard headDeadline == nil, !sawHead else { return }
        headDeadline = context.eventLoop.assumeIsolated().scheduleTask(in: headTimeout) { [self] in
            headDeadline = nil
            if !sawHead { context.close(promise: nil) }
        }
    }

    private func watchBody(_ context: ChannelHandlerContext) {
        bodyCheck?.cancel()
        bodyBytes = 0
        bodyCheck = context.eventLoop.assumeIsolated().scheduleTask(in: headTimeout) { [self] in
            bodyCheck = nil
            if bodyBytes < Self.minimumBodyBytes {
                context.close(promise: nil)
            } else {
                watchBody(context)
            }
        }
    }

    private func refuse(_ context: ChannelHandlerContext) {
        guard let message = refusal, !refused else { return }
        refused = true
        let body = ByteBuffer(string: message)
        let head = SecurityPolicy.plainAnswer(.badRequest, bytes: body.readableBytes)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
    }
}

enum RequestTarget {
    /// True when the path, once percent-decoded, holds a C0 control character or DEL.
    static func hasControlCharacters(_ target: String) -> Bool {
        HeaderBytes.with(target) { target in
            let path = HeaderBytes.path(of: target)
            var index = path.startIndex
            while index < path.endIndex {
                var value = path[index]
                if value == UInt8(ascii: "%"), index + 2 < path.endIndex, let decoded = PercentEncoding.byte(path[index + 1], path[index + 2]) {
                    value = decoded
                    index += 2
                }
                if value < 0x20 || value == 0x7F { return true }
                index += 1
            }
            return false
        }
    }

    /// Whether the path (the target before its query) ends with `suffix`, compared as bytes.
    static func path(_ target: String, endsWith suffix: StaticString) -> Bool {
        HeaderBytes.with(target) { target in
            let path = HeaderBytes.path(of: target)
            return path.count >= suffix.utf8CodeUnitCount && HeaderBytes.equals(path.suffix(suffix.utf8CodeUnitCount), suffix)
        }
    }
}
