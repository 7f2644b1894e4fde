import Foundation
import HyzerCore

/// The shared database every device pushes to and pulls from. Two real implementations:
/// `EmbeddedCloud` (a SQLite file for instances on one machine) and `PostgresCloud`.
/// Both apply `CloudMerge`, so they behave identically.
public protocol CloudDatabase: Sendable {
    /// A short description for the sync page, without secrets.
    var displayName: String { get }

    /// Connects (creating the schema when needed) and says what this device may do. Never
    /// throws: an unreachable cloud is `.temporarilyUnavailable`.
    func resolveAccount() async -> AccountStatus

    /// Saves records under the merge rules, idempotently. Returns how many changed the cloud.
    func save(_ records: [CloudRecord], zone: String) async throws -> Int

    /// Records changed after `token`, in change-sequence order, at most `limit`. A page with
    /// fewer is the last unless it says `hasMore`.
    func changes(zone: String, after token: Int64, limit: Int) async throws -> ChangePage

    /// How many records changed after `token`: the total of an initial sync.
    func changeCount(zone: String, after token: Int64) async throws -> Int

    /// Hints that another device pushed (a hint is a reason to pull, never the data), and
    /// news of the connection itself where the cloud has one to watch.
    func hints(zone: String) -> AsyncStream<CloudSignal>

    /// The zone's newest change number: a client that has pulled through it has everything
    /// saved before this call. nil for a cloud that does not number changes so (the embedded one).
    func position(zone: String) async throws -> Int64?

    /// The stable cloud record name of the person with this handle: the first name any
    /// device proposed for it, kept for good, so every device associates the same one.
    func claimIdentity(handle: String, proposed recordName: String, zone: String) async throws -> String
}

extension CloudDatabase {
    public func position(zone: String) async throws -> Int64? { nil }
}

public struct ChangePage: Sendable {
    public var records: [CloudRecord]
    /// Rows of the page this build cannot read (a type it does not know, a version that is
    /// no clock reading): kept, never skipped in silence.
    public var unreadable: [UnreadableRecord] = []
    /// The token to store once these records are applied.
    public var token: Int64
    /// More changes follow although this page holds fewer than asked for (a cloud that
    /// pages by ranges of change numbers, which may have gaps). A full page always may.
    public var hasMore: Bool
    /// The zone's newest change number when the page was read, where the cloud says: a last page
    /// (not `hasMore`) means everything through it has been seen, gaps included.
    public var newest: Int64?

    public init(records: [CloudRecord], unreadable: [UnreadableRecord] = [], token: Int64, hasMore: Bool = false, newest: Int64? = nil) {
        self.records = records
        self.unreadable = unreadable
        self.token = token
        self.hasMore = hasMore
        self.newest = newest
    }
}

/// What a cloud tells the engine between requests.
public enum CloudSignal: Sendable, Equatable {
    /// Another device changed something: pull.
    case changed
    /// The cloud's connection dropped: this device is offline now, not at its next request.
    case lost
    /// Connected (again): notifications sent meanwhile were lost, so check and sync.
    case connected
}

public enum CloudError: Error, CustomStringConvertible {
    /// The cloud cannot be reached now: keep working, retry later.
    case unreachable(String)
    /// Connected, but this device may not write.
    case readOnly
    /// The cloud refused or failed in a way retrying the same request may not fix.
    case failed(String)
    /// The cloud database itself is damaged: nothing this device sends is at fault.
    case damaged(String)

    public var description: String {
        switch self {
        case .unreachable(let detail): "The cloud is unreachable: \(detail)"
        case .readOnly: "This device may only read from the cloud."
        case .failed(let detail): "The cloud refused the request: \(detail)"
        case .damaged(let detail): "The cloud database is damaged: \(detail)"
        }
    }
}

/// Where `--cloud` points: nowhere, a SQLite file, or a PostgreSQL server.
public enum CloudAddress: Sendable, Equatable, CustomStringConvertible {
    case none
    case sqlite(path: String)
    case postgres(PostgresAddress)

    public struct PostgresAddress: Sendable, Equatable {
        public var host: String
        public var port: Int
        public var username: String
        public var password: String?
        public var database: String?
    }

    /// Reads `none`, `sqlite:PATH` or `postgres://user:pass@host:port/db`.
    public static func parse(_ text: String) throws -> CloudAddress {
        let value = text.trimmingCharacters(in: .whitespaces)
        if value.isEmpty || value == "none" { return .none }
        if value.hasPrefix("sqlite:") {
            let path = String(value.dropFirst("sqlite:".count))
            guard !path.isEmpty else { throw CloudAddressError("sqlite: needs a file path, e.g. sqlite:data/cloud.sqlite") }
            return .sqlite(path: path)
        }
        if value.hasPrefix("postgres://") || value.hasPrefix("postgresql://") {
            guard let url = URLComponents(string: value), let host = url.host, !host.isEmpty else {
                throw CloudAddressError("not a PostgreSQL address: write postgres://user:password@host:5432/database")
            }
            guard let user = url.user, !user.isEmpty else {
                throw CloudAddressError("the PostgreSQL address needs a user name: postgres://user@host/database")
            }
            let database = url.path.split(separator: "/").first.map(String.init)
            return .postgres(PostgresAddress(host: host, port: url.port ?? 5432, username: user, password: url.password, database: database))
        }
        throw CloudAddressError("unknown cloud \"\(value)\": use none, sqlite:PATH or postgres://user:password@host:port/database")
    }

    public var description: String {
        switch self {
        case .none: "none"
        case .sqlite(let path): "sqlite:\(path)"
        case .postgres(let address): "postgres://\(address.username)@\(address.host):\(address.port)/\(address.database ?? "")"
        }
    }
}

public struct CloudAddressError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
