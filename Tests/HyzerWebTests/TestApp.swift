import Foundation
import Hummingbird
import HummingbirdTesting
import HyzerWeb
import Testing

/// Builds the real app on a fresh data directory with the demo round seeded, and runs the
/// body against it. Each test gets its own directory; nothing is shared.
func withApp(
    seedDemo: Bool = true,
    _ test: @Sendable (any TestClientProtocol) async throws -> Void
) async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-web-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let config = AppConfiguration(host: "127.0.0.1", port: 0, dataDirectory: directory, resourcesDirectory: repositoryRoot, seedDemo: seedDemo, logLevel: .warning)
    let app = try await buildApplication(config)
    try await app.test(.router, test)
}

let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

extension TestClientProtocol {
    func get(_ uri: String, headers: HTTPFields = [:]) async throws -> TestResponse {
        try await execute(uri: uri, method: .get, headers: headers, body: nil)
    }

    func postForm(_ uri: String, _ fields: [(String, String)]) async throws -> TestResponse {
        let body = fields.map { "\(Self.encode($0.0))=\(Self.encode($0.1))" }.joined(separator: "&")
        return try await execute(uri: uri, method: .post, headers: [.contentType: "application/x-www-form-urlencoded"], body: ByteBuffer(string: body))
    }

    func postJSON(_ uri: String, _ json: String) async throws -> TestResponse {
        try await execute(uri: uri, method: .post, headers: [.contentType: "application/json"], body: ByteBuffer(string: json))
    }

    static func encode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    /// The demo round's id, read from the rounds API.
    func demoRoundID() async throws -> String {
        let rounds = try await get("/api/v1/rounds").json()["rounds"] as? [[String: Any]]
        return try #require(rounds?.first?["id"] as? String)
    }

    func standings(_ roundID: String) async throws -> [String: Any] {
        try await get("/api/v1/rounds/\(roundID)/standings").json()
    }

    func roundDetail(_ roundID: String) async throws -> [String: Any] {
        try await get("/api/v1/rounds/\(roundID)").json()
    }
}

extension TestResponse {
    var text: String { String(buffer: body) }

    func json() throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
        return try #require(object as? [String: Any], "not a JSON object: \(text)")
    }
}

extension Dictionary where Key == String, Value == Any {
    /// The standings row of one player.
    func row(_ playerID: String) -> [String: Any]? {
        (self["standings"] as? [[String: Any]])?.first { $0["playerID"] as? String == playerID }
    }

    func playerIDs() -> [String] {
        (self["players"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []
    }
}
