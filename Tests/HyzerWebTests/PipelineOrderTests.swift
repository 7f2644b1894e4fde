import Foundation
import HummingbirdCore
import HyzerStore
import Logging
import NIOCore
import NIOEmbedded
import NIOHTTPTypesHTTP1
import Testing

@testable import HyzerWeb

/// The live-stream path depends on where Hummingbird puts its handlers in a connection's
/// pipeline: the front door and the stream handler after the HTTP codec, HTTP/1.0 framing
/// before it, the idle-timeout handler there for the stream handler to take out, and the kept
/// pages' handler after it (so the idle timeout sees the pages it answers). A new
/// Hummingbird that builds the pipeline otherwise fails here, before any stream misbehaves.
@Suite struct PipelineOrderTests {
    @Test func theStreamPathSitsWhereItWasBuiltFor() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-pipeline-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let stores = try await Stores(directory: directory)
        let shares = StreamShares(connectionLimit: 1 << 20, perClient: 0)
        let http1 = HTTP1Channel(
            responder: { _, _, _ in },
            configuration: .init(
                additionalChannelHandlers: [
                    FrontDoorHandler(hosts: AllowedHosts(["127.0.0.1"]), headTimeout: .seconds(10), shares: shares, proxies: .none),
                    EventStreamHandler(hub: StreamHub(), access: .open, shares: shares, proxies: .none),
                ],
                idleTimeout: .seconds(60)
            ))
        let channel = EmbeddedChannel()
        let pages = PageCache(lane: KeptPageLane(signedIn: true))
        _ = try await LiveHTTP1Channel(http1: http1, tasks: ConnectionTasks(), pages: pages, stores: stores)
            .setup(channel: channel, logger: Logger(label: "test")).get()
        let description = channel.pipeline.debugDescription
        let wanted = [
            "ByteToMessageHandler<HTTPDecoder<HTTPPart<HTTPRequestHead", "HTTP10Framing", "HTTP1ToHTTPServerCodec", "FrontDoorHandler",
            "EventStreamHandler", "HTTPConnectionStateHandler", "KeptPageHandler", "NIOAsyncChannelHandler",
        ]
        let positions = wanted.map { name in description.range(of: name).map { description.distance(from: description.startIndex, to: $0.lowerBound) }
        }
        #expect(positions.allSatisfy { $0 != nil }, "every handler is in the pipeline:\n\(description)")
        let found = positions.compactMap { $0 }
        #expect(found == found.sorted(), "in this order: \(wanted)\n\(description)")
        _ = try? channel.finish()
    }
}
