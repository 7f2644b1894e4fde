import ArgumentParser
import AsyncHTTPClient
import Foundation
import Glibc
import NIOCore
import NIOPosix
import Synchronization

/// Benchmarks against real `hyzer serve` processes (separate processes, so RSS is theirs).
/// `hyzer-bench --help` lists them; `make bench` runs `report`.
@main
struct HyzerBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hyzer-bench",
        abstract: "Hyzer's benchmarks, against real `hyzer serve` processes.",
        subcommands: [Report.self, SSE.self, Sync.self, Pull.self, Backup.self, Standings.self, Ratings.self, Idle.self, Hello.self]
    )

    struct ServerOption: ParsableArguments {
        @Option(help: "The hyzer binary to start (a release build: swift build -c release --product hyzer).")
        var server = ".build/release/hyzer"

        func validate() throws {
            guard FileManager.default.isExecutableFile(atPath: server) else {
                throw ValidationError("No hyzer binary at \(server): build one with `swift build -c release --product hyzer`, or pass --server PATH.")
            }
        }
    }

    static func counts(_ text: String) throws -> [Int] {
        let values = text.split(separator: ",").compactMap { Int($0) }
        guard !values.isEmpty, values.count == text.split(separator: ",").count, values.allSatisfy({ $0 > 0 }) else {
            throw ValidationError("Give whole numbers separated by commas, e.g. 1000,5000.")
        }
        return values
    }

    struct Report: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Every benchmark, one table with each figure's goal (what `make bench` runs).")
        @OptionGroup var server: ServerOption
        @Option(help: "PostgreSQL URL for the propagation and pull steps (default: HYZER_TEST_PG_URL).") var cloud =
            ProcessInfo.processInfo.environment["HYZER_TEST_PG_URL"] ?? ""
        @Option(help: "SSE subscribers on one round.") var subscribers = 10_000
        @Option(help: "Events in the initial pull.") var events = 1_000_000
        @Option(help: "Seconds per load step.") var seconds = 5.0
        @Option(help: "Where to write the figures as JSON.") var output = "bench-results.json"
        @Option(help: "Only these steps, comma-separated: writes, pages, subscribers, propagation, cluster, pull, standings, start.") var only = ""

        func run() async throws {
            HyzerBench.raiseFileLimit()
            try await ReportBench.run(
                ReportBench.Options(
                    server: server.server, pgURL: cloud, subscribers: subscribers, pullEvents: events, seconds: seconds,
                    output: output, only: Set(only.split(separator: ",").map(String.init))))
        }
    }

    struct SSE: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sse", abstract: "N SSE subscribers on one round: POST → frame latency, server RSS.")
        @OptionGroup var server: ServerOption
        @Option(help: "Subscriber counts, comma-separated.") var subscribers = "1000,5000"
        @Option(help: "Scores to post.") var scores = 20

        func run() async throws {
            HyzerBench.raiseFileLimit()
            for count in try HyzerBenchCommand.counts(subscribers) {
                print(try await HyzerBench.run(subscribers: count, scores: scores, server: server.server).report)
            }
        }
    }

    struct Sync: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Two devices on one cloud: score on A, time until B's stream shows it.")
        @OptionGroup var server: ServerOption
        @Option(help: "The cloud both devices use (a postgres:// URL; default: HYZER_TEST_PG_URL).") var cloud =
            ProcessInfo.processInfo.environment["HYZER_TEST_PG_URL"] ?? ""
        @Option(help: "Scores to post.") var scores = 200

        func run() async throws {
            print(try await SyncBench.propagation(server: server.server, cloud: cloud, scores: scores))
        }
    }

    struct Pull: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "An empty device pulls N events: events per second.")
        @Option(help: "The cloud to pull from (default: HYZER_TEST_PG_URL).") var cloud =
            ProcessInfo.processInfo.environment["HYZER_TEST_PG_URL"] ?? ""
        @Option(help: "Events to pull.") var events = 100_000
        @Option(help: "Records per pull page (default: the engine's).") var page: Int?

        func run() async throws {
            print(try await SyncBench.initialPull(cloud: cloud, events: events, page: page))
        }
    }

    struct Backup: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Backup + verify and restore of an N-event store; score latency with backups running.")
        @OptionGroup var server: ServerOption
        @Option(help: "Events in the store.") var events = 100_000

        func run() async throws {
            for row in try await BackupBench.run(server: server.server, events: events) { print(row) }
        }
    }

    struct Standings: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The board pipeline after one new score: a 10,000-event round, a 150-player event.")

        func run() async throws {
            for row in try await StandingsBench.run() { print(row) }
        }
    }

    struct Ratings: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Rating a 150-player round; a layout's statistics and the club's ratings over N rounds; standings with them read alongside.")
        @Option(help: "Completed rounds on the layout.") var rounds = 10_000

        func run() async throws {
            for line in try await RatingsBench.run(rounds: rounds).lines { print(line) }
        }
    }

    struct Idle: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "N idle keep-alive connections: the server's memory per connection.")
        @OptionGroup var server: ServerOption
        @Option(help: "Connection counts, comma-separated.") var subscribers = "1000,5000"

        func run() async throws {
            HyzerBench.raiseFileLimit()
            for count in try HyzerBenchCommand.counts(subscribers) {
                print(try await HyzerBench.idle(connections: count, server: server.server))
            }
        }
    }

    struct Hello: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Serves the bare hello route the pages are measured against, until stopped (to count its cost beside Hyzer's).")
        @Option(help: "Port on 127.0.0.1.") var port = 8081

        func run() async throws {
            try await ReportBench.helloApplication(port: port).runService()
        }
    }
}

/// The benchmarks' shared pieces.
enum HyzerBench {
    struct Result {
        var subscribers: Int
        var latencies: [Double]
        var expected: Int
        var rssBefore: Int
        var rssAfter: Int
        var connectSeconds: Double

        func percentile(_ p: Double) -> Double {
            let sorted = latencies.sorted()
            return sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
        }

        var report: String {
            let sorted = latencies.sorted()
            let perSubscriber = Double(rssAfter - rssBefore) * 1024 / Double(subscribers)
            return String(
                format:
                    "subscribers=%d deliveries=%d/%d lost=%d p50=%.1fms p99=%.1fms max=%.1fms rss_before=%.1fMB rss_after=%.1fMB rss_per_subscriber=%.1fKB connect=%.1fs",
                subscribers, latencies.count, expected, expected - latencies.count, percentile(0.5), percentile(0.99), sorted.last ?? .nan,
                Double(rssBefore) / 1024, Double(rssAfter) / 1024, perSubscriber / 1024, connectSeconds
            )
        }
    }

    static func run(subscribers: Int, scores: Int, server path: String) async throws -> Result {
        let server = try await BenchServer.start(path, demo: true)
        defer { server.stop() }
        let port = server.port
        let http = HTTPClient.shared
        let base = server.base
        let roundID = try await firstRound(http, base)
        let players = try await roundPlayers(http, base, roundID)
        let startVersion = try await version(http, base, roundID)
        try await Task.sleep(for: .seconds(1))
        let rssBefore = server.rss

        // Two threads, as the server has two event loops: ten thousand screens read their
        // sockets side by side, not one after another in the load generator.
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        let recorder = Recorder(subscribers: subscribers)
        let connectStart = Date()
        var channels: [Channel] = []
        for index in 0..<subscribers {
            let channel = try await ClientBootstrap(group: group)
                .channelInitializer { channel in channel.pipeline.addHandler(SSEReceiver(index: index, recorder: recorder)) }
                .connect(host: "127.0.0.1", port: port).get()
            var request = channel.allocator.buffer(capacity: 128)
            request.writeString("GET /rounds/\(roundID)/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
            channel.writeAndFlush(request, promise: nil)
            channels.append(channel)
        }
        try await recorder.waitAll(version: startVersion, timeout: 60)
        let connectSeconds = Date().timeIntervalSince(connectStart)
        try await Task.sleep(for: .seconds(2))
        let rssAfter = server.rss

        var latencies: [Double] = []
        var expected = 0
        for score in 0..<scores {
            let player = players[score % players.count]
            let hole = 10 + score / players.count
            let sentAt = NIODeadline.now().uptimeNanoseconds
            var request = HTTPClientRequest(url: "\(base)/api/v1/rounds/\(roundID)/scores")
            request.method = .POST
            request.headers.add(name: "content-type", value: "application/json")
            request.headers.add(name: "authorization", value: "Bearer \(server.token)")
            request.body = .bytes(ByteBuffer(string: #"{"playerID":"\#(player)","hole":\#(hole),"strokes":3}"#))
            let response = try await http.execute(request, timeout: .seconds(10))
            guard response.status == .created else { throw BenchError("score \(score) answered \(response.status)") }
            let target = startVersion + score + 1
            expected += subscribers
            try? await recorder.waitAll(version: target, timeout: 10)
            latencies += recorder.arrivals(version: target).map { Double($0 - sentAt) / 1_000_000 }
            try await Task.sleep(for: .milliseconds(100))
        }
        for channel in channels { channel.close(promise: nil) }
        try await group.shutdownGracefully()
        return Result(
            subscribers: subscribers, latencies: latencies, expected: expected, rssBefore: rssBefore, rssAfter: rssAfter,
            connectSeconds: connectSeconds)
    }

    static func idle(connections: Int, server path: String) async throws -> String {
        let server = try await BenchServer.start(path)
        defer { server.stop() }
        let port = server.port
        try await Task.sleep(for: .seconds(1))
        let before = server.rss
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        var channels: [Channel] = []
        for _ in 0..<connections {
            let channel = try await ClientBootstrap(group: group).connect(host: "127.0.0.1", port: port).get()
            var request = channel.allocator.buffer(capacity: 64)
            request.writeString("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            channel.writeAndFlush(request, promise: nil)
            channels.append(channel)
        }
        try await Task.sleep(for: .seconds(2))
        let after = server.rss
        for channel in channels { channel.close(promise: nil) }
        try await group.shutdownGracefully()
        return String(
            format: "idle connections=%d rss_before=%.1fMB rss_after=%.1fMB rss_per_connection=%.1fKB",
            connections, Double(before) / 1024, Double(after) / 1024, Double(after - before) / Double(connections))
    }

    // MARK: Helpers

    static func waitForHealth(_ http: HTTPClient, _ base: String) async throws {
        for _ in 0..<300 {
            if let response = try? await http.execute(HTTPClientRequest(url: "\(base)/healthz"), timeout: .seconds(1)), response.status == .ok {
                return
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw BenchError("server did not start")
    }

    static func json(_ http: HTTPClient, _ url: String) async throws -> [String: Any] {
        let response = try await http.execute(HTTPClientRequest(url: url), timeout: .seconds(10))
        let body = try await response.body.collect(upTo: 1 << 20)
        return (try JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: Any]) ?? [:]
    }

    static func firstRound(_ http: HTTPClient, _ base: String) async throws -> String {
        guard let id = ((try await json(http, "\(base)/api/v1/rounds"))["rounds"] as? [[String: Any]])?.first?["id"] as? String else {
            throw BenchError("no round")
        }
        return id
    }

    static func roundPlayers(_ http: HTTPClient, _ base: String, _ round: String) async throws -> [String] {
        ((try await json(http, "\(base)/api/v1/rounds/\(round)"))["players"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []
    }

    static func version(_ http: HTTPClient, _ base: String, _ round: String) async throws -> Int {
        (try await json(http, "\(base)/api/v1/rounds/\(round)/standings"))["version"] as? Int ?? 0
    }

    static func rss(_ pid: Int32) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
        return Int(line?.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// This process's peak RSS in KB (VmHWM), since the last `resetPeakRSS`.
    static func peakRSS() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
        return Int(line?.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    static func resetPeakRSS() {
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    }

    static func raiseFileLimit() {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        limit.rlim_cur = limit.rlim_max
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Arrival times (uptime ns) of each version at each subscriber.
final class Recorder: Sendable {
    private struct State {
        var arrivals: [Int: [UInt64]] = [:]
        var seen: [Set<Int>]
    }

    private let state: Mutex<State>
    let subscribers: Int

    init(subscribers: Int) {
        self.subscribers = subscribers
        state = Mutex(State(seen: Array(repeating: [], count: subscribers)))
    }

    func record(index: Int, version: Int, at time: UInt64) {
        state.withLock { state in
            guard state.seen[index].insert(version).inserted else { return }
            state.arrivals[version, default: []].append(time)
        }
    }

    func arrivals(version: Int) -> [UInt64] { state.withLock { $0.arrivals[version] ?? [] } }

    func waitAll(version: Int, timeout: Double) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while arrivals(version: version).count < subscribers {
            guard Date() < deadline else {
                throw BenchError("timed out waiting for version \(version): \(arrivals(version: version).count)/\(subscribers)")
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}

/// Finds `\nid: N\n` in the raw bytes and records when each version arrived. Jumps between
/// newlines with `memchr` rather than looking at every byte, so the load generator (one thread
/// reading thousands of streams) stays cheap next to the server it measures.
final class SSEReceiver: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer
    let index: Int
    let recorder: Recorder
    /// The end of the previous read that may hold the start of a match split across reads.
    private var carry: [UInt8] = []
    private static let pattern = Array("\nid: ".utf8)

    init(index: Int, recorder: Recorder) {
        self.index = index
        self.recorder = recorder
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let now = NIODeadline.now().uptimeNanoseconds
        let buffer = unwrapInboundIn(data)
        if carry.isEmpty {
            buffer.withUnsafeReadableBytes { scan($0, at: now) }
        } else {
            let joined = carry + buffer.readableBytesView
            joined.withUnsafeBytes { scan($0, at: now) }
        }
    }

    private func scan(_ bytes: UnsafeRawBufferPointer, at time: UInt64) {
        guard let base = bytes.baseAddress else { return }
        let count = bytes.count
        let tail = Self.pattern.count - 1
        var offset = 0
        carry = []
        while offset < count {
            guard let newline = memchr(base + offset, 10, count - offset) else { return }
            let start = base.distance(to: UnsafeRawPointer(newline))
            guard start + tail < count else {
                // Maybe the start of the pattern: keep it for the next read.
                carry = Array(UnsafeRawBufferPointer(rebasing: bytes[start..<count]))
                return
            }
            guard Self.pattern.indices.allSatisfy({ bytes[start + $0] == Self.pattern[$0] }) else {
                offset = start + 1
                continue
            }
            var cursor = start + Self.pattern.count
            var number = 0
            while cursor < count, bytes[cursor] >= 48, bytes[cursor] <= 57 {
                number = number * 10 + Int(bytes[cursor] - 48)
                cursor += 1
            }
            guard cursor < count else {
                carry = Array(UnsafeRawBufferPointer(rebasing: bytes[start..<count]))
                return
            }
            if bytes[cursor] == 10 { recorder.record(index: index, version: number, at: time) }
            offset = cursor
        }
    }
}
