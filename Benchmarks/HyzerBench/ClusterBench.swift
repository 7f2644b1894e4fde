import AsyncHTTPClient
import Foundation
import Hummingbird
import NIOCore
import NIOPosix

/// Three instances of one cluster on one PostgreSQL, with live subscribers on each: how long a
/// score posted on one takes to reach the frames on the others; and spectators reading the
/// leaderboard through nginx's micro-cache (deploy/nginx/hyzer.conf), against a bare route.
enum ClusterBench {
    struct Figures {
        var latencies: [Double]
        var lost: Int
        var subscribers: Int
        /// As a browser asks (`Accept-Encoding: gzip`), and plain.
        var throughNginx: (gzip: Wrk.Outcome, plain: Wrk.Outcome)?
        var nginxSkipped: String?
        var hello: Wrk.Outcome
    }

    static func measure(server path: String, cloud: String, subscribersPerInstance: Int, scores: Int, seconds: Double) async throws -> Figures {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-clusterbench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let secret = "bench-cluster-\(UUID().uuidString)"
        // The CLI issues the bench's token into the cluster too.
        let environment = ["HYZER_CLUSTER_SECRET": secret, "HYZER_CLOUD": cloud]
        let flags = ["--cluster-secret", secret, "--trusted-proxies", "127.0.0.1"]
        let a = try await BenchServer.start(
            path, data: root.appendingPathComponent("a"), cloud: cloud, demo: true, extra: flags, environment: environment)
        defer { a.stop() }
        let others = [
            try await BenchServer.start(path, data: root.appendingPathComponent("b"), cloud: cloud, extra: flags, environment: environment),
            try await BenchServer.start(path, data: root.appendingPathComponent("c"), cloud: cloud, extra: flags, environment: environment),
        ]
        defer { others.forEach { $0.stop() } }
        let http = HTTPClient.shared
        let roundID = try await HyzerBench.firstRound(http, a.base)
        let players = Array(try await HyzerBench.roundPlayers(http, a.base, roundID).prefix(6))
        for other in others {
            let deadline = Date().addingTimeInterval(60)
            while (try? await HyzerBench.roundPlayers(http, other.base, roundID))?.count != players.count {
                guard Date() < deadline else { throw BenchError("an instance never received the demo round") }
                try await Task.sleep(for: .milliseconds(50))
            }
        }

        // Subscribers on every instance; the frames measured are those on the other two.
        let group = ReportBench.loadGroup
        var recorders: [Recorder] = []
        var channels: [Channel] = []
        for server in [a] + others {
            let recorder = Recorder(subscribers: subscribersPerInstance)
            recorders.append(recorder)
            for index in 0..<subscribersPerInstance {
                let channel = try await ClientBootstrap(group: group)
                    .channelInitializer { $0.pipeline.addHandler(SSEReceiver(index: index, recorder: recorder)) }
                    .connect(host: "127.0.0.1", port: server.port).get()
                var request = channel.allocator.buffer(capacity: 128)
                request.writeString("GET /rounds/\(roundID)/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
                try await channel.writeAndFlush(request)
                channels.append(channel)
            }
        }
        var versions: [Int] = []
        for (server, recorder) in zip([a] + others, recorders) {
            let version = try await HyzerBench.version(http, server.base, roundID)
            try await recorder.waitAll(version: version, timeout: 30)
            versions.append(version)
        }

        var latencies: [Double] = []
        var lost = 0
        var series = CorrectingScores(players: players)
        for index in 0..<scores {
            let (key, body) = series.score(index)
            let sentAt = NIODeadline.now().uptimeNanoseconds
            let answer = try await a.post(http, "/api/v1/rounds/\(roundID)/scores", body)
            guard let event = answer["event"] as? [String: Any], let id = event["id"] as? String else {
                throw BenchError("score \(index) not stored")
            }
            series.stored(key, id: id)
            for (position, server) in others.enumerated() {
                let slot = position + 1
                versions[slot] += 1
                do {
                    try await recorders[slot].waitAll(version: versions[slot], timeout: 5)
                    latencies += recorders[slot].arrivals(version: versions[slot]).map { Double($0 - sentAt) / 1_000_000 }
                } catch {
                    lost += 1
                    versions[slot] = try await HyzerBench.version(http, server.base, roundID)
                }
            }
        }
        for channel in channels { try? await channel.close() }

        // Spectators without cookies, through nginx's micro-cache, against the bare route.
        let helloProcess = try await ReportBench.HelloProcess.start()
        defer { helloProcess.stop() }
        let hello = try Wrk.run(helloProcess.url + "/", seconds: seconds)
        var throughNginx: (gzip: Wrk.Outcome, plain: Wrk.Outcome)?
        var skipped: String?
        if let nginx = Nginx.binary() {
            let proxy = try await Nginx.start(nginx, upstreams: ([a] + others).map(\.port), folder: root.appendingPathComponent("nginx"))
            defer { proxy.stop() }
            let page = "http://127.0.0.1:\(proxy.port)/rounds/\(roundID)/leaderboard"
            throughNginx = (try Wrk.run(page, headers: ["Accept-Encoding: gzip"], seconds: seconds), try Wrk.run(page, seconds: seconds))
        } else {
            skipped = "nginx is not installed (apt-get install nginx)"
        }
        return Figures(
            latencies: latencies, lost: lost, subscribers: subscribersPerInstance * 3, throughNginx: throughNginx, nginxSkipped: skipped,
            hello: hello)
    }

    static func rows(_ figures: Figures) -> [BenchRow] {
        let sorted = figures.latencies.sorted()
        func percentile(_ p: Double) -> Double { sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
        let (p50, p99) = (percentile(0.5), percentile(0.99))
        var rows = [
            BenchRow(
                figure: "cluster of 3 on PostgreSQL, \(figures.subscribers) subscribers: score on one → frame on the others",
                measured: String(format: "p50 %.1f ms, p99 %.1f ms (%d frames, %d lost)", p50, p99, figures.latencies.count, figures.lost),
                goal: "p50 ≤ 25 ms, p99 ≤ 100 ms", met: p50 <= 25 && p99 <= 100 && figures.lost == 0,
                values: ["p50_ms": p50, "p99_ms": p99, "lost": Double(figures.lost), "subscribers": Double(figures.subscribers)])
        ]
        if let (gzip, plain) = figures.throughNginx {
            let ratio = gzip.perSecond / figures.hello.perSecond
            rows.append(
                BenchRow(
                    figure: "spectators through nginx's micro-cache (leaderboard, no cookies, gzip as browsers ask) ÷ bare hello",
                    measured: String(
                        format: "%d req/s ÷ %d = %.2f (p99 %.1f ms, %d failed; plain: %d req/s = %.2f)", Int(gzip.perSecond),
                        Int(figures.hello.perSecond), ratio, gzip.p99, gzip.failures + plain.failures, Int(plain.perSecond),
                        plain.perSecond / figures.hello.perSecond),
                    goal: "≥ 0.8", met: ratio >= 0.8 && gzip.failures == 0,
                    values: [
                        "per_second": gzip.perSecond, "ratio": ratio, "plain_per_second": plain.perSecond,
                        "hello_per_second": figures.hello.perSecond,
                    ]))
        } else {
            rows.append(
                BenchRow(
                    figure: "spectators through nginx's micro-cache", measured: "skipped: \(figures.nginxSkipped ?? "")", goal: "≥ 0.8", met: false,
                    values: [:]))
        }
        return rows
    }
}

/// nginx in front of the instances, configured with the file docs/operating.md gives operators.
struct Nginx {
    let process: Process
    let port: Int

    static func binary() -> String? {
        ["/usr/sbin/nginx", "/usr/bin/nginx", "/usr/local/sbin/nginx"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static func start(_ binary: String, upstreams: [Int], folder: URL) async throws -> Nginx {
        let port = try HyzerBench.freePort()
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("cache"), withIntermediateDirectories: true)
        let template = try String(contentsOf: URL(fileURLWithPath: "deploy/nginx/hyzer.conf"), encoding: .utf8)
        let values = [
            "@CACHE_DIR@": folder.appendingPathComponent("cache").path,
            "@UPSTREAMS@": upstreams.map { "    server 127.0.0.1:\($0);" }.joined(separator: "\n"), "@LISTEN@": "127.0.0.1:\(port)",
        ]
        // The comments name the placeholders too: only the directives are filled in.
        let site = template.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.trimmingCharacters(in: .whitespaces).hasPrefix("#")
                ? String(line) : values.reduce(String(line)) { $0.replacingOccurrences(of: $1.key, with: $1.value) }
        }.joined(separator: "\n")
        try site.write(to: folder.appendingPathComponent("hyzer.conf"), atomically: true, encoding: .utf8)
        let path = folder.path
        // As root, workers would run as nobody and could not write the bench's folders.
        let user = getuid() == 0 ? "user root root;\n" : ""
        let main = """
            \(user)worker_processes auto;
            pid \(path)/nginx.pid;
            error_log \(path)/error.log warn;
            events { worker_connections 4096; }
            http {
                access_log off;
                # The load generator keeps its connections for the whole run (nginx closes a
                # client's after 1,000 requests by default, which it counts as failures).
                keepalive_requests 10000000;
                client_body_temp_path \(path)/client_body;
                proxy_temp_path \(path)/proxy;
                fastcgi_temp_path \(path)/fastcgi;
                uwsgi_temp_path \(path)/uwsgi;
                scgi_temp_path \(path)/scgi;
                include \(path)/hyzer.conf;
            }
            """
        try main.write(to: folder.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["-p", path, "-c", "\(path)/nginx.conf", "-e", "\(path)/error.log", "-g", "daemon off;"]
        try process.run()
        let proxy = Nginx(process: process, port: port)
        do {
            try await HyzerBench.waitForHealth(HTTPClient.shared, "http://127.0.0.1:\(port)")
        } catch {
            proxy.stop()
            throw error
        }
        return proxy
    }

    func stop() {
        process.terminate()
        process.waitUntilExit()
    }
}
