import NIOCore
import NIOHTTP1

/// Answers HTTP/1.0 requests as HTTP/1.0. Hummingbird answers every request as HTTP/1.1,
/// so an HTTP/1.0 client (an old monitor, `ab`, a proxy speaking 1.0 upstream) got a live
/// stream in chunks, which HTTP/1.0 does not have, and a connection left open after the
/// response it expected to end. Here, between the HTTP/1 codec and the HTTP types, such a
/// response says HTTP/1.0, a body without a length ends when the connection closes, and
/// the connection closes after the response unless the request asked to keep it.
final class HTTP10Framing: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private struct Asked {
        var oldVersion: Bool
        var keepAlive: Bool
    }

    /// The requests not answered yet, in order: a client may send the next before the answer.
    private var unanswered: [Asked] = []
    private var closeAfterResponse = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(let head) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        if head.version == .http1_1 && unanswered.isEmpty {
            // A client keeps to one version on a connection: one that speaks HTTP/1.1 needs
            // nothing of this, and an open stream (thousands of them) is then spared a
            // handler in its pipeline and a hop on each of its writes.
            context.fireChannelRead(data)
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            return
        }
        unanswered.append(Asked(oldVersion: head.version == .http1_0, keepAlive: head.isKeepAlive))
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head):
            guard let asked = unanswered.first, asked.oldVersion, head.status.code >= 200 else { break }
            head.version = .http1_0
            closeAfterResponse = !asked.keepAlive || !head.headers.contains(name: "content-length")
            head.headers.replaceOrAdd(name: "connection", value: closeAfterResponse ? "close" : "keep-alive")
            context.write(wrapOutboundOut(.head(head)), promise: promise)
            return
        case .body:
            break
        case .end:
            guard !unanswered.isEmpty else { break }
            let asked = unanswered.removeFirst()
            guard asked.oldVersion, closeAfterResponse else { break }
            closeAfterResponse = false
            let written = context.eventLoop.makePromise(of: Void.self)
            written.futureResult.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
            written.futureResult.cascade(to: promise)
            context.writeAndFlush(data, promise: written)
            return
        }
        context.write(data, promise: promise)
    }
}
