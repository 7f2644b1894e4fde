import Foundation
import Hummingbird
import HummingbirdTesting
import HyzerCore
import HyzerSync
import Logging
import Testing

@testable import HyzerStore
@testable import HyzerWeb

/// Builds the real app on a fresh data directory with the demo round seeded and three users
/// (admin, coach, athlete), and runs the body against it. Each test gets its own directory;
/// nothing is shared. The client acts as the coach unless told otherwise (`client.as(…)`).
func withApp(
    seedDemo: Bool = true,
    live: Bool = false,
    configure: (inout AppConfiguration) -> Void = { _ in },
    prepare: (URL) throws -> Void = { _ in },
    _ test: @Sendable (Client) async throws -> Void
) async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-web-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    try prepare(directory)
    var config = testConfiguration(directory, seedDemo: seedDemo)
    configure(&config)
    let app = try await buildApplication(config)
    let users = try await TestUsers.create(in: directory)
    try await app.test(live ? .live : .router) { raw in try await test(Client(raw: raw, users: users)) }
}

func testConfiguration(
    _ directory: URL, seedDemo: Bool = true, heartbeat: Duration = .seconds(15), cloud: CloudAddress = .none, logLevel: Logger.Level = .warning,
    backupInterval: Duration? = nil
) -> AppConfiguration {
    // bcrypt at its lowest cost: sign-ins in tests take microseconds, not a quarter second.
    // No scheduled backups unless a test asks: each would otherwise back up at start.
    var config = AppConfiguration(
        host: "127.0.0.1", port: 0, dataDirectory: directory, resourcesDirectory: repositoryRoot, seedDemo: seedDemo, logLevel: logLevel,
        heartbeatInterval: heartbeat, cloud: cloud, bcryptCost: 4, backupInterval: backupInterval)
    // A known key, so a test client can hold a valid form token without reading a page first.
    config.formTokenKey = testFormKey
    return config
}

let testFormKey = FormTokenKey(bytes: [UInt8](repeating: 7, count: 32))

let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

enum Who: String, Sendable, CaseIterable {
    case anonymous, athlete, coach, admin
}

struct TestUser: Sendable {
    let handle: String
    let password: String
    let playerID: UUID
    let token: String
}

/// Users made the way `hyzer admin create-user` and `hyzer admin token` make them.
struct TestUsers: Sendable {
    /// The app's data directory.
    let directory: URL
    let admin: TestUser
    let coach: TestUser
    let athlete: TestUser

    static func create(in directory: URL) async throws -> TestUsers {
        let accounts = Accounts(stores: try await Stores(directory: directory), cost: 4)
        func make(_ handle: String, _ role: Role) async throws -> TestUser {
            let password = "\(handle) password 123"
            let player = try await accounts.createUser(displayName: handle.capitalized, handle: handle, role: role, password: password)
            return TestUser(
                handle: handle, password: password, playerID: player.id, token: try await accounts.issueToken(handle: handle, name: "tests"))
        }
        // Fixture data folders already have ada and cory: these get other handles there.
        let taken = try await accounts.stores.domain.player(handle: Handle(trusted: "ada.admin")) != nil
        let suffix = taken ? ".t" : ""
        return TestUsers(
            directory: directory, admin: try await make("ada.admin" + suffix, .admin), coach: try await make("cory.coach" + suffix, .coach),
            athlete: try await make("abe.athlete" + suffix, .athlete))
    }

    subscript(who: Who) -> TestUser? {
        switch who {
        case .anonymous: nil
        case .athlete: athlete
        case .coach: coach
        case .admin: admin
        }
    }
}

/// A test client acting as one user: JSON and page requests carry the user's API token, and
/// form posts carry a form token pair (cookie and field) as a browser would.
struct Client: Sendable {
    /// A form token as the server signs it for a browser with no session.
    static let formToken = testFormKey.issue(binding: "", nonce: String(repeating: "t", count: 22))

    let raw: any TestClientProtocol
    let users: TestUsers
    var who: Who = .coach

    func `as`(_ who: Who) -> Client {
        var copy = self
        copy.who = who
        return copy
    }

    var port: Int? { raw.port }

    private func signed(_ headers: HTTPFields) -> HTTPFields {
        var headers = headers
        if let user = users[who], headers[.authorization] == nil { headers[.authorization] = "Bearer \(user.token)" }
        return headers
    }

    func execute(uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:], body: ByteBuffer? = nil) async throws -> TestResponse {
        try await raw.execute(uri: uri, method: method, headers: signed(headers), body: body)
    }

    func get(_ uri: String, headers: HTTPFields = [:]) async throws -> TestResponse {
        try await execute(uri: uri, method: .get, headers: headers)
    }

    /// The form token a cookie header carries, as a page would have put it in its forms.
    static func formToken(in cookie: String?) -> String? {
        cookie?.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            .first { $0.hasPrefix(CSRF.cookieName + "=") }.map { String($0.dropFirst(CSRF.cookieName.count + 1)) }
    }

    func postForm(_ uri: String, _ fields: [(String, String)], headers: HTTPFields = [:]) async throws -> TestResponse {
        let token = Self.formToken(in: headers[.cookie]) ?? Self.formToken
        let body = ([("csrf", token)] + fields).map { "\(Self.encode($0.0))=\(Self.encode($0.1))" }.joined(separator: "&")
        var headers = headers
        headers[.contentType] = "application/x-www-form-urlencoded"
        if headers[.cookie] == nil { headers[.cookie] = "\(CSRF.cookieName)=\(Self.formToken)" }
        return try await execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(string: body))
    }

    func postJSON(_ uri: String, _ json: String, method: HTTPRequest.Method = .post, headers: HTTPFields = [:]) async throws -> TestResponse {
        var headers = headers
        headers[.contentType] = "application/json"
        return try await execute(uri: uri, method: method, headers: headers, body: ByteBuffer(string: json))
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
