import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import HyzerWeb

/// `/metrics` as an operator's Prometheus reads it.
@Suite struct MetricsTests {
    @Test func requestsAreCountedByRouteAndStatusWithDurations() async throws {
        try await withApp { client in
            let roundID = try await client.demoRoundID()
            let before = try await Self.value(
                #"hb_requests{http_route="/api/v1/rounds/{id}/standings",http_request_method="GET",http_response_status_code="200"}"#, client)
            for _ in 0..<3 { _ = try await client.get("/api/v1/rounds/\(roundID)/standings") }
            _ = try await client.get("/api/v1/rounds/\(UUID().uuidString.lowercased())/standings")
            let text = try await client.get("/metrics").text
            let after = try await Self.value(
                #"hb_requests{http_route="/api/v1/rounds/{id}/standings",http_request_method="GET",http_response_status_code="200"}"#, client)
            // At least: the process's counters are shared by the apps of tests running alongside.
            #expect(after - before >= 3, "three answered 200")
            #expect(text.contains(#"http_route="/api/v1/rounds/{id}/standings",http_request_method="GET",http_response_status_code="404""#))
            #expect(text.contains("# TYPE http_server_request_duration histogram"))
            #expect(text.contains(#"http_server_request_duration_count{http_route="/api/v1/rounds/{id}/standings""#))
        }
    }

    @Test func theAppsOwnStateIsReadWhenScraped() async throws {
        try await withApp { client in
            let text = try await client.get("/metrics").text
            for family in [
                "hyzer_live_subscribers", "hyzer_live_frames_rendered_total", "hyzer_outbox_pending", "hyzer_outbox_failed",
                "hyzer_backup_last_age_seconds",
            ] {
                #expect(text.contains("# TYPE \(family) "), "\(family)")
            }
            #expect(try await Self.value(#"hyzer_sync_state{state="idle"}"#, client) == 1)
            #expect(try await Self.value(#"hyzer_sync_state{state="offline"}"#, client) == 0)
            #expect(try await Self.value("hyzer_backup_last_age_seconds", client) == -1, "no backup yet")
            // A score goes into the outbox (no cloud here, so it stays pending).
            let pending = try await Self.value("hyzer_outbox_pending", client)
            let roundID = try await client.demoRoundID()
            let player = try #require(try await client.roundDetail(roundID).playerIDs().first)
            let hole = try await HostileClientTests.unscoredHole(client, roundID, player)
            #expect(
                try await client.postJSON("/api/v1/rounds/\(roundID)/scores", #"{"playerID": "\#(player)", "hole": \#(hole), "strokes": 3}"#).status
                    == .created)
            #expect(try await Self.value("hyzer_outbox_pending", client) == pending + 1)
        }
    }

    /// 405 answers are built in front of the router, HEAD by the router from the GET route:
    /// they are counted too, and end their "active request" mark (which once climbed by one
    /// with each of them).
    @Test func answersMadeInFrontOfTheRouterAreCountedAndEnd() async throws {
        try await withApp { client in
            let propfind = HTTPRequest.Method("PROPFIND")!
            for _ in 0..<10 {
                let answer = try await client.execute(uri: "/healthz", method: propfind)
                #expect(answer.status == .methodNotAllowed)
            }
            let active = try await Self.value(#"http_server_active_requests{http_request_method="PROPFIND"}"#, client)
            let counted = try await Self.value(
                #"hb_requests{http_route="NotFound",http_request_method="PROPFIND",http_response_status_code="404"}"#, client)
            #expect(active == 0)
            #expect(counted >= 10)
            // HEAD is the router's (it drops the GET's body unwritten): still counted, by route.
            for _ in 0..<10 {
                #expect(try await client.execute(uri: "/api/v1/courses", method: .head).status == .ok)
            }
            let heads = try await Self.value(
                #"hb_requests{http_route="/api/v1/courses",http_request_method="HEAD",http_response_status_code="200"}"#, client)
            #expect(heads >= 10)
        }
    }

    static func value(_ series: String, _ client: Client) async throws -> Double {
        let text = try await client.get("/metrics").text
        let line = text.split(separator: "\n").first { $0.hasPrefix(series + " ") }
        return line.flatMap { $0.split(separator: " ").last }.flatMap { Double($0) } ?? 0
    }
}

/// `promtool check metrics` (Debian's `prometheus` package, installed by `make test`) on
/// what `/metrics` answers: nothing to report but Hummingbird's own counter names, which are
/// kept as Hummingbird writes them.
@Suite struct PromtoolTests {
    static var promtool: String? {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":").map { "\($0)/promtool" }
        return paths.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    @Test(.enabled(if: promtool != nil, "promtool is not installed (apt-get install prometheus)"))
    func promtoolReportsNothingButHummingbirdsOwnNames() async throws {
        try await withApp { client in
            let roundID = try await client.demoRoundID()
            _ = try await client.get("/api/v1/rounds/\(roundID)/standings")
            _ = try await client.get("/api/v1/rounds/\(UUID().uuidString.lowercased())/standings")
            let text = try await client.get("/metrics").text
            let process = Process()
            process.executableURL = URL(fileURLWithPath: try #require(Self.promtool))
            process.arguments = ["check", "metrics"]
            let input = Pipe()
            let output = Pipe()
            process.standardInput = input
            process.standardOutput = output
            process.standardError = output
            try process.run()
            input.fileHandleForWriting.write(Data(text.utf8))
            try input.fileHandleForWriting.close()
            let report = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            let findings = report.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
            let kept = [
                "hb_request_errors counter metrics should have \"_total\" suffix", "hb_requests counter metrics should have \"_total\" suffix",
            ]
            #expect(findings.allSatisfy { kept.contains($0) }, "promtool: \(findings)")
            #expect(!report.contains("no help text"))
        }
    }
}
