import HTTPTypes
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
import Testing

@testable import HyzerWeb

/// The stream handler on an in-memory channel, fed HTTP parts as the codec would: the cases
/// a real socket cannot produce on demand (renders finishing out of order, a full socket at
/// an exact moment, a request arriving during shutdown).
@Suite struct EventStreamHandlerTests {
    func connect(_ hub: StreamHub, path: String = "/tv/events") throws -> EmbeddedChannel {
        let channel = EmbeddedChannel(
            handler: EventStreamHandler(hub: hub, access: .open, shares: StreamShares(connectionLimit: 1 << 20, perClient: 0), proxies: .none))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 8080)).wait()
        try channel.writeInbound(HTTPRequestPart.head(HTTPRequest(method: .get, scheme: "http", authority: "hyzer", path: path)))
        try channel.writeInbound(HTTPRequestPart.end(nil))
        return channel
    }

    func frame(_ version: Int) -> StreamFrame {
        StreamFrame(version: version, bytes: ByteBuffer(string: "event: tv\nid: \(version)\ndata: v\(version)\n\n"))
    }

    /// The body parts written since the last call, as text.
    func written(_ channel: EmbeddedChannel) throws -> [String] {
        var bodies: [String] = []
        while let part = try channel.readOutbound(as: HTTPResponsePart.self) {
            if case .body(let bytes) = part { bodies.append(String(buffer: bytes)) }
        }
        return bodies
    }

    @Test func aStreamStartsWithItsFirstFrameAndNeverGoesBack() throws {
        let hub = StreamHub()
        let channel = try connect(hub)
        #expect(try channel.readOutbound(as: HTTPResponsePart.self) == nil, "nothing before the first frame")

        hub.publish(frame(2), to: .tv)
        channel.embeddedEventLoop.run()
        guard case .head(let head) = try channel.readOutbound(as: HTTPResponsePart.self) else {
            Issue.record("no response head")
            return
        }
        #expect(head.status == .ok)
        #expect(head.headerFields[.contentType] == "text/event-stream")
        #expect(try written(channel) == ["retry: 2000\n\n", "event: tv\nid: 2\ndata: v2\n\n"])

        // A render that finishes after a newer one changes nothing.
        hub.publish(frame(1), to: .tv)
        channel.embeddedEventLoop.run()
        #expect(try written(channel).isEmpty)
        hub.publish(frame(3), to: .tv)
        channel.embeddedEventLoop.run()
        #expect(try written(channel) == ["event: tv\nid: 3\ndata: v3\n\n"])
    }

    @Test func whileTheSocketIsFullOnlyTheNewestStateWaits() throws {
        let hub = StreamHub()
        let channel = try connect(hub)
        hub.publish(frame(1), to: .tv)
        channel.embeddedEventLoop.run()
        _ = try channel.readOutbound(as: HTTPResponsePart.self)
        _ = try written(channel)

        channel.isWritable = false
        for version in 2...4 { hub.publish(frame(version), to: .tv) }
        channel.embeddedEventLoop.run()
        #expect(try written(channel).isEmpty, "nothing queues behind a full socket")
        #expect(hub.statistics.framesSkipped == 2)

        channel.isWritable = true
        channel.pipeline.fireChannelWritabilityChanged()
        #expect(try written(channel) == ["event: tv\nid: 4\ndata: v4\n\n"], "it drains to the current state only")
    }

    @Test func otherRequestsGoOnToTheRouter() throws {
        let hub = StreamHub()
        let channel = try connect(hub, path: "/rounds/nope/events")
        guard case .head(let head) = try channel.readInbound(as: HTTPRequestPart.self) else {
            Issue.record("the request did not reach the router")
            return
        }
        #expect(head.path == "/rounds/nope/events")
        #expect(hub.statistics.subscribers == 0)
    }

    @Test func aStreamAskedForDuringShutdownIsClosed() throws {
        let hub = StreamHub()
        hub.closeAll()
        let channel = try connect(hub)
        #expect(!channel.isActive)
        #expect(hub.statistics.subscribers == 0)
    }

    @Test func leavingForgetsTheSubscriber() throws {
        let hub = StreamHub()
        let channel = try connect(hub)
        #expect(hub.statistics.subscribers == 1)
        _ = try channel.close().wait()
        #expect(hub.statistics.subscribers == 0)
    }
}
