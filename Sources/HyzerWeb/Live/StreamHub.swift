import Foundation
import NIOCore
import Synchronization

/// Every open event stream, by event loop and topic, and the newest frame of each topic.
///
/// Streams are served in the channel pipeline (`EventStreamHandler`), not by request tasks:
/// an open stream costs its connection and the credentials it is rechecked with, and a
/// change reaches every subscriber with one hop per event loop, where a task per stream
/// would cost a resume and a hop each. Sources (`LiveStandings`, `SyncStatusFeed`) render a change once and
/// `publish` the same bytes to everyone.
final class StreamHub: Sendable {
    enum Joined {
        /// The topic's newest frame, to send at once.
        case frame(StreamFrame)
        /// No frame yet: the source has been asked and will publish one (or reject the topic).
        case waiting
        /// The server is shutting down.
        case stopped
    }

    private struct Shared {
        var subscribers: [StreamTopic: Int] = [:]
        var latest: [StreamTopic: StreamFrame] = [:]
        var loops: [ObjectIdentifier: NIOLoopBound<LoopStreams>] = [:]
        var requests: [StreamTopic.Source: AsyncStream<StreamTopic>.Continuation] = [:]
        /// Topics asked of their source and not yet published or rejected: asked once.
        var requested: Set<StreamTopic> = []
        var stopped = false
        /// The most streams open at once since memory was last given back.
        var peak = 0
        var releaseScheduled = false

        /// All open streams.
        var total: Int { subscribers.values.reduce(0, +) }
    }

    private let shared = Mutex(Shared())
    private let skipped = Atomic<Int>(0)
    private let recheckCount = Atomic<Int>(0)

    /// How many rechecks have begun: a stream whose access was asked before one began asks
    /// again before it opens (see `EventStreamHandler.decided`).
    var rechecks: Int { recheckCount.load(ordering: .sequentiallyConsistent) }

    /// The topics of `source` whose first subscriber waits for a frame. The source renders
    /// each one and publishes it, or rejects it when there is nothing to show.
    func frameRequests(for source: StreamTopic.Source) -> AsyncStream<StreamTopic> {
        let (stream, continuation) = AsyncStream.makeStream(of: StreamTopic.self)
        shared.withLock { $0.requests[source] = continuation }
        return stream
    }

    // MARK: Called by streams, on their event loop

    func join(_ stream: EventStreamHandler, _ topic: StreamTopic, on loop: any EventLoop) -> Joined {
        let (streams, joined): (NIOLoopBound<LoopStreams>?, Joined) = shared.withLock { shared in
            if shared.stopped { return (nil, .stopped) }
            shared.subscribers[topic, default: 0] += 1
            shared.peak = max(shared.peak, shared.total)
            let key = ObjectIdentifier(loop)
            let streams = shared.loops[key] ?? NIOLoopBound(LoopStreams(), eventLoop: loop)
            shared.loops[key] = streams
            if let frame = shared.latest[topic] { return (streams, .frame(frame)) }
            if shared.requested.insert(topic).inserted { shared.requests[topic.source]?.yield(topic) }
            return (streams, .waiting)
        }
        streams?.value.add(stream, topic)
        return joined
    }

    func leave(_ stream: EventStreamHandler, _ topic: StreamTopic, on loop: any EventLoop) {
        let (streams, release) = shared.withLock { shared in
            let remaining = shared.subscribers[topic, default: 1] - 1
            shared.subscribers[topic] = remaining > 0 ? remaining : nil
            // A crowd left (a clubhouse of TVs and phones, or a flood of connections): what
            // their connections took goes back to the system, not kept by the allocator.
            let crowdLeft = shared.peak - shared.total >= Self.releaseAfter && shared.total * 2 <= shared.peak
            let release = !shared.releaseScheduled && (crowdLeft || (shared.total == 0 && shared.peak >= Self.releaseAfter))
            if release { shared.releaseScheduled = true }
            return (shared.loops[ObjectIdentifier(loop)], release)
        }
        streams?.value.remove(stream, topic)
        // Later, once the closing connections themselves are freed, and once for the crowd.
        if release {
            loop.scheduleTask(in: .milliseconds(500)) { [self] in
                shared.withLock { shared in
                    shared.releaseScheduled = false
                    shared.peak = shared.total
                }
                MemoryRelease.now()
            }
        }
    }

    /// How many streams must have left since the last release before memory is given back.
    static let releaseAfter = 128

    /// A frame a slow client never saw: a newer one replaced it while its socket was full.
    func countSkipped() {
        skipped.add(1, ordering: .relaxed)
    }

    // MARK: Called by sources

    /// Whether anyone follows `topic`. When nobody does, its last frame is forgotten: the
    /// source stops rendering it, so that frame would be stale for the next subscriber.
    func isFollowed(_ topic: StreamTopic) -> Bool {
        shared.withLock { shared in
            if shared.subscribers[topic] != nil { return true }
            shared.latest[topic] = nil
            return false
        }
    }

    /// The events whose bracket someone follows.
    var followedBrackets: [UUID] {
        shared.withLock { shared in
            shared.subscribers.keys.compactMap { topic in
                if case .bracket(let id) = topic { id } else { nil }
            }
        }
    }

    /// Whether any stream is open.
    var followsAny: Bool {
        shared.withLock { !$0.subscribers.isEmpty }
    }

    /// Whether `topic` still needs its first frame (a request may be answered already).
    func needsFrame(_ topic: StreamTopic) -> Bool {
        shared.withLock { $0.latest[topic] == nil && $0.subscribers[topic] != nil }
    }

    /// Sends `frame` to every subscriber of `topic`. A frame older than one already out
    /// (renders finishing out of order) is dropped.
    func publish(_ frame: StreamFrame, to topic: StreamTopic) {
        let loops: [NIOLoopBound<LoopStreams>] = shared.withLock { shared in
            shared.requested.remove(topic)
            if let current = shared.latest[topic], current.version > frame.version { return [] }
            shared.latest[topic] = frame
            return Array(shared.loops.values)
        }
        for streams in loops {
            streams.eventLoop.execute { streams.value.send(frame, topic) }
        }
    }

    /// Answers the waiting subscribers of a topic that does not exist (a round id nobody knows).
    func reject(_ topic: StreamTopic) {
        let loops = shared.withLock { shared in
            shared.requested.remove(topic)
            return Array(shared.loops.values)
        }
        for streams in loops {
            streams.eventLoop.execute { streams.value.reject(topic) }
        }
    }

    /// A keep-alive comment to every stream; closes those whose socket stayed full since the last one.
    func heartbeat(_ comment: StreamBytes) {
        for streams in allLoops() {
            streams.eventLoop.execute { streams.value.heartbeat(comment) }
        }
    }

    /// Ends every stream, and refuses new ones: the server is shutting down.
    func closeAll() {
        let loops = shared.withLock { shared in
            shared.stopped = true
            return Array(shared.loops.values)
        }
        for streams in loops {
            streams.eventLoop.execute { streams.value.closeAll() }
        }
    }

    /// Decides every open stream again, once per distinct set of credentials, and closes the
    /// ones now refused: public boards turned off, a role taken away, a token revoked, a
    /// session ended. Their clients reconnect and get the answer a page would (401 or 403).
    func recheck(_ access: StreamAccess) async {
        recheckCount.add(1, ordering: .sequentiallyConsistent)
        let loops = allLoops()
        var credentials = Set<StreamCredentials>()
        for streams in loops {
            if let found = try? await streams.eventLoop.submit({ streams.value.credentials() }).get() {
                credentials.formUnion(found)
            }
        }
        var refused = Set<StreamCredentials>()
        for key in credentials {
            // A stream whose viewer could not be read now stays open: only a refusal closes it.
            guard let decision = try? await access.decide(key), decision != .allowed else { continue }
            refused.insert(key)
        }
        guard !refused.isEmpty else { return }
        for streams in loops {
            streams.eventLoop.execute { [refused] in streams.value.close(refused) }
        }
    }

    struct Statistics: Sendable {
        var subscribers: Int
        var framesSkipped: Int
    }

    var statistics: Statistics {
        Statistics(
            subscribers: shared.withLock { $0.total },
            framesSkipped: skipped.load(ordering: .relaxed)
        )
    }

    private func allLoops() -> [NIOLoopBound<LoopStreams>] {
        shared.withLock { Array($0.loops.values) }
    }
}

/// The streams of one event loop, touched only on that loop.
final class LoopStreams {
    private var streams: [StreamTopic: [ObjectIdentifier: EventStreamHandler]] = [:]

    func add(_ stream: EventStreamHandler, _ topic: StreamTopic) {
        streams[topic, default: [:]][ObjectIdentifier(stream)] = stream
    }

    func remove(_ stream: EventStreamHandler, _ topic: StreamTopic) {
        streams[topic]?[ObjectIdentifier(stream)] = nil
        if streams[topic]?.isEmpty == true { streams[topic] = nil }
    }

    func send(_ frame: StreamFrame, _ topic: StreamTopic) {
        guard let subscribers = streams[topic] else { return }
        let local = frame.body.copied(gzip: subscribers.values.contains { $0.takesGzip })
        for stream in subscribers.values { stream.send(frame.version, local) }
    }

    func reject(_ topic: StreamTopic) {
        for stream in streams[topic]?.values ?? [:].values { stream.reject() }
    }

    func heartbeat(_ comment: StreamBytes) {
        let local = comment.copied(gzip: streams.values.contains { $0.values.contains { $0.takesGzip } })
        for subscribers in streams.values {
            for stream in subscribers.values { stream.heartbeat(local) }
        }
    }

    func closeAll() {
        for subscribers in streams.values {
            for stream in subscribers.values { stream.close() }
        }
    }

    func credentials() -> Set<StreamCredentials> {
        var found = Set<StreamCredentials>()
        for subscribers in streams.values {
            for stream in subscribers.values {
                if let credentials = stream.credentials { found.insert(credentials) }
            }
        }
        return found
    }

    func close(_ refused: Set<StreamCredentials>) {
        for subscribers in streams.values {
            for stream in subscribers.values where stream.credentials.map(refused.contains) == true {
                stream.close()
            }
        }
    }
}
