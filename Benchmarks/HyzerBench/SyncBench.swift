import AsyncHTTPClient
import Foundation
import HyzerCore
import HyzerStore
import HyzerSync
import Logging
import NIOCore
import NIOPosix

/// Sync benchmarks: propagation between two server processes, and the initial pull.
enum SyncBench {
    /// Score on A → `event: standings` on B's stream, over `scores` scores posted one at a time.
    struct Propagation {
        var kind: String
        var scores: Int
        var latencies: [Double]
        var lost: Int
        var p50: Double { percentile(0.5) }
        var p99: Double { percentile(0.99) }
        func percentile(_ p: Double) -> Double {
            let sorted = latencies.sorted()
            return sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
        }
    }

    static func propagation(server path: String, cloud: String, scores: Int) async throws -> String {
        let result = try await measurePropagation(server: path, cloud: cloud, scores: scores)
        return String(
            format: "sync cloud=%@ scores=%d received=%d lost=%d p50=%.1fms p99=%.1fms max=%.1fms",
            result.kind, scores, result.latencies.count, result.lost, result.p50, result.p99, result.latencies.max() ?? .nan)
    }

    static func measurePropagation(server path: String, cloud: String, scores: Int) async throws -> Propagation {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-syncbench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let cloudArgument = cloud.isEmpty ? "sqlite:\(root.appendingPathComponent("cloud.sqlite").path)" : cloud
        let a = try await BenchServer.start(path, data: root.appendingPathComponent("a"), cloud: cloudArgument, demo: true)
        defer { a.stop() }
        let b = try await BenchServer.start(path, data: root.appendingPathComponent("b"), cloud: cloudArgument)
        defer { b.stop() }
        let portB = b.port
        let http = HTTPClient.shared
        let baseA = a.base
        let baseB = b.base
        let roundID = try await HyzerBench.firstRound(http, baseA)
        var players = try await HyzerBench.roundPlayers(http, baseA, roundID)
        // Wait until B has the round, then watch B's stream.
        let deadline = Date().addingTimeInterval(60)
        while (try? await HyzerBench.roundPlayers(http, baseB, roundID))?.count != players.count {
            guard Date() < deadline else { throw BenchError("B never received the demo round") }
            try await Task.sleep(for: .milliseconds(50))
        }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let recorder = Recorder(subscribers: 1)
        let channel = try await ClientBootstrap(group: group)
            .channelInitializer { $0.pipeline.addHandler(SSEReceiver(index: 0, recorder: recorder)) }
            .connect(host: "127.0.0.1", port: portB).get()
        var request = channel.allocator.buffer(capacity: 128)
        request.writeString("GET /rounds/\(roundID)/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
        try await channel.writeAndFlush(request)
        var version = try await HyzerBench.version(http, baseB, roundID)
        try await recorder.waitAll(version: version, timeout: 10)

        players = Array(players.prefix(6))
        var latencies: [Double] = []
        var lost = 0
        var series = CorrectingScores(players: players)
        for index in 0..<scores {
            let (key, body) = series.score(index)
            var post = HTTPClientRequest(url: "\(baseA)/api/v1/rounds/\(roundID)/scores")
            post.method = .POST
            post.headers.add(name: "content-type", value: "application/json")
            post.headers.add(name: "authorization", value: "Bearer \(a.token)")
            post.body = .bytes(ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: body)))
            let sentAt = NIODeadline.now().uptimeNanoseconds
            let response = try await http.execute(post, timeout: .seconds(10))
            let payload = try await response.body.collect(upTo: 1 << 20)
            guard response.status == .created,
                let json = try JSONSerialization.jsonObject(with: Data(payload.readableBytesView)) as? [String: Any],
                let event = json["event"] as? [String: Any], let id = event["id"] as? String
            else { throw BenchError("score \(index) was refused: \(response.status)") }
            series.stored(key, id: id)
            version += 1
            do {
                try await recorder.waitAll(version: version, timeout: 5)
                latencies += recorder.arrivals(version: version).map { Double($0 - sentAt) / 1_000_000 }
            } catch {
                lost += 1
                version = try await HyzerBench.version(http, baseB, roundID)
            }
        }
        try await channel.close()
        try await group.shutdownGracefully()
        return Propagation(kind: cloud.isEmpty ? "embedded" : "postgres", scores: scores, latencies: latencies, lost: lost)
    }

    /// An empty device pulls `events` score events (with their rounds, course and players).
    struct Pull {
        var kind: String
        var events: Int
        var seconds: Double
        /// Growth of this process's peak RSS while pulling.
        var peakGrowthMB: Double
        var perSecond: Double { Double(events) / seconds }
    }

    static func initialPull(cloud address: String, events: Int, page: Int? = nil) async throws -> String {
        let result = try await measurePull(cloud: address, events: events, page: page)
        return String(
            format: "pull cloud=%@ events=%d seconds=%.2f events_per_second=%.0f peak_rss_growth=%.0fMB", result.kind, events, result.seconds,
            result.perSecond, result.peakGrowthMB)
    }

    static func measurePull(cloud address: String, events: Int, page: Int? = nil) async throws -> Pull {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-pullbench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        var logger = Logger(label: "bench")
        logger.logLevel = .warning
        let parsed = address.isEmpty ? CloudAddress.sqlite(path: root.appendingPathComponent("cloud.sqlite").path) : try CloudAddress.parse(address)
        let zone = "bench-\(UUID().uuidString.prefix(8))"
        switch parsed {
        case .sqlite(let path):
            return try await pull(EmbeddedCloud(path: path), kind: "embedded", zone: zone, events: events, page: page, root: root, logger: logger)
        case .postgres(let postgres):
            let cloud = PostgresCloud(address: postgres, logger: logger)
            return try await withThrowingTaskGroup(of: String?.self) { group in
                group.addTask {
                    try await cloud.run()
                    return nil
                }
                let result = try await pull(cloud, kind: "postgres", zone: zone, events: events, page: page, root: root, logger: logger)
                group.cancelAll()
                return result
            }
        case .none:
            throw BenchError("no cloud")
        }
    }

    static func pull(_ cloud: any CloudDatabase, kind: String, zone: String, events: Int, page: Int?, root: URL, logger: Logger) async throws -> Pull
    {
        guard await cloud.resolveAccount() == .available else { throw BenchError("cloud unavailable") }
        // Seed the cloud: one course, 200 players, rounds of 200 players × 18 holes.
        var club = BenchClub()
        let (device, course, players) = (club.device, club.course, club.players)
        func stamp() -> HLC { club.stamp() }
        var seed: [CloudRecord] = [try record(.course, course.id, course.updatedAt, CoursePayload(course))]
        seed += try players.map { try record(.player, $0.id, $0.updatedAt, PlayerPayload($0)) }
        _ = try await cloud.save(seed, zone: zone)
        var made = 0
        var batch: [CloudRecord] = []
        while made < events {
            let round = Round(
                id: UUID(), name: "Round \(made)", courseID: course.id, playerIDs: players.map(\.id), status: .active, startedAt: Date(),
                createdAt: Date(), updatedAt: stamp())
            batch.append(try record(.round, round.id, round.updatedAt, RoundPayload(round)))
            for hole in 1...18 {
                for player in players where made < events {
                    let event = ScoreEvent(
                        id: UUID(), roundID: round.id, playerID: player.id, hole: hole, strokes: .count(3), deviceID: device, recordedAt: stamp())
                    batch.append(try record(.scoreEvent, event.id, event.recordedAt, ScoreEventPayload(event)))
                    made += 1
                    if batch.count >= 2000 {
                        _ = try await cloud.save(batch, zone: zone)
                        batch = []
                    }
                }
            }
        }
        if !batch.isEmpty { _ = try await cloud.save(batch, zone: zone) }

        FileHandle.standardError.write("seeded \(events) events; pulling\n".data(using: .utf8) ?? Data())
        let stores = try await Stores(directory: root.appendingPathComponent("device"))
        var configuration = SyncEngine.Configuration()
        configuration.zone = zone
        if let page { configuration.pullPage = page }
        let engine = SyncEngine(stores: stores, cloud: cloud, configuration: configuration, logger: logger)
        await engine.resolveAccount()
        HyzerBench.resetPeakRSS()
        let peakBefore = HyzerBench.peakRSS()
        let started = ContinuousClock.now
        let pulled = await engine.pullChanges()
        let elapsed = ContinuousClock.now - started
        guard pulled >= events else { throw BenchError("pulled \(pulled) records of \(events) events") }
        return Pull(kind: kind, events: events, seconds: elapsed.seconds, peakGrowthMB: Double(HyzerBench.peakRSS() - peakBefore) / 1024)
    }

    static func record<T: Encodable>(_ type: RecordType, _ id: UUID, _ hlc: HLC, _ payload: T) throws -> CloudRecord {
        CloudRecord(type: type, id: id.uuidString.lowercased(), hlc: hlc, payload: try RecordCoding.encode(payload))
    }
}

/// Scores for the propagation benches: more than the demo round has open holes, so the back
/// nine of each player is scored and then corrected again and again (each correction
/// supersedes the last score of its hole).
struct CorrectingScores {
    let players: [String]
    private var current: [String: String] = [:]

    init(players: [String]) {
        self.players = players
    }

    /// The `index`th score's hole key and JSON body.
    func score(_ index: Int) -> (key: String, body: [String: Any]) {
        let player = players[index % players.count]
        let hole = 10 + (index / players.count) % 9
        let key = "\(player)/\(hole)"
        var body: [String: Any] = ["playerID": player, "hole": hole, "strokes": 2 + index % 4]
        if let previous = current[key] { body["supersedes"] = previous }
        return (key, body)
    }

    mutating func stored(_ key: String, id: String) {
        current[key] = id
    }
}
