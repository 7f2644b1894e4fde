import Crypto
import Foundation
import HyzerCore
import HyzerStore
import Logging
import Synchronization

/// Password hashes between the instances of a cluster: sealed (AES-GCM under a key derived
/// from the cluster's secret, bound to the player's id) in every player record pushed, and
/// opened in every one pulled, so a copy of the cloud database holds no bcrypt hash to crack.
///
/// Devices sharing a cloud without a cluster secret have no key in common: their records carry
/// the hash as it is, or every account could sign in on one device only.
///
/// A hash this instance cannot open (another secret, or none) is never taken as a password:
/// the record's other fields apply, the account keeps the hash it had here, and it is logged.
public struct PasswordSeal: Sendable {
    static let prefix = "hyzer-sealed:v1:"
    static let marker = Data(prefix.utf8)

    /// nil: nothing is sealed (no cluster), and sealed hashes pulled cannot be opened.
    let key: SymmetricKey?

    public init(keys: ClusterKeys?) {
        key = keys?.sealKey
    }

    public var seals: Bool { key != nil }

    func sealed(_ hash: String, player: String) throws -> String {
        guard let key, !hash.hasPrefix(Self.prefix) else { return hash }
        let box = try AES.GCM.seal(Data(hash.utf8), using: key, authenticating: Data(player.utf8))
        guard let combined = box.combined else { throw CloudError.failed("AES-GCM gave no combined form") }
        return Self.prefix + combined.base64EncodedString()
    }

    /// The hash inside `text`, or nil when it does not open with this instance's key.
    func opened(_ text: String, player: String) -> String? {
        guard text.hasPrefix(Self.prefix) else { return text }
        // A hash that does not open is the answer (nil), and the caller logs the refusal.
        guard let key, let combined = Data(base64Encoded: String(text.dropFirst(Self.prefix.count))),
            let box = try? AES.GCM.SealedBox(combined: combined),  // quiet: see above
            let plain = try? AES.GCM.open(box, using: key, authenticating: Data(player.utf8))  // quiet: see above
        else { return nil }
        return String(decoding: plain, as: UTF8.self)
    }

    /// A player record as it leaves this instance: its hash sealed.
    func outgoing(_ record: CloudRecord) throws -> CloudRecord {
        // quiet: a payload that does not decode leaves unchanged; the pull that reads it keeps it unread.
        guard seals, record.type == .player, var payload = try? RecordCoding.decode(PlayerPayload.self, record.payload),
            let hash = payload.passwordHash
        else { return record }
        payload.passwordHash = try sealed(hash, player: record.id)
        var record = record
        record.payload = try RecordCoding.encode(payload)
        return record
    }

    /// A player record as it is applied here: its hash opened, or, when it does not open, the
    /// hash this instance has for the player (`local`), and `refused` is true.
    func incoming(_ record: CloudRecord, local: (String) async throws -> String?) async throws -> (record: CloudRecord, refused: Bool) {
        guard record.type == .player, record.payload.range(of: Self.marker) != nil,
            // quiet: a payload that does not decode goes on as it is: the pull keeps it unread.
            var payload = try? RecordCoding.decode(PlayerPayload.self, record.payload), let hash = payload.passwordHash
        else { return (record, false) }
        var refused = false
        if let opened = opened(hash, player: record.id) {
            payload.passwordHash = opened
        } else {
            payload.passwordHash = try await local(record.id)
            refused = true
        }
        var record = record
        record.payload = try RecordCoding.encode(payload)
        return (record, refused)
    }

    /// Whether a stored payload carries a hash in the clear (written before hashes were sealed).
    static func carriesPlainHash(_ payload: Data) -> Bool {
        // quiet: a payload that does not decode carries no hash to seal.
        guard let hash = (try? RecordCoding.decode(PlayerPayload.self, payload))?.passwordHash else { return false }
        return !hash.hasPrefix(prefix)
    }
}

/// The cloud as the sync engine sees it: player records pass through `PasswordSeal` on their
/// way out and in; everything else is the wrapped cloud's.
public final class SealingCloud: CloudDatabase {
    let base: any CloudDatabase
    let seal: PasswordSeal
    let stores: Stores
    let zone: String
    let logger: Logger
    /// Player records left in the clear by earlier versions are sealed once per process.
    private let resealed = Mutex(false)

    public init(_ base: any CloudDatabase, seal: PasswordSeal, stores: Stores, zone: String, logger: Logger) {
        self.base = base
        self.zone = zone
        self.seal = seal
        self.stores = stores
        self.logger = logger
    }

    public var displayName: String { base.displayName }

    public func resolveAccount() async -> AccountStatus {
        let status = await base.resolveAccount()
        if status == .available, seal.seals, let postgres = base as? PostgresCloud, !resealed.withLock({ $0 }) {
            do {
                let count = try await postgres.rewritePlayers(zone: zone) { record in
                    PasswordSeal.carriesPlainHash(record.payload) ? try self.seal.outgoing(record).payload : nil
                }
                resealed.withLock { $0 = true }
                if count > 0 { logger.notice("Sealed the password hashes the cloud held in the clear", metadata: ["players": "\(count)"]) }
            } catch {
                logger.warning(
                    "Could not seal the password hashes the cloud holds in the clear; trying again at the next check", metadata: ["error": "\(error)"]
                )
            }
        }
        return status
    }

    public func save(_ records: [CloudRecord], zone: String) async throws -> Int {
        try await base.save(records.map(seal.outgoing), zone: zone)
    }

    public func changes(zone: String, after token: Int64, limit: Int) async throws -> ChangePage {
        var page = try await base.changes(zone: zone, after: token, limit: limit)
        for index in page.records.indices where page.records[index].type == .player {
            // A failed read of the local player fails the pull (tried again at the next sync):
            // taken as "no such player", it would wipe the password this instance has.
            let (record, refused) = try await seal.incoming(page.records[index]) { id in
                guard let id = UUID(text: id), let player = try await self.stores.domain.player(id), player.id == id else { return nil }
                return player.passwordHash
            }
            if refused {
                logger.error(
                    "A player's password hash from the cloud does not open with this instance's cluster secret: the account keeps the password it had here (is every instance given the same --cluster-secret?)",
                    metadata: ["player": "\(record.id)"])
            }
            page.records[index] = record
        }
        return page
    }

    public func changeCount(zone: String, after token: Int64) async throws -> Int {
        try await base.changeCount(zone: zone, after: token)
    }

    public func hints(zone: String) -> AsyncStream<CloudSignal> {
        base.hints(zone: zone)
    }

    public func position(zone: String) async throws -> Int64? {
        try await base.position(zone: zone)
    }

    public func claimIdentity(handle: String, proposed recordName: String, zone: String) async throws -> String {
        try await base.claimIdentity(handle: handle, proposed: recordName, zone: zone)
    }
}
