import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import HyzerWeb

/// HEAD and Range on a real socket, where a body sent to a HEAD would corrupt the next
/// response on the same connection.
@Suite struct HeadAndRangeTests {
    @Test func headAnswersCarryNoBodyOnAKeptAliveConnection() async throws {
        try await withLiveApp { port, _, _ in
            let socket = try RawSocket(port: port)
            defer { socket.close() }
            // Pipelined: a route, a static file, a page that is not there, an API list; then a GET.
            let paths = ["/", "/hyzer.css", "/nowhere", "/api/v1/rounds", "/api/v1/nothing"]
            try socket.send(
                paths.map { "HEAD \($0) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" }.joined() + "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let answer = try await socket.read(until: "\r\n\r\nok\n", timeout: 10)
            let statuses = answer.matches(of: /HTTP\/1.1 (\d{3})/).map { String($0.1) }
            #expect(statuses == ["200", "200", "404", "200", "404", "200"], "\(answer)")
            #expect(!answer.contains("<!DOCTYPE") && !answer.contains("<html") && !answer.contains("\"title\""), "no body before the GET's")
            #expect(answer.hasSuffix("\r\n\r\nok\n"))
            // The page's length is announced as the GET's would be.
            let first = try #require(answer.components(separatedBy: "\r\n\r\n").first)
            let length = try #require(first.firstMatch(of: /(?i)content-length: (\d+)/).flatMap { Int($0.1) })
            #expect(length > 500)
        }
    }

    /// HEAD goes where GET goes: a round that is not there is a 404 for both, not a 405.
    @Test func headOfAMissingRecordIsItsGETs404() async throws {
        try await withApp { client in
            for path in [
                "/rounds/\(UUID())", "/rounds/\(UUID())/leaderboard", "/api/v1/rounds/\(UUID())", "/events/\(UUID())", "/rounds/not-a-round",
            ] {
                let get = try await client.get(path)
                let head = try await client.execute(uri: path, method: .head)
                #expect(head.status == get.status && head.status != .methodNotAllowed, "HEAD \(path): \(head.status)")
                #expect(head.body.readableBytes == 0)
            }
            #expect(try await client.execute(uri: "/rounds/\(UUID())", method: .put).status == .methodNotAllowed, "other methods still get 405")
        }
    }

    /// Static files are answered whole whatever `Range` asks (ignored, as RFC 9110 allows),
    /// and say so; no answer is partial or names an impossible range.
    @Test func rangesAreIgnoredCleanly() async throws {
        try await withApp { client in
            let whole = try await client.get("/hyzer.css")
            #expect(whole.status == .ok && whole.headers[.acceptRanges] == "none")
            let size = whole.body.readableBytes
            for range in ["bytes=0-9", "bytes=-5", "bytes=\(size + 10)-\(size + 20)", "lines=1-2", "bytes=9-0", "bytes=0-1,4-5"] {
                let answer = try await client.get("/hyzer.css", headers: [.range: range])
                #expect(answer.status == .ok, "\(range)")
                #expect(answer.body.readableBytes == size && answer.headers[.contentRange] == nil, "\(range)")
            }
            let conditional = try await client.get("/hyzer.css", headers: [.range: "bytes=0-9", .ifRange: whole.headers[.eTag] ?? "x"])
            #expect(conditional.status == .ok && conditional.body.readableBytes == size)
            let page = try await client.get("/", headers: [.range: "bytes=0-9"])
            #expect(page.status == .ok && page.text.contains("</html>"))
        }
    }
}
