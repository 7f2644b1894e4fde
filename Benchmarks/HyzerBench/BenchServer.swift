import AsyncHTTPClient
import Foundation
import NIOCore

/// A `hyzer serve` process on a free port with its own data folder, removed on `stop`.
/// Its data folder holds an admin, `bench.admin`, whose API token signs the bench's writes.
struct BenchServer {
    let process: Process
    let port: Int
    let data: URL
    let token: String
    var base: String { "http://127.0.0.1:\(port)" }
    var authorization: String { "Authorization: Bearer \(token)\r\n" }

    /// Runs `hyzer ARGUMENTS --data-dir DATA` to its end and returns what it printed.
    @discardableResult
    static func cli(_ path: String, _ arguments: [String], data: URL, input: String? = nil, environment: [String: String] = [:]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        process.arguments = arguments + ["--data-dir", data.path]
        let output = Pipe()
        let stdin = Pipe()
        process.standardOutput = output
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(Data((input + "\n").utf8)) }
        try stdin.fileHandleForWriting.close()
        process.waitUntilExit()
        return String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Makes the admin (once per data folder), starts the server and waits until `/healthz` answers.
    static func start(
        _ path: String, data: URL? = nil, cloud: String = "none", demo: Bool = false, extra: [String] = [], environment: [String: String] = [:]
    ) async throws -> BenchServer {
        let port = try HyzerBench.freePort()
        let data = data ?? FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        try cli(path, ["admin", "create-user", "bench.admin", "--role", "admin"], data: data, input: "bench admin password")
        let token = try cli(path, ["admin", "token", "bench.admin"], data: data, environment: environment)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        // The load generator is one address: no share of streams per client.
        process.arguments =
            [
                "serve", "--port", String(port), "--data-dir", data.path, "--cloud", cloud, "--log-level", "warning", "--backup-interval", "off",
                "--max-streams-per-client", "0",
            ]
            + (demo ? ["--demo"] : []) + extra
        try process.run()
        let server = BenchServer(process: process, port: port, data: data, token: token)
        do {
            try await HyzerBench.waitForHealth(HTTPClient.shared, server.base)
        } catch {
            server.stop()
            throw error
        }
        return server
    }

    /// Signs the bench admin in through the sign-in form, as a browser does: the Cookie header
    /// value of its session and form token.
    /// CPU time the server process has used so far (user and system, all threads), from
    /// /proc: the cost of a load divided by its requests, which a busy machine moves far less
    /// than it moves a rate.
    var cpuSeconds: Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8),
            let end = stat.lastIndex(of: ")")
        else { return .nan }
        // Fields after the command name: state is field 3, utime 14 and stime 15.
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return .nan }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    func signIn() async throws -> String {
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))
        defer { _ = client.shutdown() }
        func cookies(_ response: HTTPClientResponse) -> [String: String] {
            Dictionary(
                response.headers["set-cookie"].compactMap { line -> (String, String)? in
                    let pair = line.split(separator: ";").first?.split(separator: "=", maxSplits: 1) ?? []
                    return pair.count == 2 ? (String(pair[0]), String(pair[1])) : nil
                }, uniquingKeysWith: { $1 })
        }
        let form = try await client.execute(HTTPClientRequest(url: base + "/signin"), timeout: .seconds(30))
        guard let token = cookies(form)["hyzer_csrf"] else { throw BenchError("the sign-in page gave no form token") }
        var request = HTTPClientRequest(url: base + "/signin")
        request.method = .POST
        request.headers.add(name: "content-type", value: "application/x-www-form-urlencoded")
        request.headers.add(name: "cookie", value: "hyzer_csrf=\(token)")
        request.body = .bytes(ByteBuffer(string: "csrf=\(token)&handle=bench.admin&password=bench+admin+password"))
        let answer = try await client.execute(request, timeout: .seconds(30))
        let jar = ["hyzer_csrf": token].merging(cookies(answer)) { $1 }
        guard jar["hyzer_session"] != nil else { throw BenchError("sign-in answered \(answer.status) without a session") }
        return jar.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
    }

    func stop() {
        process.terminate()
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: data)
    }

    var rss: Int { HyzerBench.rss(process.processIdentifier) }

    /// POSTs JSON and returns the decoded answer; throws unless the status is 2xx.
    func post(_ http: HTTPClient, _ path: String, _ body: [String: Any]) async throws -> [String: Any] {
        var request = HTTPClientRequest(url: base + path)
        request.method = .POST
        request.headers.add(name: "content-type", value: "application/json")
        request.headers.add(name: "authorization", value: "Bearer \(token)")
        request.body = .bytes(ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: body)))
        let response = try await http.execute(request, timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 1 << 22)
        guard (200..<300).contains(Int(response.status.code)) else {
            throw BenchError("POST \(path) answered \(response.status): \(String(buffer: bytes))")
        }
        return (try JSONSerialization.jsonObject(with: Data(bytes.readableBytesView)) as? [String: Any]) ?? [:]
    }

    /// A course of `holes` holes, `players` new players and an active round of them: the
    /// round's id and its players' ids.
    func makeRound(_ http: HTTPClient, players count: Int, holes: Int, name: String) async throws -> (String, [String]) {
        let course = try await post(http, "/api/v1/courses", ["name": "\(name) course", "holes": (1...holes).map { ["number": $0, "par": 3] }])
        guard let courseID = course["id"] as? String else { throw BenchError("no course id") }
        var players: [String] = []
        for index in 0..<count {
            let player = try await post(http, "/api/v1/players", ["displayName": "\(name) \(index)", "handle": "\(name.lowercased())\(index)"])
            guard let id = player["id"] as? String else { throw BenchError("no player id") }
            players.append(id)
        }
        let round = try await post(http, "/api/v1/rounds", ["courseID": courseID, "name": name, "players": players.map { ["playerID": $0] }])
        guard let roundID = round["id"] as? String else { throw BenchError("no round id") }
        return (roundID, players)
    }
}

/// Score requests for the load generator: connection `c` scores player `c`, hole after hole,
/// then corrects its own scores (each correction supersedes the one before, by the ids this
/// side chose), so every request is a new, valid score.
struct ScoreScript: Sendable {
    let roundID: String
    let players: [String]
    let authorization: String
    var holes = 36

    static func id(_ player: Int, _ sequence: Int) -> String {
        String(format: "%08x-0000-4000-8000-%012x", player, sequence)
    }

    func request(player: Int, sequence: Int) -> String {
        var body =
            #"{"id":"\#(Self.id(player, sequence))","playerID":"\#(players[player])","hole":\#(sequence % holes + 1),"strokes":\#(2 + sequence % 5)"#
        if sequence >= holes { body += #","supersedes":"\#(Self.id(player, sequence - holes))""# }
        body += "}"
        return
            "POST /api/v1/rounds/\(roundID)/scores HTTP/1.1\r\nHost: 127.0.0.1\r\n\(authorization)Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
    }
}
