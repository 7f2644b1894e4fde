import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdTesting
import HyzerCore
import Testing

@testable import HyzerWeb

/// What a hostile client tried against the server, over a real socket where the pipeline
/// matters: connections that send nothing, other hosts' names, control characters in
/// paths, methods a path does not take, loose values and oversized bodies.
@Suite struct HostileClientTests {
    // MARK: Connections

    @Test func connectionsThatSendNothingOrHalfAHeadAreClosed() async throws {
        try await withLiveApp(configure: { $0.headerTimeout = .milliseconds(500) }) { port, _, _ in
            let silent = try (0..<20).map { _ in try RawSocket(port: port, receiveBuffer: 4096) }
            let halfHeads = try (0..<5).map { _ in try RawSocket(port: port, receiveBuffer: 4096) }
            for socket in halfHeads { try socket.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ") }
            defer { (silent + halfHeads).forEach { $0.close() } }
            for socket in silent + halfHeads {
                #expect(try await socket.readToEnd(timeout: 10), "the server closes a connection that never completes its head")
            }
            // The test client's own idle connection was closed too: ask on a new one.
            let fresh = try RawSocket(port: port, sending: "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            defer { fresh.close() }
            #expect(try await fresh.read(until: "\r\n\r\n", timeout: 10).hasPrefix("HTTP/1.1 200"))
        }
    }

    // The connection limit is tested against the real binary (Tests/system): the test
    // framework's live server does not take the application's connection settings.

    @Test func aLiveStreamOutlivesTheIdleTimeout() async throws {
        try await withLiveApp(heartbeat: .milliseconds(200), configure: { $0.idleTimeout = .milliseconds(600) }) { port, _, _ in
            // Over a socket of its own: the test client's connection, opened when the app starts,
            // may itself sit idle past 600 ms on a loaded machine and be closed before it asks.
            let listing = try RawSocket(port: port, sending: "GET /api/v1/rounds HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            defer { listing.close() }
            let rounds = try await listing.read(until: "}]}", timeout: 10)
            let roundID = try #require(rounds.firstMatch(of: /"id":"([0-9a-f-]{36})"/).map { String($0.1) })
            let idle = try RawSocket(port: port)
            let stream = try RawSocket(port: port)
            defer {
                idle.close()
                stream.close()
            }
            try idle.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            try stream.send("GET /rounds/\(roundID)/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(try await idle.readUntil("200 OK", timeout: 10))
            #expect(try await idle.readToEnd(timeout: 10), "a kept-alive connection with nothing to do is closed")
            // Ten heartbeats is well past the idle timeout: the stream is still open.
            var text = ""
            for _ in 0..<10 {
                text = try await stream.read(until: ": heartbeat", timeout: 5)
                #expect(text.contains(": heartbeat"), "heartbeats keep coming: \(text.suffix(200))")
            }
        }
    }

    @Test func aBodyTrickledAByteAtATimeIsDropped() async throws {
        try await withLiveApp(configure: { $0.headerTimeout = .milliseconds(400) }) { port, _, _ in
            let slow = try RawSocket(
                port: port, receiveBuffer: 4096,
                sending:
                    "POST /signin HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 5000\r\n\r\nh")
            defer { slow.close() }
            var closed = false
            for _ in 0..<50 where !closed {
                try? slow.send("a")
                closed = try await slow.readToEnd(timeout: 0.2)
            }
            #expect(closed, "a body slower than 1 KB per header timeout is cut off")
        }
    }

    /// Bytes that are not HTTP, as a connection's first request, get a 400 and the connection
    /// closes: the request task that answers it must not wait for a request that never comes.
    @Test func aFirstRequestThatIsNotHTTPIs400AndCloses() async throws {
        try await withLiveApp { port, _, _ in
            let socket = try RawSocket(port: port, sending: "\u{16}\u{03}\u{01} not a request at all\r\n\r\n")
            defer { socket.close() }
            let answer = try await socket.read(until: "\r\n\r\n", timeout: 10)
            #expect(answer.hasPrefix("HTTP/1.1 400"), "answered: \(answer)")
            #expect(try await socket.readToEnd(timeout: 10), "and closed")
        }
    }

    @Test func aRefusedRequestWaitsForTheAnswerBeforeIt() async throws {
        try await withLiveApp { port, _, _ in
            let socket = try RawSocket(
                port: port, sending: "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET /healthz HTTP/1.1\r\nHost: evil.example\r\n\r\n")
            defer { socket.close() }
            let answers = try await socket.read(until: "add the name to --allowed-hosts", timeout: 10)
            let first = try #require(answers.range(of: "HTTP/1.1 200"), "the first request is answered: \(answers)")
            let second = try #require(answers.range(of: "HTTP/1.1 400"))
            #expect(first.lowerBound < second.lowerBound)
        }
    }

    @Test(arguments: [
        "GET /healthz HTTP/1.1\r\nHost: localhost:evil\r\n\r\n",
        "GET /healthz HTTP/1.1\r\nHost: [::1]evil.example\r\n\r\n",
        "GET /healthz HTTP/1.1\r\nHost: localhost\r\nHost: evil.example\r\n\r\n",
    ])
    func hostNamesHiddenElsewhereAreRefused(request: String) async throws {
        try await withLiveApp { port, _, _ in
            let socket = try RawSocket(port: port, sending: request)
            defer { socket.close() }
            let answer = try await socket.read(until: "\r\n\r\n", timeout: 10)
            #expect(answer.hasPrefix("HTTP/1.1 400"), "\(request.debugDescription): \(answer.prefix(80))")
        }
    }

    // MARK: Names and paths

    @Test func anotherSitesHostNameIsRefusedEverywhere() async throws {
        try await withLiveApp { port, client, _ in
            let roundID = try await client.demoRoundID()
            for path in ["/", "/api/v1/rounds", "/rounds/\(roundID)/events", "/tv/events"] {
                let socket = try RawSocket(port: port, sending: "GET \(path) HTTP/1.1\r\nHost: rebound.attacker.example:\(port)\r\n\r\n")
                defer { socket.close() }
                let answer = try await socket.read(until: "\r\n\r\n", timeout: 10)
                #expect(answer.hasPrefix("HTTP/1.1 400"), "\(path): \(answer.prefix(80))")
                #expect(try await socket.readToEnd(timeout: 10))
            }
            for host in ["localhost:\(port)", "127.0.0.1:\(port)", "LOCALHOST.", "[::1]:\(port)"] {
                let socket = try RawSocket(port: port, sending: "GET /healthz HTTP/1.1\r\nHost: \(host)\r\n\r\n")
                defer { socket.close() }
                #expect(try await socket.read(until: "\r\n\r\n", timeout: 10).hasPrefix("HTTP/1.1 200"), "\(host)")
            }
        }
    }

    @Test func theAllowedHostsSettingNamesTheServer() {
        let hosts = AllowedHosts(["scores.club.example", "10.0.0.5"])
        #expect(hosts.allows(authority: "scores.club.example:8080"))
        #expect(hosts.allows(authority: "Scores.Club.Example."))
        #expect(hosts.allows(authority: "10.0.0.5"))
        #expect(!hosts.allows(authority: "localhost"))
        #expect(!hosts.allows(authority: "scores.club.example.attacker.example"))
        #expect(AllowedHosts(["*"]).allows(authority: "anything.example"))
        let defaults = AllowedHosts.defaults(listeningOn: "127.0.0.1")
        #expect(defaults.allows(authority: "localhost:8080") && defaults.allows(authority: "[::1]:8080"))
        #expect(defaults.allows(authority: ProcessInfo.processInfo.hostName))
        #expect(!defaults.allows(authority: "attacker.example"))
    }

    @Test(arguments: ["/live.js%00.html", "/%00%0d%0aSet-Cookie:%20x=1/", "/rounds/%0a", "/x%7f"])
    func controlCharactersInAPathAreRefused(path: String) async throws {
        try await withLiveApp { port, _, _ in
            let socket = try RawSocket(port: port, sending: "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            defer { socket.close() }
            let answer = try await socket.read(until: "\r\n\r\n", timeout: 10)
            #expect(answer.hasPrefix("HTTP/1.1 400"), "\(path): \(answer.prefix(120))")
            #expect(!answer.lowercased().contains("location:"))
        }
    }

    @Test func filesKeepTheirOwnType() async throws {
        try await withApp { client in
            let script = try await client.get("/live.js")
            #expect(script.status == .ok)
            #expect(script.headers[.contentType]?.contains("javascript") == true)
        }
    }

    // MARK: Methods

    @Test func aMethodThePathDoesNotTakeIs405WithAllow() async throws {
        try await withApp { client in
            let roundID = try await client.demoRoundID()
            for (method, path, allow) in [
                (HTTPRequest.Method.put, "/", "GET, HEAD"), (.delete, "/rounds/\(roundID)", "GET, HEAD, POST"), (.options, "/healthz", "GET, HEAD"),
                (.post, "/tv", "GET, HEAD"), (.get, "/signout", "POST"),
                (.delete, "/api/v1/rounds", "GET, HEAD, POST"), (.patch, "/api/v1/rounds/\(roundID)/scores", "GET, HEAD, POST"),
                // Streams are answered ahead of the router, which still knows their addresses.
                (.post, "/rounds/\(roundID)/events", "GET, HEAD"), (.delete, "/tv/events", "GET, HEAD"), (.put, "/sync/events", "GET, HEAD"),
            ] {
                let response = try await client.execute(uri: path, method: method)
                #expect(response.status == .methodNotAllowed, "\(method) \(path)")
                #expect(response.headers[.allow] == allow, "\(method) \(path)")
                if path.hasPrefix("/api/") { #expect(response.headers[.contentType] == "application/problem+json") }
            }
            #expect(try await client.execute(uri: "/no/such/page", method: .put).status == .notFound)
            for method in [HTTPRequest.Method.delete, .options, .trace] {
                let unknown = try await client.execute(uri: "/api/v1/nothing", method: method)
                #expect(unknown.status == .notFound, "\(method)")
                #expect(unknown.headers[.contentType] == "application/problem+json", "\(method): the API answers in problem documents")
            }
        }
    }

    @Test func headIsAnsweredWithoutABody() async throws {
        try await withApp { client in
            for path in ["/", "/healthz", "/api/v1/rounds"] {
                let head = try await client.execute(uri: path, method: .head)
                #expect(head.status == .ok, "HEAD \(path)")
                #expect(head.body.readableBytes == 0)
            }
        }
    }

    // MARK: Strict values

    /// Each loose value is refused and nothing is written.
    @Test(arguments: [
        (#""strokes": " 3 ""#, 422), (#""strokes": "+4""#, 422), (#""strokes": 3.0"#, 422), (#""strokes": 3e0"#, 422),
        (#""strokes": "3""#, 422), (#""strokes": "dnf""#, 422), (#""strokes": 3, "hole": "HOLE""#, 422), (#""strokes": 3, "penalties": 1.5"#, 422),
        (#""strokes": 3, "strokes": 4"#, 400),
    ])
    func theAPITakesTypedValuesOnly(fields: String, status: Int) async throws {
        try await withApp { client in
            let roundID = try await client.demoRoundID()
            let player = try #require(try await client.roundDetail(roundID).playerIDs().first)
            let before = try await client.get("/api/v1/rounds/\(roundID)/scores").json()["events"] as? [Any]
            let hole = try await Self.unscoredHole(client, roundID, player)
            let body =
                fields.contains("\"hole\"")
                ? #"{"playerID": "\#(player)", \#(fields.replacingOccurrences(of: "HOLE", with: String(hole)))}"#
                : #"{"playerID": "\#(player)", "hole": \#(hole), \#(fields)}"#
            let response = try await client.postJSON("/api/v1/rounds/\(roundID)/scores", body)
            #expect(Int(response.status.code) == status, "\(fields): \(response.text)" as Comment)
            #expect(response.headers[.contentType] == "application/problem+json")
            let after = try await client.get("/api/v1/rounds/\(roundID)/scores").json()["events"] as? [Any]
            #expect(after?.count == before?.count, "nothing written")
            // The same value, well typed, is taken.
            let good = try await client.postJSON("/api/v1/rounds/\(roundID)/scores", #"{"playerID": "\#(player)", "hole": \#(hole), "strokes": 3}"#)
            #expect(good.status == .created, "\(good.text)")
        }
    }

    /// Bodies that are not JSON at all — a closing bracket first, stray bytes — are a 400,
    /// never a crash (a scanner once trapped on them).
    @Test(arguments: ["}", "]", "x}", #""a"]"#, "{]", "[}", "\u{1}\u{ff}]}", "{\"a\":1}}", ""])
    func bodiesThatAreNotJSONAre400(body: String) async throws {
        try await withApp { client in
            let roundID = try await client.demoRoundID()
            for path in ["/api/v1/rounds/\(roundID)/scores", "/api/v1/courses", "/api/v1/events"] {
                let response = try await client.postJSON(path, body)
                #expect(
                    response.status == .badRequest || response.status == .unprocessableContent, "\(path) \(body.debugDescription): \(response.status)"
                )
            }
            #expect(try await client.get("/healthz").status == .ok)
        }
    }

    /// Found by an attack pass: each of these once got past the strict reading or cost the
    /// server seconds (a deep body full of fractions took 19 s of CPU).
    @Test func bodiesThatAreNotPlainUTF8JSONAre400() async throws {
        try await withApp { client in
            let roundID = try await client.demoRoundID()
            let player = try #require(try await client.roundDetail(roundID).playerIDs().first)
            let path = "/api/v1/rounds/\(roundID)/scores"
            let deep = String(repeating: "[", count: 16_000) + String(repeating: "1e0,", count: 11_990) + "1"
            let deepAnswer = try await client.postJSON(path, deep)
            #expect(deepAnswer.status == .badRequest)
            #expect(deepAnswer.text.contains("nested deeper than 32 levels"))
            #expect(deepAnswer.text.count < 1_000, "no unbounded path is echoed")

            let score = #"{"playerID": "\#(player)", "hole": 14, "\u0068ole": 13, "strokes": 3}"#
            var utf16 = ByteBuffer()
            utf16.writeBytes(Array(score.utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
            let wide = try await client.execute(uri: path, method: .post, headers: [.contentType: "application/json"], body: utf16)
            #expect(wide.status == .badRequest, "UTF-16 is not read around the checks")
            for body in [#"{"playerID": "\#(player)", "hole": 14, "strokes": 3,}"#, #"{"a": [1, 2,]}"#, #"{"a": 1, "a": 2}"#] {
                let answer = try await client.postJSON(path, body)
                #expect(answer.status == .badRequest, "\(body): \(answer.text)")
            }
        }
    }

    @Test func keysTheAPIDoesNotKnowAreIgnoredWhateverTheyHold() async throws {
        try await withApp { client in
            let created = try await client.postJSON("/api/v1/events", #"{"name": "Future client", "futureField": 1.5, "more": {"x": 2e3}}"#)
            #expect(created.status == .created, "\(created.text)")
            let known = try await client.postJSON("/api/v1/courses", #"{"name": "Fractions", "holes": [{"number": 1, "par": 3.0}], "note": 0.5}"#)
            #expect(known.status == .unprocessableContent)
            #expect(try known.json()["errors"].map { "\($0)" }?.contains("holes[0].par") == true, "\(known.text)")
            // A fraction under an ignored key is never the reason given for another problem.
            let missing = try await client.postJSON("/api/v1/courses", #"{"holes": [{"number": 1, "par": 3}], "note": 0.5}"#)
            #expect(missing.status == .unprocessableContent)
            #expect(!missing.text.contains("note"), "\(missing.text)")
            let twice = try await client.postJSON("/api/v1/events", #"{"name": "a", "name": "b"}"#)
            #expect(twice.status == .badRequest)
            #expect(try twice.json()["detail"] as? String == "The key name appears twice in the body. Send each key once.")
            let nested = try await client.postJSON("/api/v1/events", #"{"name": "a", "extra": {"x": 1, "x": 2}}"#)
            #expect(try nested.json()["detail"] as? String == "The key extra.x appears twice in the body. Send each key once.")
        }
    }

    @Test(arguments: [" 3 ", "+4", "3.0", "3e0", "0x3"])
    func formsTakeWholeNumbersAsDigitsOnly(strokes: String) async throws {
        try await withApp { client in
            let roundID = try await client.demoRoundID()
            let player = try #require(try await client.roundDetail(roundID).playerIDs().first)
            let hole = try await Self.unscoredHole(client, roundID, player)
            let before = try await client.get("/api/v1/rounds/\(roundID)/scores").json()["events"] as? [Any]
            let response = try await client.postForm(
                "/rounds/\(roundID)/scores", [("playerID", player), ("hole", String(hole)), ("strokes", strokes)])
            #expect(response.status == .unprocessableContent, "\(strokes)")
            let after = try await client.get("/api/v1/rounds/\(roundID)/scores").json()["events"] as? [Any]
            #expect(after?.count == before?.count, "nothing written")
            let good = try await client.postForm("/rounds/\(roundID)/scores", [("playerID", player), ("hole", String(hole)), ("strokes", "3")])
            #expect(good.status == .seeOther, "the same score as digits is taken")
        }
    }

    @Test func aFormThatIsNotUTF8IsRefused() async throws {
        try await withApp { client in
            let before = try await client.get("/api/v1/players").json()["players"] as? [Any]
            let body = "csrf=\(Client.formToken)&displayName=Bad%FF%FEName&handle=badname&role=athlete"
            let response = try await client.execute(
                uri: "/players", method: .post,
                headers: [
                    .contentType: "application/x-www-form-urlencoded", .cookie: "\(CSRF.cookieName)=\(Client.formToken)",
                ], body: ByteBuffer(string: body))
            #expect(response.status == .badRequest, "\(response.text)")
            let after = try await client.get("/api/v1/players").json()["players"] as? [Any]
            #expect(after?.count == before?.count)
            #expect(FormText.isUTF8(Array("name=Zo%C3%AB+%E2%9C%93".utf8)))
            #expect(!FormText.isUTF8(Array("name=%C3".utf8)))
        }
    }

    @Test func oversizedBodiesAre413() async throws {
        try await withApp { client in
            let roundID = try await client.demoRoundID()
            let huge = String(repeating: "a", count: 10_000_000)
            let api = try await client.postJSON("/api/v1/rounds/\(roundID)/scores", huge)
            #expect(api.status == .contentTooLarge)
            #expect(api.text.contains("larger than"))
            let form = try await client.postForm("/players", [("displayName", String(repeating: "x", count: 100_000)), ("handle", "big")])
            #expect(form.status == .contentTooLarge)
        }
    }

    // MARK: Scores by id

    @Test func aConflictNamesTheCurrentScoreAndTheListHasIt() async throws {
        try await withApp { client in
            let roundID = try await client.demoRoundID()
            let player = try #require(try await client.roundDetail(roundID).playerIDs().first)
            let hole = try await Self.unscoredHole(client, roundID, player)
            let first = try await client.postJSON("/api/v1/rounds/\(roundID)/scores", #"{"playerID": "\#(player)", "hole": \#(hole), "strokes": 4}"#)
            let firstID = try #require((try first.json()["event"] as? [String: Any])?["id"] as? String)
            let again = try await client.postJSON("/api/v1/rounds/\(roundID)/scores", #"{"playerID": "\#(player)", "hole": \#(hole), "strokes": 5}"#)
            #expect(again.status == .conflict)
            #expect(try again.json()["currentEventID"] as? String == firstID)
            let listed = try #require(try await client.get("/api/v1/rounds/\(roundID)/scores").json()["events"] as? [[String: Any]])
            let listedFirst = try #require(listed.first { $0["id"] as? String == firstID })
            #expect(listedFirst["current"] as? Bool == true)
            #expect(listedFirst.keys.contains("supersedes") && listedFirst["supersedes"] is NSNull, "present, and null: the contract lists it")
            let correction = try await client.postJSON(
                "/api/v1/rounds/\(roundID)/scores", #"{"playerID": "\#(player)", "hole": \#(hole), "strokes": 5, "supersedes": "\#(firstID)"}"#)
            #expect(correction.status == .created, "\(correction.text)")
            let after = try #require(try await client.get("/api/v1/rounds/\(roundID)/scores").json()["events"] as? [[String: Any]])
            #expect(after.first { $0["id"] as? String == firstID }?["current"] as? Bool == false)
            #expect(
                after.filter { $0["current"] as? Bool == true && $0["hole"] as? Int == hole && $0["playerID"] as? String == player }.map {
                    $0["strokes"] as? Int
                } == [5])
        }
    }

    static func unscoredHole(_ client: Client, _ roundID: String, _ player: String) async throws -> Int {
        let events = try #require(try await client.get("/api/v1/rounds/\(roundID)/scores").json()["events"] as? [[String: Any]])
        let scored = Set(events.filter { $0["playerID"] as? String == player }.compactMap { $0["hole"] as? Int })
        return try #require((1...18).first { !scored.contains($0) })
    }
}
