import AsyncHTTPClient
import Foundation
import Glibc
import Hummingbird
import NIOCore
import NIOPosix

/// One row of `make bench`'s report.
struct BenchRow: Codable, Sendable {
    var figure: String
    var measured: String
    var goal: String
    /// nil when the row has no goal to meet.
    var met: Bool?
    /// The raw numbers behind `measured`, for comparing runs.
    var values: [String: Double]
}

/// `hyzer-bench report`: every figure of the performance issue, measured on release builds in
/// one run, printed as one table and written to `bench-results.json`.
enum ReportBench {
    struct Options {
        var server: String
        var pgURL: String
        var subscribers: Int
        var pullEvents: Int
        var seconds: Double
        var output: String
        /// Steps to run (all when empty): writes, pages, subscribers, propagation, cluster, pull, standings, start.
        var only: Set<String> = []
    }

    static func run(_ options: Options) async throws {
        var rows: [BenchRow] = []
        func add(_ new: [BenchRow]) {
            for row in new { FileHandle.standardError.write("  \(row.figure): \(row.measured)\n".data(using: .utf8) ?? Data()) }
            rows += new
        }
        func step(_ name: String, _ body: () async throws -> [BenchRow]) async {
            guard options.only.isEmpty || options.only.contains(String(name.split(separator: " ").last ?? "")) else { return }
            FileHandle.standardError.write("bench: \(name)…\n".data(using: .utf8) ?? Data())
            do { add(try await body()) } catch {
                add([BenchRow(figure: name, measured: "failed: \(error)", goal: "", met: false, values: [:])])
            }
        }
        await step("score writes") { try await scoreWrites(options) }
        await step("pages") { try await pages(options) }
        await step("live subscribers") { try await subscribers(options) }
        await step("propagation") { try await propagation(options) }
        await step("cluster") {
            guard !options.pgURL.isEmpty else {
                return [BenchRow(figure: "cluster of 3", measured: "skipped: no HYZER_TEST_PG_URL", goal: "", met: false, values: [:])]
            }
            return ClusterBench.rows(
                try await ClusterBench.measure(
                    server: options.server, cloud: options.pgURL, subscribersPerInstance: 300, scores: 100, seconds: options.seconds))
        }
        await step("initial pull") { try await pulls(options) }
        await step("standings") { try await standings() }
        await step("first start") { try await firstAnswer(options) }

        print(table(rows))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let document = Document(date: ISO8601DateFormatter().string(from: Date()), machine: machine(), rows: rows)
        try encoder.encode(document).write(to: URL(fileURLWithPath: options.output))
        print("written: \(options.output)")
    }

    struct Document: Codable {
        var date: String
        var machine: String
        var rows: [BenchRow]
    }

    static func machine() -> String {
        let cpu =
            (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("model name") }?.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "?"
        return "\(ProcessInfo.processInfo.activeProcessorCount) cores, \(cpu), \(ProcessInfo.processInfo.physicalMemory >> 30) GiB"
    }

    static func table(_ rows: [BenchRow]) -> String {
        let header = ["figure", "measured", "goal", "met"]
        let cells = rows.map { [$0.figure, $0.measured, $0.goal, $0.met.map { $0 ? "yes" : "NO" } ?? "–"] }
        let widths = header.indices.map { column in ([header] + cells).map { $0[column].count }.max() ?? 0 }
        func line(_ row: [String]) -> String {
            "| " + row.enumerated().map { $1.padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(separator: " | ") + " |"
        }
        return ([line(header), "|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|"] + cells.map(line)).joined(
            separator: "\n")
    }

    /// The load generator's one thread, next to the server's two event loops.
    static let loadGroup = MultiThreadedEventLoopGroup(numberOfThreads: 1)

    static func ms(_ value: Double) -> String { String(format: value < 10 ? "%.2f ms" : "%.0f ms", value) }

    // MARK: Score writes

    static func scoreWrites(_ options: Options) async throws -> [BenchRow] {
        let server = try await BenchServer.start(options.server)
        defer { server.stop() }
        let http = HTTPClient.shared
        let (roundID, players) = try await server.makeRound(http, players: 65, holes: 36, name: "Writes")
        let script = ScoreScript(roundID: roundID, players: players, authorization: server.authorization)
        let group = loadGroup

        // One client: player 64, one score at a time.
        var cpu = server.cpuSeconds
        let one = try await HTTPLoad.run(port: server.port, connections: 1, seconds: options.seconds, group: group) { _, sequence in
            script.request(player: 64, sequence: sequence)
        }
        let oneCPU = (server.cpuSeconds - cpu) / Double(one.requests) * 1e6
        // 64 scorers at once, one player each.
        cpu = server.cpuSeconds
        let many = try await HTTPLoad.run(port: server.port, connections: 64, seconds: options.seconds, group: group) { connection, sequence in
            script.request(player: connection, sequence: sequence)
        }
        let manyCPU = (server.cpuSeconds - cpu) / Double(many.requests) * 1e6
        let oneP50 = one.percentile(0.5)
        let manyP99 = many.percentile(0.99)
        return [
            BenchRow(
                figure: "score POST, one client, p50",
                measured:
                    "\(ms(oneP50)) (p99 \(ms(one.percentile(0.99))), \(Int(one.perSecond))/s, server CPU \(Int(oneCPU)) µs each, \(one.failures) failed)",
                goal: "≤ 1 ms", met: oneP50 <= 1 && one.failures == 0,
                values: [
                    "p50_ms": oneP50, "p99_ms": one.percentile(0.99), "per_second": one.perSecond, "server_cpu_us": oneCPU,
                    "failures": Double(one.failures),
                ]),
            BenchRow(
                figure: "64 concurrent scorers: throughput, p99",
                measured: "\(Int(many.perSecond))/s, p99 \(ms(manyP99)) (server CPU \(Int(manyCPU)) µs each, \(many.failures) failed)",
                goal: "≥ 6,000/s, p99 ≤ 20 ms", met: many.perSecond >= 6000 && manyP99 <= 20 && many.failures == 0,
                values: [
                    "per_second": many.perSecond, "p99_ms": manyP99, "p50_ms": many.percentile(0.5), "server_cpu_us": manyCPU,
                    "failures": Double(many.failures),
                ]),
        ]
    }

    // MARK: Pages

    static func pages(_ options: Options) async throws -> [BenchRow] {
        let group = loadGroup
        let server = try await BenchServer.start(options.server)
        defer { server.stop() }
        let (roundID, players) = try await server.makeRound(HTTPClient.shared, players: 50, holes: 18, name: "Pages")
        // Nine holes played by everyone: a full leaderboard and scorecard.
        let script = ScoreScript(roundID: roundID, players: players, authorization: server.authorization, holes: 18)
        _ = try await HTTPLoad.run(port: server.port, connections: 50, seconds: 60, group: group) { player, sequence in
            sequence < 9 ? script.request(player: player, sequence: sequence) : nil
        }
        // A returning browser sends the form-token cookie a page with a form gave it (one that
        // is not valid for this server: checked, and nothing issued); a spectator sends none;
        // a signed-in browser its session and form token.
        let browser = "Cookie: hyzer_csrf=\(String(repeating: "b", count: 43))"
        let signedIn = "Cookie: \(try await server.signIn())"
        let site = "http://127.0.0.1:\(server.port)"
        let leaderboard = "/rounds/\(roundID)/leaderboard"
        let hello = try await HelloProcess.start()
        defer { hello.stop() }
        // A client that sends no Accept-Encoding of its own and inflates nothing.
        let plainClient = HTTPClient(eventLoopGroupProvider: .singleton)
        defer { _ = plainClient.shutdown() }
        /// The answer's size as sent, from one GET that also warms the page: the first viewer
        /// renders it, and the load measures it kept (64 first requests at once would each
        /// render a page that is not kept yet).
        func bytes(_ url: String, _ headers: [String] = []) async throws -> Int {
            var request = HTTPClientRequest(url: url)
            for header in headers {
                let (name, value) = (header.prefix { $0 != ":" }, header.drop { $0 != ":" }.dropFirst())
                request.headers.add(name: String(name), value: value.trimmingCharacters(in: .whitespaces))
            }
            let response = try await plainClient.execute(request, timeout: .seconds(10))
            return try await response.body.collect(upTo: 1 << 24).readableBytes
        }
        func load(_ url: String, _ headers: [String] = []) async throws -> Wrk.Outcome {
            let size = try await bytes(url, headers)
            var outcome = try Wrk.run(url, headers: headers, seconds: options.seconds)
            outcome.bytes = size
            return outcome
        }
        // Each page figure against the bare route in the same minute: hello and page measured
        // in turn, three times, so a busy moment of the machine weighs on both.
        func beside(_ path: String, headers: [String] = []) async throws -> (page: Wrk.Outcome, ratio: Double) {
            var pages: [Wrk.Outcome] = []
            var bare: [Wrk.Outcome] = []
            for _ in 0..<3 {
                bare.append(try await load(hello.url + "/"))
                pages.append(try await load(site + path, headers))
            }
            let page = Wrk.Outcome.merged(pages)
            return (page, page.perSecond / Wrk.Outcome.merged(bare).perSecond)
        }
        let (firstVisits, spectatorRatio) = try await beside(leaderboard)
        let (returning, returningRatio) = try await beside(leaderboard, headers: [browser])
        let (member, signedInRatio) = try await beside(leaderboard, headers: [signedIn])
        let bare = try await load(hello.url + "/")
        let bareBytes = try await load(hello.url + "/bytes")
        let roundPage = try await load(site + "/rounds/\(roundID)", [browser])
        let gzipped = try await load(site + leaderboard, [browser, "Accept-Encoding: gzip"])
        let tv = try await load(site + "/tv", [browser])
        let home = try await load(site + "/", [browser])
        func perSecond(_ outcome: Wrk.Outcome) -> String {
            "\(Int(outcome.perSecond)) req/s (p99 \(ms(outcome.p99)), \(outcome.bytes) B each\(outcome.failures > 0 ? ", \(outcome.failures) failed" : ""))"
        }
        func ratioRow(_ figure: String, _ outcome: Wrk.Outcome, _ ratio: Double, goal: Double) -> BenchRow {
            BenchRow(
                figure: figure, measured: "\(perSecond(outcome)) ÷ hello = \(String(format: "%.3f", ratio))", goal: "≥ \(goal)",
                met: ratio >= goal && outcome.failures == 0,
                values: ["per_second": outcome.perSecond, "ratio": ratio, "bytes": Double(outcome.bytes)])
        }
        return [
            BenchRow(figure: "bare Hummingbird hello", measured: perSecond(bare), goal: "", met: nil, values: ["per_second": bare.perSecond]),
            BenchRow(
                figure: "bare route answering the page's \(HelloProcess.pageBytes.formatted()) bytes", measured: perSecond(bareBytes), goal: "",
                met: nil, values: ["per_second": bareBytes.perSecond]),
            ratioRow("leaderboard page, 50 players, spectator (no cookies) ÷ hello", firstVisits, spectatorRatio, goal: 0.8),
            ratioRow("leaderboard page, returning browser (form-token cookie) ÷ hello", returning, returningRatio, goal: 0.6),
            ratioRow("leaderboard page, signed in (session cookie) ÷ hello", member, signedInRatio, goal: 0.4),
            BenchRow(
                figure: "leaderboard page gzip, 50 players", measured: perSecond(gzipped), goal: "", met: nil,
                values: ["per_second": gzipped.perSecond, "bytes": Double(gzipped.bytes)]),
            BenchRow(
                figure: "round page (scorecard grid), 50 players", measured: perSecond(roundPage), goal: "≥ 5,000 req/s",
                met: roundPage.perSecond >= 5000 && roundPage.failures == 0, values: ["per_second": roundPage.perSecond]),
            BenchRow(
                figure: "TV page / home page", measured: "\(perSecond(tv)) / \(perSecond(home))", goal: "", met: nil,
                values: ["tv_per_second": tv.perSecond, "home_per_second": home.perSecond]),
        ]
    }

    /// The bare hello route (`hyzer-bench hello`), served by a process of its own, as Hyzer is.
    final class HelloProcess: Sendable {
        /// The leaderboard page's size, for the bare route that answers as many bytes.
        static let pageBytes = 19_941
        let url: String
        private let process: Process

        private init(url: String, process: Process) {
            self.url = url
            self.process = process
        }

        static func start() async throws -> HelloProcess {
            let port = try HyzerBench.freePort()
            let process = Process()
            // This very binary: the hello is built with the same toolchain and options.
            process.executableURL = URL(fileURLWithPath: "/proc/self/exe")
            process.arguments = ["hello", "--port", String(port)]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let hello = HelloProcess(url: "http://127.0.0.1:\(port)", process: process)
            for _ in 0..<250 {
                if (try? await HTTPClient.shared.execute(HTTPClientRequest(url: hello.url + "/"), timeout: .seconds(1)))?.status == .ok {
                    return hello
                }
                try await Task.sleep(for: .milliseconds(20))
            }
            hello.stop()
            throw BenchError("the hello process did not answer on \(hello.url)")
        }

        func stop() {
            guard process.isRunning else { return }
            process.terminate()
            process.waitUntilExit()
        }
    }

    /// Hummingbird's hello, with nothing added: the yardstick of the pages.
    static func helloApplication(port: Int) -> some ApplicationProtocol {
        let router = Router()
        router.get("/") { _, _ in "Hello" }
        // The same route answering with as many bytes as the leaderboard page: what the
        // page's size costs (the kernel's copies, the load generator's reading) apart from
        // what Hyzer does to serve it.
        let body = ByteBuffer(repeating: UInt8(ascii: "x"), count: HelloProcess.pageBytes)
        router.get("/bytes") { _, _ in Response(status: .ok, headers: [.contentType: "text/html"], body: .init(byteBuffer: body)) }
        return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)), logger: .init(label: "hello"))
    }

    // MARK: Live subscribers

    static func subscribers(_ options: Options) async throws -> [BenchRow] {
        // The issue's two sizes: a club night (1,000 screens and phones) and the bench's crowd.
        var rows: [BenchRow] = []
        for (count, goal) in [(1_000, 30.0), (options.subscribers, 100.0)] {
            let result = try await HyzerBench.run(subscribers: count, scores: 20, server: options.server)
            let p99 = result.percentile(0.99)
            let lost = result.expected - result.latencies.count
            rows.append(
                BenchRow(
                    figure: "\(result.subscribers) SSE subscribers: p99 POST → frame",
                    measured: "\(ms(p99)) (p50 \(ms(result.percentile(0.5))), lost \(lost))",
                    goal: "≤ \(Int(goal)) ms", met: p99 <= goal && lost == 0,
                    values: ["p99_ms": p99, "p50_ms": result.percentile(0.5), "lost": Double(lost)]))
            if count == options.subscribers {
                let perSubscriber = Double(result.rssAfter - result.rssBefore) / Double(result.subscribers)
                rows.append(
                    BenchRow(
                        figure: "RSS per idle subscriber", measured: String(format: "%.1f KB", perSubscriber), goal: "≤ 10 KB",
                        met: perSubscriber <= 10, values: ["kb": perSubscriber]))
            }
        }
        return rows
    }

    // MARK: Sync

    static func propagation(_ options: Options) async throws -> [BenchRow] {
        guard !options.pgURL.isEmpty else {
            return [
                BenchRow(
                    figure: "score on A → frame on B via PostgreSQL", measured: "skipped: no HYZER_TEST_PG_URL", goal: "≤ 5 / 15 ms", met: false,
                    values: [:])
            ]
        }
        let result = try await SyncBench.measurePropagation(server: options.server, cloud: options.pgURL, scores: 200)
        return [
            BenchRow(
                figure: "score on A → frame on B via PostgreSQL, p50 / p99", measured: "\(ms(result.p50)) / \(ms(result.p99)) (lost \(result.lost))",
                goal: "≤ 5 / 15 ms", met: result.p50 <= 5 && result.p99 <= 15 && result.lost == 0,
                values: ["p50_ms": result.p50, "p99_ms": result.p99, "lost": Double(result.lost)])
        ]
    }

    static func pulls(_ options: Options) async throws -> [BenchRow] {
        var rows: [BenchRow] = []
        for cloud in ["", options.pgURL] where cloud == "" || !options.pgURL.isEmpty {
            let result = try await SyncBench.measurePull(cloud: cloud, events: options.pullEvents)
            rows.append(
                BenchRow(
                    figure: "initial pull of \(options.pullEvents) events, \(result.kind)",
                    measured: String(
                        format: "%.0f k events/s (%.1f s, peak RSS +%.0f MB)", result.perSecond / 1000, result.seconds, result.peakGrowthMB),
                    goal: "≥ 100 k/s", met: result.perSecond >= 100_000,
                    values: ["per_second": result.perSecond, "seconds": result.seconds, "peak_rss_growth_mb": result.peakGrowthMB]))
        }
        return rows
    }

    // MARK: Standings and start

    static func standings() async throws -> [BenchRow] {
        let timing = try await StandingsBench.bigRoundTiming()
        let p50 = timing.p50
        return [
            BenchRow(
                figure: "standings after one new event, 10,000-event round", measured: "\(ms(p50)) p50 (p99 \(ms(timing.p99)))",
                goal: "≤ 2 ms", met: p50 <= 2, values: ["p50_ms": p50, "p99_ms": timing.p99])
        ]
    }

    /// Exec → first 200 from `/`, with the cloud a local listener that accepts and never
    /// answers: the server must not wait on it to serve.
    static func firstAnswer(_ options: Options) async throws -> [BenchRow] {
        let group = loadGroup
        let blackHole = try await ServerBootstrap(group: group).bind(host: "127.0.0.1", port: 0).get()
        defer { blackHole.close(promise: nil) }
        let cloudPort = blackHole.localAddress?.port ?? 0
        var times: [Double] = []
        for _ in 0..<5 {
            let port = try HyzerBench.freePort()
            let data = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-bench-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: data) }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: options.server)
            process.arguments = [
                "serve", "--port", String(port), "--data-dir", data.path, "--cloud", "postgres://hyzer:hyzer@127.0.0.1:\(cloudPort)/hyzer",
                "--log-level", "error", "--backup-interval", "off",
            ]
            let started = NIODeadline.now()
            try process.run()
            defer {
                process.terminate()
                process.waitUntilExit()
            }
            while true {
                if HyzerBench.answers200(port: port, path: "/") { break }
                guard NIODeadline.now() - started < .seconds(30) else { throw BenchError("no answer within 30 s") }
                try await Task.sleep(for: .milliseconds(2))
            }
            times.append(Double((NIODeadline.now() - started).nanoseconds) / 1e6)
        }
        let median = times.sorted()[times.count / 2]
        return [
            BenchRow(
                figure: "first HTTP 200 after exec, cloud black-holed", measured: String(format: "%.0f ms (median of 5)", median),
                goal: "≤ 250 ms", met: median <= 250, values: ["ms": median])
        ]
    }
}

extension HyzerBench {
    /// One blocking GET over a fresh socket: true when it answers 200.
    static func answers200(port: Int, path: String) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return false }
        let request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
        guard request.withCString({ send(fd, $0, strlen($0), 0) }) > 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 16)
        let read = recv(fd, &buffer, 12, Int32(MSG_WAITALL))
        return read == 12 && String(decoding: buffer[9..<12], as: UTF8.self) == "200"
    }
}
