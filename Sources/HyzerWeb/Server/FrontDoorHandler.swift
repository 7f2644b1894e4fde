import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// The first handler after the HTTP codec, ahead of the live streams and the router: what
/// every request must pass wherever it is answered.
///
/// - A new connection must send a whole request head within `headTimeout`, so a client that
///   opens connections and sends nothing (or half a head) cannot hold them. Later requests
///   on a kept-alive connection fall under the server's idle timeout.
/// - `Host` must name this server (`AllowedHosts`).
/// - A path whose decoded form holds control characters (`%00`, `%0d%0a`) is refused before a
///   file lookup or a redirect could act on it.
///
/// A refused request gets a short plain-text 400 and the connection closes.
final class FrontDoorHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundOut = HTTPResponsePart

    private let hosts: AllowedHosts
    private let headTimeout: TimeAmount
    private var deadline: Scheduled<Void>?
    private var sawHead = false
    private var refused = false

    init(hosts: AllowedHosts, headTimeout: TimeAmount) {
        self.hosts = hosts
        self.headTimeout = headTimeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { startDeadline(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        startDeadline(context)
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        if case .head(let head) = unwrapInboundIn(data) {
            sawHead = true
            deadline?.cancel()
            deadline = nil
            if let reason = Self.refusal(of: head, hosts: hosts) {
                refuse(reason, context)
                return
            }
        }
        context.fireChannelRead(data)
    }

    static func refusal(of head: HTTPRequest, hosts: AllowedHosts) -> String? {
        if !hosts.allows(authority: head.authority) {
            return "This server does not answer to that host name. Use its address, or add the name to --allowed-hosts.\n"
        }
        if let path = head.path, RequestTarget.hasControlCharacters(path) {
            return "The address holds control characters.\n"
        }
        return nil
    }

    private func startDeadline(_ context: ChannelHandlerContext) {
        guard deadline == nil, !sawHead else { return }
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: headTimeout) { [self] in
            deadline = nil
            if !sawHead { context.close(promise: nil) }
        }
    }

    private func refuse(_ message: String, _ context: ChannelHandlerContext) {
        refused = true
        let body = ByteBuffer(string: message)
        let head = HTTPResponse(status: .badRequest, headerFields: [
            .contentType: "text/plain; charset=utf-8", .contentLength: String(body.readableBytes), .connection: "close",
        ])
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
        let path = target.split(separator: "?", maxSplits: 1).first ?? ""
        var bytes = path.utf8.makeIterator()
        while let byte = bytes.next() {
            var value = byte
            if byte == UInt8(ascii: "%"), let high = bytes.next(), let low = bytes.next(),
               let decoded = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16) {
                value = decoded
            }
            if value < 0x20 || value == 0x7F { return true }
        }
        return false
    }
}
