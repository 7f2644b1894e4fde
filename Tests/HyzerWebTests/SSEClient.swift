import AsyncHTTPClient
import CompressNIO
import Foundation
import Hummingbird
import HummingbirdTesting
import HyzerWeb
import NIOCore
import Testing

/// One parsed server-sent event, or a comment (heartbeat), as a browser would see the stream.
struct SSEEvent: Sendable {
    var event: String?
    var id: String?
    var data: String = ""
    var comment: String?
    var retry: Int?
}

struct TimedOut: Error {}

func withTimeout<T: Sendable>(_ seconds: Double, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            throw TimedOut()
        }
        defer { group.cancelAll() }
        return try await group.next()!
    }
}

/// Reads an event stream over a real socket, one event at a time, inflating it when the
/// server sent it gzipped. Used by one test task only.
final class SSEStream: @unchecked Sendable {
    private var iterator: HTTPClientResponse.Body.AsyncIterator
    /// Bytes, not text: a character may be split between two reads.
    private var buffer: [UInt8] = []
    private let gunzip: Gunzip?
    let status: Int
    let contentType: String?
    let contentEncoding: String?
    /// Bytes as they came over the socket, and as text after inflating.
    private(set) var received = 0
    private(set) var decoded = 0

    init(_ response: HTTPClientResponse) throws {
        status = Int(response.status.code)
        contentType = response.headers.first(name: "content-type")
        contentEncoding = response.headers.first(name: "content-encoding")
        gunzip = contentEncoding == "gzip" ? try Gunzip() : nil
        iterator = response.body.makeAsyncIterator()
    }

    static func open(_ client: HTTPClient, port: Int, path: String, headers: [(String, String)] = []) async throws -> SSEStream {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.headers.add(name: "accept", value: "text/event-stream")
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        let response = try await client.execute(request, timeout: .seconds(60))
        return try SSEStream(response)
    }

    /// The next block of the stream: an event, a retry hint or a comment. Tests bound their
    /// total time with `withTimeout`, so a missing event fails instead of hanging.
    func next() async throws -> SSEEvent {
        while true {
            if let end = buffer.indices.dropLast().first(where: { buffer[$0] == 10 && buffer[$0 + 1] == 10 }) {
                let block = String(decoding: buffer[..<end], as: UTF8.self)
                buffer.removeSubrange(...(end + 1))
                return Self.parse(block)
            }
            guard let chunk = try await iterator.next() else { throw TimedOut() }
            received += chunk.readableBytes
            let bytes = try gunzip?.inflate(chunk) ?? Array(chunk.readableBytesView)
            decoded += bytes.count
            buffer += bytes
        }
    }

    /// The next real event, skipping retry hints and comments.
    func nextEvent() async throws -> SSEEvent {
        while true {
            let block = try await next()
            if block.event != nil { return block }
        }
    }

    static func parse(_ block: String) -> SSEEvent {
        var event = SSEEvent()
        var data: [String] = []
        for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix(":") {
                event.comment = String(line.dropFirst()).trimmingCharacters(in: .whitespaces)
                continue
            }
            let parts = line.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            let field = String(parts[0])
            var value = parts.count > 1 ? String(parts[1]) : ""
            if value.hasPrefix(" ") { value.removeFirst() }
            switch field {
            case "event": event.event = value
            case "id": event.id = value
            case "data": data.append(value)
            case "retry": event.retry = Int(value)
            default: break
            }
        }
        event.data = data.joined(separator: "\n")
        return event
    }
}

/// Inflates a gzip stream as its bytes arrive: everything a piece holds comes out of it
/// (a stream that is never finished, like a live one).
final class Gunzip {
    private let decompressor: ZlibDecompressor

    init() throws { decompressor = try ZlibDecompressor(algorithm: .gzip) }

    func inflate(_ bytes: ByteBuffer) throws -> [UInt8] {
        var input = bytes
        var text: [UInt8] = []
        while true {
            var output = ByteBufferAllocator().buffer(capacity: 1 << 16)
            do {
                try decompressor.inflate(from: &input, to: &output)
            } catch let error as CompressNIOError where error == .bufferOverflow || error == .inputBufferOverflow {
                // Output full (go on) or all input used (done, below).
            }
            text += output.readableBytesView
            if input.readableBytes == 0 && output.writableBytes > 0 { return text }
        }
    }
}

/// The real app on a real socket, with an HTTP client for streaming.
func withLiveApp(
    heartbeat: Duration = .seconds(15),
    configure: (inout AppConfiguration) -> Void = { _ in },
    _ test: @escaping @Sendable (_ port: Int, _ client: Client, _ http: HTTPClient) async throws -> Void
) async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-live-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    var config = testConfiguration(directory, heartbeat: heartbeat)
    configure(&config)
    let app = try await buildApplication(config)
    let users = try await TestUsers.create(in: directory)
    var configuration = HTTPClient.Configuration()
    configuration.connectionPool = .init(idleTimeout: .seconds(30), concurrentHTTP1ConnectionsPerHostSoftLimit: 64)
    let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    do {
        try await app.test(.live) { client in
            try await test(try #require(client.port), Client(raw: client, users: users), http)
        }
    } catch {
        try? await http.shutdown()
        throw error
    }
    try await http.shutdown()
}
