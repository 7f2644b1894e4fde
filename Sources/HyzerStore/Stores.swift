import Foundation
import GRDB
import HyzerCore
import Synchronization

/// The two SQLite files of one instance, opened once for the whole process: the one
/// entrance to the data. Everything that reads or writes either file goes through here,
/// and so do backups, restores and the recovery of a damaged file.
public final class Stores: Sendable {
    public let domain: DomainStore
    public let operational: OperationalStore
    /// Local records waiting for the cloud (in `domain.sqlite`).
    public var outbox: Outbox { domain.outbox }
    public let directory: URL
    public let backups: BackupFolder
    /// Where a damaged `sync.sqlite` was moved before it was rebuilt on this start.
    public let damagedOperationalFile: URL?
    /// What was done on this start to recover a damaged `domain.sqlite`.
    public let recovery: DomainRecovery?
    let activity = Mutex(Activity.idle)
    private let refilling: Mutex<Bool>

    /// Moves with every commit that may change who may see what: the club settings, players,
    /// API tokens and sessions (the counters only grow, so neither does their sum stand still).
    /// Open live streams were allowed when they opened; when this moves they are decided again.
    public var accessStamp: UInt64 {
        domain.playerChanges.value &+ domain.settingsChanges.value &+ operational.tokenChanges.value &+ operational.sessionChanges.value
    }

    /// Who is signed in as whom, as of now: moves with `accessStamp` and with any other
    /// process's write to `sync.sqlite` (where sessions live), which no counter here sees.
    /// nil when the log cannot be read: then nothing kept on it is trusted.
    public var sessionStamp: SessionStamp? {
        FileStamp.of(operational.walPath).map { SessionStamp(access: accessStamp, wal: $0) }
    }

    public struct SessionStamp: Equatable, Sendable {
        let access: UInt64
        let wal: FileStamp
    }

    public static let domainFileName = "domain.sqlite"
    public static let operationalFileName = "sync.sqlite"

    /// Opens (creating, migrating or recovering) the files in `directory`. `cloudConfigured`
    /// says whether a damaged `domain.sqlite` may be refilled from the cloud. `mayRepair`:
    /// only the process that holds the directory's lock (the server, or a command run while
    /// it is stopped) moves damaged files aside and rebuilds or recovers them; anyone else
    /// gets an error, never a repair under a running server's feet.
    public init(
        directory: URL, cloudConfigured: Bool = false, mayRepair: Bool = true, now: @escaping @Sendable () -> Date = { Date() },
        crashPoints: CrashPoints? = nil
    ) async throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let backups = BackupFolder(dataDirectory: directory)
        try FileManager.default.createDirectory(at: backups.url, withIntermediateDirectories: true)
        if mayRepair { backups.removeLeftovers() }
        // Everything is opened into locals and assigned at the end: a throw never leaves a
        // half-initialized value behind.
        let (operational, damaged) = try Self.openOperational(in: directory, mayRepair: mayRepair)
        // A new sync.sqlite (rebuilt, or deleted by hand) takes the device's id back; one
        // that has an id keeps it.
        do {
            if let kept = try DeviceIdentityFile.read(in: directory) {
                try await operational.adopt(deviceID: kept)
            }
        } catch {
            // sync.sqlite's own id stands (a new one if it was rebuilt too); the copy is rewritten
            // below. An open that repairs nothing (a command beside the server) leaves the news
            // to the server's next start.
            if mayRepair {
                try await operational.note(
                    StoreEvent(
                        kind: .unreadableFile,
                        detail:
                            "\(DeviceIdentityFile.name) could not be read (\(error)); the device id in sync.sqlite is kept and the file written again."
                    ))
            }
        }
        let deviceID = try await operational.deviceID()
        if mayRepair { try DeviceIdentityFile.keep(deviceID, in: directory) }
        let (domain, recovery) = try await Self.openDomain(
            in: directory, backups: backups, cloudConfigured: cloudConfigured, mayRepair: mayRepair,
            open: { try DomainStore(path: $0.path, deviceID: deviceID, now: now, crashPoints: crashPoints) }
        )
        try await Self.adoptLegacyOutbox(from: operational, into: domain.outbox)
        try await domain.ensureClubSettings()
        if let damaged {
            try await operational.note(
                StoreEvent(
                    kind: .rebuiltOperational,
                    detail:
                        "sync.sqlite was damaged and rebuilt; the damaged file is kept as \(damaged.lastPathComponent). The device keeps its id and its outbox (kept in domain.sqlite); it reads the whole cloud again. Signed-in sessions, API tokens and invites of this machine had to be issued again."
                ))
        }
        if let recovery {
            try await Self.rebase(operational, domain, on: try await domain.recordVersions())
            try await operational.note(StoreEvent(kind: .recoveredDomain, detail: recovery.description))
        }
        self.directory = directory
        self.backups = backups
        self.operational = operational
        self.damagedOperationalFile = damaged
        self.recovery = recovery
        self.refilling = Mutex(recovery?.needsCloudRefill ?? false)
        self.domain = domain
    }

    /// Opens `sync.sqlite`. A damaged one is bookkeeping only: it is moved aside (never
    /// deleted) and a fresh one started; the reconcile on start then queues every record
    /// again for an idempotent push.
    private static func openOperational(in directory: URL, mayRepair: Bool) throws -> (OperationalStore, URL?) {
        let path = directory.appendingPathComponent(operationalFileName)
        do {
            return (try OperationalStore(path: path.path), nil)
        } catch  where StoreFile.isDamage(error) {
            guard mayRepair else { throw StoreError.damaged("\(path.path) is damaged; start the server (with this command stopped) to rebuild it") }
            let aside = try moveAside(path)
            return (try OperationalStore(path: path.path), aside)
        }
    }

    /// Moves a damaged file and its WAL aside (never deleted) and returns where it went.
    static func moveAside(_ file: URL) throws -> URL {
        let aside = file.deletingLastPathComponent().appendingPathComponent("\(file.lastPathComponent).damaged-\(Int(Date().timeIntervalSince1970))")
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: file.path + suffix) {
            try FileManager.default.moveItem(atPath: file.path + suffix, toPath: aside.path + suffix)
        }
        return aside
    }

    /// Puts the outbox back in step after a crash: an entry stuck in flight is pushed again
    /// (pushes are idempotent), and a local change missing from the outbox is queued. A local
    /// write queues itself in its own transaction, so only data written before the outbox
    /// moved into `domain.sqlite` can leave one missing. Returns how many were queued.
    @discardableResult
    public func reconcile() async throws -> Int {
        try await outbox.resetInFlight()
        let queued = try await outbox.versions()
        // Only this device's own writes can be missing: whatever carries another device's
        // clock arrived from the cloud, which already has it.
        let device = domain.deviceID
        let missing = try await domain.recordVersions().filter { type, id, hlc in
            hlc.deviceID == device && (queued["\(type.rawValue)/\(id)"].map { $0 < hlc } ?? true)
        }
        try await outbox.enqueue(missing)
        return missing.count
    }

    /// Moves outbox entries left in `sync.sqlite` by a version before the outbox moved into
    /// `domain.sqlite`. Copied first and deleted after: a crash in between only copies them
    /// again (a newer version wins, an equal one changes nothing).
    static func adoptLegacyOutbox(from operational: OperationalStore, into outbox: Outbox) async throws {
        let legacy = try await operational.legacyOutboxEntries()
        guard !legacy.isEmpty else { return }
        try await outbox.adopt(legacy)
        try await operational.removeLegacyOutbox()
    }

    /// After the domain data was replaced: every change token goes back to zero (the next
    /// pull reads the whole cloud, and records newer there than in the backup come back),
    /// and every record is queued unless the outbox already has the same or a newer version
    /// (the cloud then has it).
    static func rebase(_ operational: OperationalStore, _ domain: DomainStore, on records: [(RecordType, String, HLC)]) async throws {
        try await operational.resetChangeTokens()
        try await domain.outbox.resetInFlight()
        try await domain.outbox.enqueue(records)
    }
}

extension Stores {
    /// What the stores are busy with: one backup or restore at a time, and requests are
    /// answered "restoring" only while data is actually being replaced.
    enum Activity: Sendable, Equatable {
        case idle
        case backingUp
        case preparingRestore
        case restoring(since: Date)
    }

    /// Set while a restore replaces the data: the web layer answers 503 meanwhile.
    public var restoringSince: Date? {
        activity.withLock { if case .restoring(let since) = $0 { since } else { nil } }
    }

    public var isBusy: Bool { activity.withLock { $0 != .idle } }

    /// After a recovered `domain.sqlite`, true until the first pull from the cloud has
    /// brought back what the backup missed: nothing is served from the store meanwhile.
    public var isRefilling: Bool { refilling.withLock { $0 } }

    public func finishRefill() {
        refilling.withLock { $0 = false }
    }

    func begin(_ work: Activity) throws {
        try activity.withLock { current in
            guard current == .idle else { throw BackupError.busy }
            current = work
        }
    }

    func end() {
        activity.withLock { $0 = .idle }
    }
}
