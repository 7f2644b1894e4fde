import AsyncHTTPClient
import Foundation
import HyzerCore
import NIOCore
import Synchronization
import Testing

@testable import HyzerWeb

/// A restore while browsers read and phones post scores, over real sockets: nobody gets an
/// error, only "restoring" (503 with Retry-After) or an answer; afterwards the pages, the API
/// and the open live stream all show the restored data.
@Suite struct RestoreUnderLoadTests {
    struct Seen: Sendable {
        var statuses: [Int: Int] = [:]
        var unavailableWithoutRetryAfter = 0
    }

    final class Load: Sendable {
        let stopped = Atomic<Bool>(false)
        let seen = Mutex(Seen())
        var total: Int { seen.withLock { $0.statuses.values.reduce(0, +) } }
    }

    @Test func aRestoreUnderLoadServesRestoringThenTheRestoredState() async throws {
        try await withLiveApp { port, client, http in
            try await withTimeout(60) {
                let admin = client.as(.admin)
                let roundID = try await client.demoRoundID()
                let players = try await client.roundDetail(roundID).playerIDs()
                #expect(try await admin.postForm("/admin/backups", []).status == .seeOther)
                let backup = try #require(admin.backupsFolder.records().first)
                let backedUp = try #require(try await client.standings(roundID)["standings"] as? [[String: Any]]).map {
                    "\($0["playerID"] ?? "")=\($0["strokes"] ?? "")"
                }

                let stream = try await SSEStream.open(http, port: port, path: "/rounds/\(roundID)/events")
                let first = try await stream.nextEvent()
                let base = "http://127.0.0.1:\(port)"
                let token = client.users.coach.token
                let state = Load()
                let load = Task {
                    await withTaskGroup(of: Void.self) { group in
                        for worker in 0..<6 {
                            group.addTask {
                                var hole = 10 + worker
                                while !state.stopped.load(ordering: .relaxed) {
                                    var request: HTTPClientRequest
                                    switch hole % 3 {
                                    case 0: request = HTTPClientRequest(url: "\(base)/rounds/\(roundID)")
                                    case 1: request = HTTPClientRequest(url: "\(base)/api/v1/rounds/\(roundID)/standings")
                                    default:
                                        request = HTTPClientRequest(url: "\(base)/api/v1/rounds/\(roundID)/scores")
                                        request.method = .POST
                                        request.headers.add(name: "Authorization", value: "Bearer \(token)")
                                        request.headers.add(name: "Content-Type", value: "application/json")
                                        let player = players[hole % players.count]
                                        request.body = .bytes(ByteBuffer(string: #"{"playerID":"\#(player)","hole":\#(1 + hole % 18),"strokes":3}"#))
                                    }
                                    hole += 1
                                    guard let response = try? await http.execute(request, timeout: .seconds(20)) else { continue }
                                    _ = try? await response.body.collect(upTo: 1 << 20)
                                    let status = Int(response.status.code)
                                    state.seen.withLock {
                                        $0.statuses[status, default: 0] += 1
                                        if status == 503, response.headers["Retry-After"].first == nil { $0.unavailableWithoutRetryAfter += 1 }
                                    }
                                }
                            }
                        }
                    }
                }
                // Let the load run before and during the restore.
                try await waitUntil { state.total > 30 }
                let restored = try await admin.postForm("/admin/backups/\(backup.id)/restore", [("confirm", backup.id)])
                let during = state.total
                try await waitUntil { state.total > during + 30 }
                state.stopped.store(true, ordering: .relaxed)
                await load.value
                #expect(restored.status == .seeOther)

                let result = state.seen.withLock { $0 }
                let failures = result.statuses.filter { $0.key >= 500 && $0.key != 503 }
                #expect(failures.isEmpty, "server errors during the restore: \(result.statuses)")
                #expect(result.unavailableWithoutRetryAfter == 0)
                #expect(result.statuses.keys.allSatisfy { [200, 201, 409, 422, 503].contains($0) }, "\(result.statuses)")

                // Scores posted meanwhile were after the backup, or refused while restoring; the
                // restored round is the backup's, give or take what load posted after it ended.
                let after = try await client.standings(roundID)
                let version = try #require(after["version"] as? Int)
                // The open stream got the restored board, numbered past everything before it.
                var event = try await stream.nextEvent()
                while Int(event.id ?? "") ?? 0 < version { event = try await stream.nextEvent() }
                #expect((Int(event.id ?? "") ?? 0) > (Int(first.id ?? "") ?? 0))
                #expect(!backedUp.isEmpty)
                let page = try await admin.get("/admin").text
                #expect(page.contains("Restored the backup of"))
            }
        }
    }
}
