import Foundation
import Glibc
import NIOCore
import NIOPosix
import Synchronization

/// A closed-loop HTTP/1.1 load generator on raw NIO channels: each keep-alive connection sends
/// its next request the moment the previous answer is whole. Cheap enough per request (one
/// thread, no parsing beyond the status line and framing) that a bare hello route, served by
/// the same machine, measures the server and not this.
enum HTTPLoad {
    struct Outcome: Sendable {
        var requests = 0
        var failures = 0
        var seconds = 0.0
        /// Milliseconds from writing a request to reading the end of its answer.
        var latencies: [Double] = []
        var statuses: [Int: Int] = [:]
        var bodyBytes = 0

        var perSecond: Double { Double(requests) / seconds }
        func percentile(_ p: Double) -> Double {
            let sorted = latencies.sorted()
            return sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
        }

        mutating func merge(_ other: Outcome) {
            requests += other.requests
            failures += other.failures
            latencies += other.latencies
            bodyBytes += other.bodyBytes
            statuses.merge(other.statuses, uniquingKeysWith: +)
        }
    }

    /// The next request of connection `connection`, or nil when it has no more to send.
    typealias Requests = @Sendable (_ connection: Int, _ sequence: Int) -> String?

    /// Runs `connections` connections until `seconds` pass or each runs out of requests.
    /// `ok` says which statuses count as answered (others count as failures).
    static func run(
        port: Int, connections: Int, seconds: Double, group: EventLoopGroup,
        ok: @escaping @Sendable (Int) -> Bool = { (200..<300).contains($0) }, requests: @escaping Requests
    ) async throws -> Outcome {
        let deadline = NIODeadline.now() + .nanoseconds(Int64(seconds * 1e9))
        let started = NIODeadline.now()
        let outcome = try await withThrowingTaskGroup(of: Outcome.self) { tasks in
            for index in 0..<connections {
                tasks.addTask {
                    let done = group.next().makePromise(of: Outcome.self)
                    let driver = LoadDriver(connection: index, deadline: deadline, requests: requests, ok: ok, done: done)
                    let channel = try await ClientBootstrap(group: group)
                        .channelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
                        .channelInitializer { $0.pipeline.addHandler(driver) }
                        .connect(host: "127.0.0.1", port: port).get()
                    let outcome = try await done.futureResult.get()
                    try? await channel.close()
                    return outcome
                }
            }
            var total = Outcome()
            for try await one in tasks { total.merge(one) }
            return total
        }
        var result = outcome
        result.seconds = Double((NIODeadline.now() - started).nanoseconds) / 1e9
        return result
    }
}

/// One connection's request loop: write, read the whole answer (Content-Length or chunked),
/// record, repeat.
private final class LoadDriver: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let connection: Int
    private let deadline: NIODeadline
    private let requests: HTTPLoad.Requests
    private let ok: @Sendable (Int) -> Bool
    private let done: EventLoopPromise<HTTPLoad.Outcome>
    private var outcome = HTTPLoad.Outcome()
    private var sequence = 0
    private var sentAt: UInt64 = 0
    private var pending: ByteBuffer?
    private var finished = false

    init(
        connection: Int, deadline: NIODeadline, requests: @escaping HTTPLoad.Requests, ok: @escaping @Sendable (Int) -> Bool,
        done: EventLoopPromise<HTTPLoad.Outcome>
    ) {
        self.connection = connection
        self.deadline = deadline
        self.requests = requests
        self.ok = ok
        self.done = done
    }

    func channelActive(context: ChannelHandlerContext) {
        sendNext(context: context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if !finished {
            if pending != nil || sentAt != 0 { outcome.failures += 1 }
            finish()
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        outcome.failures += 1
        finish()
        context.close(promise: nil)
    }

    private func finish() {
        guard !finished else { return }
        finished = true
        done.succeed(outcome)
    }

    private func sendNext(context: ChannelHandlerContext) {
        guard NIODeadline.now() < deadline, let request = requests(connection, sequence) else {
            finish()
            context.close(promise: nil)
            return
        }
        sequence += 1
        sentAt = NIODeadline.now().uptimeNanoseconds
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: request)), promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var incoming = unwrapInboundIn(data)
        if pending == nil { pending = incoming } else { pending!.writeBuffer(&incoming) }
        guard let buffer = pending, let answer = buffer.withUnsafeReadableBytes(Self.answer) else { return }
        let now = NIODeadline.now().uptimeNanoseconds
        outcome.latencies.append(Double(now - sentAt) / 1e6)
        outcome.statuses[answer.status, default: 0] += 1
        outcome.bodyBytes += answer.body
        if ok(answer.status) { outcome.requests += 1 } else { outcome.failures += 1 }
        var rest = buffer
        rest.moveReaderIndex(forwardBy: answer.total)
        pending = rest.readableBytes > 0 ? rest : nil
        sentAt = 0
        sendNext(context: context)
    }

    struct Answer {
        var status: Int
        /// Bytes of the whole answer, head included, and of its body alone.
        var total: Int
        var body: Int
    }

    /// The first whole answer in `bytes`, or nil while it is partial.
    private static func answer(_ bytes: UnsafeRawBufferPointer) -> Answer? {
        guard let headEnd = find(bytes, "\r\n\r\n", from: 0) else { return nil }
        let head = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[0..<headEnd]), as: UTF8.self).lowercased()
        let lines = head.split(separator: "\r\n")
        guard let statusLine = lines.first, let status = Int(statusLine.split(separator: " ").dropFirst().first ?? "") else { return nil }
        let bodyStart = headEnd + 4
        if let line = lines.first(where: { $0.hasPrefix("content-length:") }),
            let length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
        {
            return bodyStart + length <= bytes.count ? Answer(status: status, total: bodyStart + length, body: length) : nil
        }
        if lines.contains(where: { $0.hasPrefix("transfer-encoding:") && $0.contains("chunked") }) {
            var cursor = bodyStart
            var body = 0
            while true {
                guard let lineEnd = find(bytes, "\r\n", from: cursor) else { return nil }
                let sizeText = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[cursor..<lineEnd]), as: UTF8.self)
                guard let size = Int(sizeText.split(separator: ";").first ?? "", radix: 16) else { return nil }
                cursor = lineEnd + 2
                if size == 0 {
                    guard let end = find(bytes, "\r\n", from: cursor) else { return nil }
                    return Answer(status: status, total: end + 2, body: body)
                }
                guard cursor + size + 2 <= bytes.count else { return nil }
                cursor += size + 2
                body += size
            }
        }
        return Answer(status: status, total: bodyStart, body: 0)
    }

    private static func find(_ bytes: UnsafeRawBufferPointer, _ pattern: StaticString, from start: Int) -> Int? {
        let needle = UnsafeRawBufferPointer(start: pattern.utf8Start, count: pattern.utf8CodeUnitCount)
        guard let base = bytes.baseAddress, needle.count > 0 else { return nil }
        var offset = start
        while offset + needle.count <= bytes.count {
            guard let hit = memchr(base + offset, Int32(needle[0]), bytes.count - offset - needle.count + 1) else { return nil }
            let index = base.distance(to: UnsafeRawPointer(hit))
            if memcmp(base + index, needle.baseAddress!, needle.count) == 0 { return index }
            offset = index + 1
        }
        return nil
    }
}
