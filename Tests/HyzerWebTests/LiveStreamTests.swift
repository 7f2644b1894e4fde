import AsyncHTTPClient
import Foundation
import Glibc
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization
import Testing

@Suite struct LiveStreamTests {
    /// How long a test may run before it counts as hung: a guard, not a speed goal. Generous,
    /// because the whole suite shares two cores with PostgreSQL starting and backups running
    /// (one test took 113 s there under a 20 s guard).
    static let hang: Double = 90
    /// How long a read waits for what it expects before the test says it never came.
    static let patience: Double = 30

    @Test func theFirstEventIsTheCurrentStateAndEachScoreFollows() async throws {
        try await withLiveApp { port, client, http in
            try await withTimeout(Self.hang) {
                let roundID = try await client.demoRoundID()
                let version = try #require(try await client.standings(roundID)["version"] as? Int)
                let stream = try await SSEStream.open(http, port: port, path: "/rounds/\(roundID)/events")
                #expect(stream.status == 200)
                #expect(stream.contentType == "text/event-stream")
                #expect(stream.contentEncoding == nil)
                let hint = try await stream.next()
                #expect(hint.retry == 2000)
                let first = try await stream.nextEvent()
                #expect(first.event == "standings")
                #expect(first.id == String(version))
                #expect(first.data.contains("id=\"leaderboard-\(roundID)\""))

                let playerID = try await Self.scoreHole17(roundID, client)
                let next = try await stream.nextEvent()
                #expect(next.id == String(version + 1))
                let standings = try await client.standings(roundID)
                let strokes = try #require(standings.row(playerID)?["strokes"] as? Int)
                #expect(next.data.contains("<td class=\"strokes\">\(strokes)</td>"))
            }
        }
    }

    /// A browser takes gzip: each frame arrives compressed and can be read at once, without
    /// waiting for the stream to end, and so do heartbeats.
    @Test func aClientThatTakesGzipGetsEachFrameCompressedAsItIsPublished() async throws {
        try await withLiveApp(heartbeat: .milliseconds(300)) { port, client, http in
            try await withTimeout(Self.hang) {
                let roundID = try await client.demoRoundID()
                let version = try #require(try await client.standings(roundID)["version"] as? Int)
                let stream = try await SSEStream.open(
                    http, port: port, path: "/rounds/\(roundID)/events?scorecard=1",
                    headers: [("accept-encoding", "gzip, deflate, br")])
                #expect(stream.contentEncoding == "gzip")
                #expect(try await stream.next().retry == 2000)
                let first = try await stream.nextEvent()
                #expect(first.id == String(version))
                #expect(first.data.contains("id=\"leaderboard-\(roundID)\""))

                let playerID = try await Self.scoreHole17(roundID, client)
                var next = try await stream.nextEvent()
                while next.id != String(version + 1) { next = try await stream.nextEvent() }
                let strokes = try #require(try await client.standings(roundID).row(playerID)?["strokes"] as? Int)
                #expect(next.data.contains("<td class=\"strokes\">\(strokes)</td>"))
                var block = try await stream.next()
                while block.comment == nil { block = try await stream.next() }
                #expect(block.comment == "heartbeat")
                // The scorecard frames are repetitive HTML: gzip makes them a fraction.
                #expect(stream.received * 4 < stream.decoded, "\(stream.received) bytes for \(stream.decoded)")
            }
        }
    }

    /// HTTP/1.0 has no chunked bodies: a stream comes as HTTP/1.0, its frames as they are,
    /// ending with the connection; any other answer ends the connection unless kept alive.
    @Test func anHTTP10ClientGetsAStreamItCanReadAndConnectionsThatEnd() async throws {
        try await withLiveApp { port, client, http in
            try await withTimeout(Self.hang) {
                let roundID = try await client.demoRoundID()
                let version = try #require(try await client.standings(roundID)["version"] as? Int)
                let stream = try RawSocket(port: port, sending: "GET /rounds/\(roundID)/events HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
                defer { stream.close() }
                let first = try await stream.read(until: "event: standings", timeout: LiveStreamTests.patience)
                #expect(first.hasPrefix("HTTP/1.0 200"), "\(first.prefix(200))")
                #expect(!first.lowercased().contains("transfer-encoding"))
                #expect(first.contains("\r\n\r\nretry: 2000\n\nevent: standings"), "the body follows the head as it is")
                try await Self.scoreHole17(roundID, client)
                let next = try await stream.read(until: "id: \(version + 1)\ndata: ", timeout: LiveStreamTests.patience)
                #expect(next.contains("id: \(version + 1)\ndata: "))
                #expect(!next.contains("\r\n"), "no chunk sizes between frames")

                let page = try RawSocket(port: port, sending: "GET /healthz HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
                defer { page.close() }
                #expect(try await page.read(until: "\r\n\r\n", timeout: LiveStreamTests.patience).hasPrefix("HTTP/1.0 200"))
                #expect(try await page.readToEnd(timeout: LiveStreamTests.patience), "the server ends an HTTP/1.0 connection after its answer")

                let kept = try RawSocket(port: port, sending: "GET /healthz HTTP/1.0\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n")
                defer { kept.close() }
                #expect(try await kept.read(until: "\r\n\r\n", timeout: LiveStreamTests.patience).lowercased().contains("connection: keep-alive"))
                try kept.send("GET /healthz HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
                #expect(
                    try await kept.read(until: "HTTP/1.0 200", timeout: LiveStreamTests.patience).contains("HTTP/1.0 200"),
                    "a kept connection answers the next request")
            }
        }
    }

    @Test func theRoundPageStreamAlsoCarriesTheScorecard() async throws {
        try await withLiveApp { port, client, http in
            try await withTimeout(Self.hang) {
                let roundID = try await client.demoRoundID()
                let stream = try await SSEStream.open(http, port: port, path: "/rounds/\(roundID)/events?scorecard=1")
                #expect(try await stream.nextEvent().event == "standings")
                let card = try await stream.nextEvent()
                #expect(card.event == "scorecard")
                #expect(card.data.contains("id=\"scorecard-\(roundID)\""))
            }
        }
    }

    /// What a reconnecting browser sends as `Last-Event-ID`, relative to the round's version.
    enum LastSeen: String, CaseIterable, Sendable {
        case current, older, ahead, garbage, negative

        func header(_ version: Int) -> String {
            switch self {
            case .current: String(version)
            case .older: String(version - 1)
            case .ahead: String(version + 1000)
            case .garbage: "garbage"
            case .negative: "-7"
            }
        }
    }

    /// Whatever the reconnecting client says it saw — even the current version, or a version
    /// from before a restore — it gets the whole current state at once: frames are full
    /// states, so resending one is harmless and skipping one could leave a screen stale. With
    /// a long heartbeat, "at once" cannot be a heartbeat or a later change.
    @Test(arguments: LastSeen.allCases)
    func aReconnectingClientGetsTheCurrentStateAtOnce(lastSeen: LastSeen) async throws {
        try await withLiveApp(heartbeat: .seconds(60)) { port, client, http in
            let roundID = try await client.demoRoundID()
            let version = try #require(try await client.standings(roundID)["version"] as? Int)
            let first = try await withTimeout(5) {
                let stream = try await SSEStream.open(
                    http, port: port, path: "/rounds/\(roundID)/events", headers: [("Last-Event-ID", lastSeen.header(version))])
                #expect(stream.status == 200)
                return try await stream.nextEvent()
            }
            #expect(first.event == "standings")
            #expect(first.id == String(version), "the current version, not a replay from the one named")
            #expect(first.data.contains("<table"), "a whole board")
        }
    }

    @Test func theFirstConnectionMayNameTheLastEventInTheQuery() async throws {
        try await withLiveApp(heartbeat: .seconds(60)) { port, client, http in
            let roundID = try await client.demoRoundID()
            let version = try #require(try await client.standings(roundID)["version"] as? Int)
            for named in ["nonsense", String(version)] {
                let first = try await withTimeout(5) {
                    try await SSEStream.open(http, port: port, path: "/rounds/\(roundID)/events?lastEventId=\(named)").nextEvent()
                }
                #expect(first.event == "standings")
                #expect(first.id == String(version), "lastEventId=\(named)")
            }
        }
    }

    @Test func idleStreamsGetHeartbeats() async throws {
        try await withLiveApp(heartbeat: .milliseconds(200)) { port, client, http in
            try await withTimeout(Self.hang) {
                let roundID = try await client.demoRoundID()
                let stream = try await SSEStream.open(http, port: port, path: "/rounds/\(roundID)/events")
                _ = try await stream.nextEvent()
                var block = try await stream.next()
                while block.comment == nil { block = try await stream.next() }
                #expect(block.comment == "heartbeat")
            }
        }
    }

    @Test func unknownRoundsAre404() async throws {
        try await withLiveApp { port, _, http in
            try await withTimeout(Self.hang) {
                for path in ["/rounds/\(UUID().uuidString)/events", "/rounds/nope/events"] {
                    let response = try await http.execute(HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)"), timeout: .seconds(10))
                    #expect(response.status == .notFound, "\(path)")
                }
            }
        }
    }

    @Test func theTVStreamCarriesEveryActiveRound() async throws {
        try await withLiveApp { port, client, http in
            try await withTimeout(Self.hang) {
                let roundID = try await client.demoRoundID()
                let stream = try await SSEStream.open(http, port: port, path: "/tv/events")
                let first = try await stream.nextEvent()
                #expect(first.event == "tv")
                #expect(first.data.contains("data-round=\"\(roundID)\""))
                _ = try await client.postForm("/rounds/\(roundID)/complete", [("confirm", "yes")])
                let next = try await stream.nextEvent()
                #expect(!next.data.contains("data-round=\"\(roundID)\""), "a completed round leaves the TV")
                #expect(next.data.contains("No live rounds right now"))
                #expect(Int(next.id ?? "") ?? 0 > Int(first.id ?? "") ?? 0)
            }
        }
    }

    @Test func aClosedStreamIsForgotten() async throws {
        try await withLiveApp { port, client, http in
            try await withTimeout(Self.hang) {
                let roundID = try await client.demoRoundID()
                let browser = try await RawSocket.following(round: roundID, port: port)
                #expect(try await Self.subscribers(client) == 1)
                // The browser goes away: the server notices and drops the subscriber.
                browser.close()
                #expect(try await Self.eventually(10) { try await Self.subscribers(client) == 0 }, "the subscriber is dropped")
            }
        }
    }

    @Test func shutdownEndsOpenStreams() async throws {
        let leftAt = Mutex<ContinuousClock.Instant?>(nil)
        // No heartbeat for a minute: a stream the shutdown did not end would hold it that long
        // (or for ever), far past the bound below, which leaves room for a loaded machine.
        try await withLiveApp(heartbeat: .seconds(60)) { port, client, http in
            let roundID = try await client.demoRoundID()
            let stream = try await SSEStream.open(http, port: port, path: "/rounds/\(roundID)/events")
            _ = try await stream.nextEvent()
            // Leaving this closure shuts the server down while the stream is still open.
            leftAt.withLock { $0 = .now }
        }
        let shutdown = try #require(leftAt.withLock { $0 }).duration(to: .now)
        #expect(shutdown < .seconds(15), "shutdown waited \(shutdown) on an open stream")
    }

    @Test func aStalledClientDoesNotDelayAHealthyOne() async throws {
        // Heartbeats are when a client still stalled is let go (the next test): none comes
        // while this one runs, however slowly a loaded machine scores its holes.
        try await withLiveApp(heartbeat: .seconds(600)) { port, client, http in
            try await withTimeout(60) {
                let roundID = try await client.demoRoundID()
                let detail = try await client.roundDetail(roundID)
                let players = detail.playerIDs()
                // A client that asks for the biggest frames and then never reads.
                let stalled = try RawSocket(
                    port: port, receiveBuffer: 2048,
                    sending: "GET /rounds/\(roundID)/events?scorecard=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
                let healthy = try await SSEStream.open(http, port: port, path: "/rounds/\(roundID)/events?scorecard=1")
                _ = try await healthy.nextEvent()
                _ = try await healthy.nextEvent()

                // Enough changes to fill the stalled client's socket buffers many times over.
                var last = 0
                var eventID: String?
                for (index, hole) in (9...18).enumerated() {
                    for player in players {
                        let body = #"{"playerID":"\#(player)","hole":\#(hole),"strokes":\#(2 + index % 3)}"#
                        let posted = try await client.postJSON("/api/v1/rounds/\(roundID)/scores", body)
                        if posted.status != .created { continue }
                        last = try #require(try await client.standings(roundID)["version"] as? Int)
                        // The healthy client sees every change promptly, stalled neighbour or not.
                        repeat {
                            // A blocked neighbour would block it for good; a loaded CI only slows it.
                            let event = try await withTimeout(LiveStreamTests.patience) { try await healthy.nextEvent() }
                            eventID = event.id
                        } while Int(eventID ?? "") ?? 0 < last
                    }
                }
                #expect(Int(eventID ?? "") == last)

                // When the stalled client finally reads, it catches up to the current state.
                let tail = try await stalled.readUntil("id: \(last)\n", timeout: LiveStreamTests.patience)
                #expect(tail, "the stalled client eventually gets the latest state")
                #expect(try await Self.metric("hyzer_live_frames_skipped_total", client) > 0, "the stalled client really fell behind")
                stalled.close()
            }
        }
    }

    @Test func aClientThatStaysStalledIsClosed() async throws {
        try await withLiveApp(heartbeat: .milliseconds(200)) { port, client, http in
            try await withTimeout(60) {
                let roundID = try await client.demoRoundID()
                let players = try await client.roundDetail(roundID).playerIDs()
                let stalled = try RawSocket(
                    port: port, receiveBuffer: 2048, sending: "GET /rounds/\(roundID)/events?scorecard=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                while try await Self.subscribers(client) < 1 { try await Task.sleep(for: .milliseconds(20)) }
                // Changes until its socket is full, then two heartbeats find it still full.
                for hole in 9...18 {
                    for player in players {
                        _ = try await client.postJSON("/api/v1/rounds/\(roundID)/scores", #"{"playerID":"\#(player)","hole":\#(hole),"strokes":3}"#)
                    }
                }
                #expect(
                    try await Self.eventually(10) { try await Self.subscribers(client) == 0 }, "the server let go of a client that could not keep up")
                #expect(try await stalled.readToEnd(timeout: LiveStreamTests.patience), "its connection was closed")
                stalled.close()
            }
        }
    }

    /// A stream asked for on a connection whose earlier request is still being answered waits
    /// for that answer: the responses never interleave.
    @Test func aStreamRequestedAfterAnotherRequestOnTheSameConnection() async throws {
        try await withLiveApp { port, client, _ in
            try await withTimeout(Self.hang) {
                let roundID = try await client.demoRoundID()
                let socket = try RawSocket(port: port)
                defer { socket.close() }
                try socket.send(
                    "GET /api/v1/rounds/\(roundID)/standings HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                        + "GET /rounds/\(roundID)/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                )
                let text = try await socket.read(until: "event: standings", timeout: LiveStreamTests.patience)
                let first = try #require(text.range(of: "HTTP/1.1 200"))
                let json = try #require(text.range(of: "\"standings\""))
                let second = try #require(text.range(of: "HTTP/1.1 200", range: first.upperBound..<text.endIndex))
                #expect(json.lowerBound < second.lowerBound, "the first answer is complete before the stream starts")
                #expect(text[second.lowerBound...].lowercased().contains("content-type: text/event-stream"))
            }
        }
    }

    /// A connection opened for a stream costs its connection and no request task (each is
    /// several kilobytes of async frames, waiting for hours on every screen): the request task
    /// count follows routed connections only, and such streams still follow their round and
    /// still notice their clients leaving.
    @Test func aConnectionOpenedForAStreamHasNoRequestTask() async throws {
        try await withLiveApp { port, client, _ in
            try await withTimeout(Self.hang) {
                let roundID = try await client.demoRoundID()
                let tasks = { try await Self.metric("hyzer_http_connection_tasks", client) }
                let before = try await tasks()
                let routed = try RawSocket(port: port, sending: "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                defer { routed.close() }
                #expect(try await routed.readUntil("ok", timeout: LiveStreamTests.patience))
                #expect(try await tasks() == before + 1, "a kept-alive routed connection keeps its task")

                var streams: [RawSocket] = []
                for _ in 0..<5 { streams.append(try await RawSocket.following(round: roundID, port: port)) }
                #expect(try await Self.subscribers(client) == 5)
                #expect(try await tasks() == before + 1, "five streams, no more tasks")

                let version = try #require(try await client.standings(roundID)["version"] as? Int)
                let playerID = try #require(try await client.roundDetail(roundID).playerIDs().first)
                let posted = try await client.postJSON("/api/v1/rounds/\(roundID)/scores", #"{"playerID":"\#(playerID)","hole":18,"strokes":4}"#)
                #expect(posted.status == .created)
                for stream in streams {
                    #expect(
                        try await stream.readUntil("id: \(version + 1)\n", timeout: LiveStreamTests.patience),
                        "a stream without a task still gets the new state")
                }
                for stream in streams { stream.close() }
                #expect(try await Self.eventually(10) { try await Self.subscribers(client) == 0 }, "closed streams are noticed without a task")
            }
        }
    }

    /// A client that half-closes (shuts down its sending side) is done: its stream ends.
    @Test func aClientThatHalfClosesEndsItsStream() async throws {
        try await withLiveApp { port, client, _ in
            try await withTimeout(Self.hang) {
                let roundID = try await client.demoRoundID()
                let browser = try await RawSocket.following(round: roundID, port: port)
                defer { browser.close() }
                browser.shutdownSending()
                #expect(try await browser.readToEnd(timeout: LiveStreamTests.patience), "the server closes the stream")
                #expect(try await Self.eventually(10) { try await Self.subscribers(client) == 0 })
            }
        }
    }

    /// A stream is allowed when it opens and again whenever access changes. Public boards
    /// turned off close the anonymous streams (a reconnect gets 401) and leave a signed-in
    /// one open; disabling that person closes theirs too.
    @Test func openStreamsCloseWhenTheirAccessIsWithdrawn() async throws {
        try await withLiveApp { port, client, http in
            try await withTimeout(40) {
                let roundID = try await client.demoRoundID()
                let anonymous = try await RawSocket.following(round: roundID, port: port)
                defer { anonymous.close() }
                let athlete = try await RawSocket.following(round: roundID, port: port, token: client.users.athlete.token)
                defer { athlete.close() }

                let saved = try await client.as(.admin).postForm("/admin/settings", [("clubName", "Pine Loop DGC"), ("tvPageSeconds", "10")])
                #expect(saved.status == .seeOther)
                #expect(try await anonymous.readToEnd(timeout: LiveStreamTests.patience), "the anonymous stream is closed")

                let playerID = try #require(try await client.roundDetail(roundID).playerIDs().last)
                let posted = try await client.postJSON("/api/v1/rounds/\(roundID)/scores", #"{"playerID":"\#(playerID)","hole":16,"strokes":4}"#)
                #expect(posted.status == .created)
                #expect(
                    try await athlete.readUntil("event: standings", timeout: LiveStreamTests.patience), "the athlete's stream still follows the round"
                )

                let again = try RawSocket(port: port, sending: "GET /rounds/\(roundID)/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                defer { again.close() }
                #expect(try await again.readUntil("401", timeout: LiveStreamTests.patience), "a new anonymous stream is refused")

                let disabled = try await client.as(.admin).postForm("/admin/users/\(client.users.athlete.playerID)/disable", [])
                #expect(disabled.status == .seeOther)
                #expect(try await athlete.readToEnd(timeout: LiveStreamTests.patience), "the disabled athlete's stream is closed")
            }
        }
    }

    /// Polls until `condition` holds; false if it still does not after `seconds`.
    /// Scores hole 17 (2 throws) for the round's last player, as a coach through the API; that player.
    @discardableResult
    static func scoreHole17(_ roundID: String, _ client: Client) async throws -> String {
        let playerID = try #require(try await client.roundDetail(roundID).playerIDs().last)
        let posted = try await client.postJSON("/api/v1/rounds/\(roundID)/scores", #"{"playerID":"\#(playerID)","hole":17,"strokes":2}"#)
        #expect(posted.status == .created)
        return playerID
    }

    static func eventually(_ seconds: Double, _ condition: () async throws -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return try await condition()
    }

    static func subscribers(_ client: Client) async throws -> Int {
        try await metric("hyzer_live_subscribers", client)
    }

    static func metric(_ name: String, _ client: Client) async throws -> Int {
        let text = try await client.get("/metrics").text
        let line = text.split(separator: "\n").first { $0.hasPrefix(name + " ") }
        return (line?.split(separator: " ").last).flatMap { Double($0) }.map { Int($0) } ?? -1
    }
}

/// A blocking TCP client with a tiny receive buffer: the stalled browser of the tests.
final class RawSocket: @unchecked Sendable {
    private let fd: Int32

    /// Connected, and `request` sent: what nearly every test does first.
    convenience init(port: Int, receiveBuffer: Int32 = 65536, sending request: String) throws {
        try self.init(port: port, receiveBuffer: receiveBuffer)
        try send(request)
    }

    init(port: Int, receiveBuffer: Int32 = 65536) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var size = receiveBuffer
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else { throw TimedOut() }
    }

    /// A browser following a round's live stream, its first frame read.
    static func following(round roundID: String, port: Int, token: String? = nil) async throws -> RawSocket {
        let socket = try RawSocket(port: port)
        let authorization = token.map { "Authorization: Bearer \($0)\r\n" } ?? ""
        try socket.send("GET /rounds/\(roundID)/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\(authorization)\r\n")
        guard try await socket.readUntil("event: standings", timeout: LiveStreamTests.patience) else {
            socket.close()
            throw TimedOut()
        }
        return socket
    }

    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        guard Glibc.send(fd, bytes, bytes.count, 0) == bytes.count else { throw TimedOut() }
    }

    /// Reads until `marker` appears in the stream or the time runs out.
    func readUntil(_ marker: String, timeout: Double) async throws -> Bool {
        try await read(until: marker, timeout: timeout).contains(marker)
    }

    /// Reads until the server closes the connection; false if it is still open at the deadline.
    func readToEnd(timeout: Double) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(timeout)
        while ContinuousClock.now < deadline {
            switch receive() {
            case .closed: return true
            case .nothing: try await Task.sleep(for: .milliseconds(10))
            case .bytes: continue
            }
        }
        return false
    }

    /// What arrived until `marker` appeared or the time ran out (the last 100 KB of it).
    func read(until marker: String, timeout: Double) async throws -> String {
        let deadline = ContinuousClock.now + .seconds(timeout)
        var tail = ""
        while ContinuousClock.now < deadline {
            switch receive() {
            case .closed:
                return tail
            case .nothing:
                try await Task.sleep(for: .milliseconds(10))
            case .bytes(let bytes):
                tail += String(decoding: bytes, as: UTF8.self)
                if tail.contains(marker) { return tail }
                if tail.count > 200_000 { tail = String(tail.suffix(100_000)) }
            }
        }
        return tail
    }

    private enum Received {
        case bytes([UInt8])
        case nothing
        case closed
    }

    /// One non-blocking read: a blocking one would hold a thread of the pool the server
    /// under test runs on.
    private func receive() -> Received {
        var buffer = [UInt8](repeating: 0, count: 65536)
        let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        if count > 0 { return .bytes(Array(buffer[0..<count])) }
        if count == 0 { return .closed }
        return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? .nothing : .closed
    }

    private var closed = false

    /// Closes once: a second close of the same number could close a descriptor the process
    /// has given to another socket since (another test's, or the server's).
    func close() {
        guard !closed else { return }
        closed = true
        Glibc.close(fd)
    }

    func shutdownSending() { _ = shutdown(fd, Int32(SHUT_WR)) }
}
