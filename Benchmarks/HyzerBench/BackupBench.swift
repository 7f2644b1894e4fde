import AsyncHTTPClient
import Foundation
import HyzerCore
import HyzerStore
import NIOCore

/// `hyzer-bench backup`: a store of N score events (200 players, 18 holes a round), then
///   - a backup with its verification, timed, with the archive's size and compression ratio;
///   - a restore of that backup onto a fresh data directory (a new machine), timed;
///   - score POSTs to a real server on that store, p50/p99 without and with backups running
///     back to back, to show what a backup costs the people entering scores.
enum BackupBench {
    static func run(server: String, events: Int) async throws -> [String] {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-bench-backup-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let source = root.appendingPathComponent("source")
        var rows: [String] = []
        let (liveRound, players) = try await seed(source, events: events)

        do {
            let stores = try await Stores(directory: source)
            let started = ContinuousClock.now
            let backup = try await stores.createBackup()
            let seconds = (ContinuousClock.now - started).seconds
            let databases = backup.manifest?.files.reduce(0) { $0 + $1.bytes } ?? 0
            rows.append(
                String(
                    format: "backup events=%d databases=%.1fMB archive=%.1fMB ratio=%.1f backup_and_verify=%.2fs",
                    events, Double(databases) / 1e6, Double(backup.archiveBytes) / 1e6, backup.compressionRatio ?? 0, seconds))

            let target = try await Stores(directory: root.appendingPathComponent("new-machine"))
            let restoreStart = ContinuousClock.now
            let report = try await target.restore(from: stores.backups.archive(backup.id))
            let restoreSeconds = (ContinuousClock.now - restoreStart).seconds
            let restored = try await target.currentCounts()
            guard restored.scoreEvents == report.manifest.recordCounts.scoreEvents else {
                throw BenchError("restored \(restored.scoreEvents) events")
            }
            rows.append(String(format: "restore events=%d restore_with_verify_and_safety_backup=%.2fs", restored.scoreEvents, restoreSeconds))
        }

        rows.append(try await postLatency(server: server, data: source, round: liveRound, players: players))
        return rows
    }

    /// Writes the store through the same path a pull uses.
    static func seed(_ directory: URL, events: Int) async throws -> (UUID, [UUID]) {
        let stores = try await Stores(directory: directory)
        var club = BenchClub()
        let (device, course, players) = (club.device, club.course, club.players)
        func stamp() -> HLC { club.stamp() }
        var batch: [RemoteChange] = [.record(course)] + players.map { .record($0) }
        var made = 0
        while made < events {
            let round = Round(
                id: UUID(), name: "Round \(made)", courseID: course.id, playerIDs: players.map(\.id), status: .completed, startedAt: Date(),
                createdAt: Date(), updatedAt: stamp())
            batch.append(.record(round))
            for hole in 1...18 {
                for player in players where made < events {
                    batch.append(
                        .record(
                            ScoreEvent(
                                id: UUID(), roundID: round.id, playerID: player.id, hole: hole, strokes: .count(2 + made % 4), deviceID: device,
                                recordedAt: stamp())))
                    made += 1
                    if batch.count >= 5000 {
                        _ = try await stores.domain.applyRemote(batch)
                        batch = []
                    }
                }
            }
        }
        // An empty active round for the POSTs of the latency phase.
        let live = Round(
            id: UUID(), name: "Bench live", courseID: course.id, playerIDs: players.map(\.id), status: .active, startedAt: Date(), createdAt: Date(),
            updatedAt: stamp())
        batch.append(.record(live))
        _ = try await stores.domain.applyRemote(batch)
        return (live.id, players.map(\.id))
    }

    static func postLatency(server path: String, data: URL, round: UUID, players: [UUID]) async throws -> String {
        try BenchServer.cli(path, ["admin", "create-user", "bench.admin", "--role", "admin"], data: data, input: "bench admin password")
        let token = try BenchServer.cli(path, ["admin", "token", "bench.admin"], data: data)
        let port = try HyzerBench.freePort()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = [
            "serve", "--port", String(port), "--data-dir", data.path, "--cloud", "none", "--log-level", "warning", "--backup-interval", "off",
        ]
        try process.run()
        // Stopped and gone before the data folder is removed.
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            let row = try await measure(http, port: port, token: token, round: round, players: players)
            try await http.shutdown()
            return row
        } catch {
            try? await http.shutdown()
            throw error
        }
    }

    static func measure(_ http: HTTPClient, port: Int, token: String, round: UUID, players: [UUID]) async throws -> String {
        let base = "http://127.0.0.1:\(port)"
        try await HyzerBench.waitForHealth(http, base)

        var slot = 0
        func postScores(for duration: Duration) async throws -> [Double] {
            var latencies: [Double] = []
            let end = ContinuousClock.now + duration
            while ContinuousClock.now < end, slot < players.count * 18 {
                let player = players[slot % players.count]
                let hole = 1 + slot / players.count
                slot += 1
                var request = HTTPClientRequest(url: "\(base)/api/v1/rounds/\(round.uuidString.lowercased())/scores")
                request.method = .POST
                request.headers.add(name: "Authorization", value: "Bearer \(token)")
                request.headers.add(name: "Content-Type", value: "application/json")
                request.body = .bytes(ByteBuffer(string: #"{"playerID":"\#(player.uuidString.lowercased())","hole":\#(hole),"strokes":3}"#))
                let started = ContinuousClock.now
                let response = try await http.execute(request, timeout: .seconds(30))
                _ = try await response.body.collect(upTo: 1 << 20)
                guard response.status == .created else { throw BenchError("score POST answered \(response.status)") }
                latencies.append((ContinuousClock.now - started).seconds * 1000)
            }
            return latencies
        }
        _ = try await postScores(for: .seconds(1))
        let quiet = try await postScores(for: .seconds(6))
        // Backups back to back, through the admin page's "Back up now", while scores go on.
        let backing = Task {
            var made = 0
            while !Task.isCancelled {
                var request = HTTPClientRequest(url: "\(base)/admin/backups")
                request.method = .POST
                request.headers.add(name: "Authorization", value: "Bearer \(token)")
                request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
                request.headers.add(name: "Cookie", value: "hyzer_csrf=benchbenchbenchbenchbenchbenchbenchbench123")
                request.body = .bytes(ByteBuffer(string: "csrf=benchbenchbenchbenchbenchbenchbenchbench123"))
                guard let response = try? await http.execute(request, timeout: .seconds(60)) else { break }
                _ = try? await response.body.collect(upTo: 1 << 20)
                // The client follows the 303 to /admin.
                if response.status == .ok || response.status == .seeOther { made += 1 }
            }
            return made
        }
        let during = try await postScores(for: .seconds(6))
        backing.cancel()
        let backups = await backing.value
        func percentile(_ values: [Double], _ p: Double) -> Double {
            let sorted = values.sorted()
            return sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
        }
        return String(
            format:
                "score_posts_during_backup quiet_p50=%.1fms quiet_p99=%.1fms during_p50=%.1fms during_p99=%.1fms p99_rise=%.1fms posts=%d/%d backups_made=%d",
            percentile(quiet, 0.5), percentile(quiet, 0.99), percentile(during, 0.5), percentile(during, 0.99),
            percentile(during, 0.99) - percentile(quiet, 0.99), quiet.count, during.count, backups)
    }
}
