import HummingbirdCore
import HyzerStore
import Logging
import NIOCore
import NIOHTTPTypesHTTP1
import Synchronization

/// Hummingbird's HTTP/1 channel, except for connections whose first request is a live stream.
///
/// Hummingbird gives every connection a task that waits for its next request: several
/// kilobytes of async frames each. A stream is answered in the pipeline by
/// `EventStreamHandler`, and a connection opened for one (an `EventSource`, a TV) never
/// sends another request, so that task would only wait, for hours, on each of thousands of
/// screens. Here the task first waits for the connection's first request and ends at once
/// when it is a stream; every other connection is served by Hummingbird as before.
struct LiveHTTP1Channel: ServerChildChannel {
    struct Value: ServerChildChannelValue {
        let http: HTTP1Channel.Value
        let use: EventLoopFuture<EventStreamHandler.ConnectionUse>
        var channel: any Channel { http.channel }
    }

    let http1: HTTP1Channel
    let tasks: ConnectionTasks
    let pages: PageCache
    let stores: Stores

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        http1.setup(channel: channel, logger: logger).flatMapThrowing { http in
            let codec = try channel.pipeline.syncOperations.handler(type: HTTP1ToHTTPServerCodec.self)
            try channel.pipeline.syncOperations.addHandler(HTTP10Framing(), position: .before(codec))
            // Last, after the connection's state: kept pages are answered without the task.
            let state = try channel.pipeline.syncOperations.handler(type: HTTPConnectionStateHandler.self)
            try channel.pipeline.syncOperations.addHandler(KeptPageHandler(pages: pages, stores: stores), position: .after(state))
            let streams = try channel.pipeline.syncOperations.handler(type: EventStreamHandler.self)
            return Value(http: http, use: streams.connectionUse(on: channel.eventLoop))
        }
    }

    func handle(value: Value, logger: Logger) async {
        guard (try? await value.use.get()) == .routed else {
            // The async channel must still be finished; the connection stays open: the
            // stream handler declines the closes this asks for, and closes it itself.
            try? await value.http.executeThenClose { _, _ in throw HandedToStream() }
            return
        }
        tasks.started()
        defer { tasks.ended() }
        await http1.handle(value: value.http, logger: logger)
    }
}

private struct HandedToStream: Error {}

/// How many connections have a request task now (the `hyzer_http_connection_tasks` gauge).
final class ConnectionTasks: Sendable {
    private let running = Atomic<Int>(0)

    var count: Int { running.load(ordering: .relaxed) }
    func started() { running.add(1, ordering: .relaxed) }
    func ended() { running.subtract(1, ordering: .relaxed) }
}
