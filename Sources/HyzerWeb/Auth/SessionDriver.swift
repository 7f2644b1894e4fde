import Foundation
import Hummingbird
import HyzerCore
import HyzerStore
import HyzerSync

/// What a signed-in browser's session holds. Role and name are read from the player on
/// every request, never kept here, so a change applies at the next request.
public struct UserSession: Codable, Sendable {
    /// The cookie that carries a session's id (hummingbird-auth's session storage sets it;
    /// live streams read it themselves).
    static let cookieName = "hyzer_session"

    public var playerID: UUID
}

/// hummingbird-auth's session storage on the credential store: `sync.sqlite` (sessions survive
/// a restart and never leave this device), or the cluster's database (every instance of the
/// cluster knows them).
struct CredentialSessionDriver: PersistDriver {
    let store: any CredentialStore

    func create<Object: Codable & Sendable>(key: String, value: Object, expires: Duration?) async throws {
        try await Self.answering { try await create(key, value, expires) }
    }

    private func create<Object: Codable & Sendable>(_ key: String, _ value: Object, _ expires: Duration?) async throws {
        guard
            try await store.storeSession(
                key: key, value: try JSONEncoder().encode(value), playerID: Self.playerID(value), expiresAt: Self.date(expires), onlyIfAbsent: true)
        else {
            throw PersistError.duplicate
        }
    }

    func set<Object: Codable & Sendable>(key: String, value: Object, expires: Duration?) async throws {
        try await Self.answering {
            // An update without an expiry keeps the one already stored.
            var expiresAt = Self.date(expires)
            if expiresAt == nil { expiresAt = try await store.session(key: key)?.expiresAt }
            _ = try await store.storeSession(
                key: key, value: try JSONEncoder().encode(value), playerID: Self.playerID(value), expiresAt: expiresAt, onlyIfAbsent: false)
        }
    }

    func get<Object: Codable & Sendable>(key: String, as type: Object.Type) async throws -> Object? {
        try await getWithTTL(key: key, as: type)?.object
    }

    func getWithTTL<Object: Codable & Sendable>(key: String, as type: Object.Type) async throws -> (object: Object, ttl: Duration?)? {
        guard let stored = try await store.session(key: key) else { return nil }
        guard let object = try? JSONDecoder().decode(type, from: stored.value) else { throw PersistError.invalidConversion }
        return (object, stored.expiresAt.map { .seconds(max(0, $0.timeIntervalSinceNow)) })
    }

    func remove(key: String) async throws {
        try await Self.answering { try await store.endSession(key: key) }
    }

    /// The session middleware saves after the page's error handling: a cluster database out of
    /// reach becomes a plain 503 "try again" here, not an empty 500.
    private static func answering(_ work: () async throws -> Void) async throws {
        do { try await work() } catch CloudError.unreachable {
            throw HTTPError(
                .serviceUnavailable, headers: [.retryAfter: "5"],
                message: "The cluster's database cannot be reached just now, so you were not signed in or out. Try again in a moment.")
        }
    }

    private static func playerID(_ value: some Sendable) -> UUID? { (value as? UserSession)?.playerID }

    private static func date(_ duration: Duration?) -> Date? {
        duration.map { Date(timeIntervalSinceNow: Double($0.components.seconds)) }
    }
}
