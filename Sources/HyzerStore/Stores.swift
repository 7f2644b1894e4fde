import Foundation
import GRDB

/// The two SQLite files of one instance, opened once for the whole process: the one
/// entrance to the data. Everything that reads or writes either file goes through here.
public final class Stores: Sendable {
    public let domain: DomainStore
    public let operational: OperationalStore
    public let directory: URL
    /// Where a damaged `sync.sqlite` was moved before it was rebuilt on this start.
    public let damagedOperationalFile: URL?

    public static let domainFileName = "domain.sqlite"
    public static let operationalFileName = "sync.sqlite"

    public init(directory: URL, now: @escaping @Sendable () -> Date = { Date() }) async throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // Everything is opened into locals and assigned at the end: a throw never leaves a
        // half-initialized value behind.
        let (operational, damaged) = try Self.openOperational(in: directory)
        let domain = try DomainStore(
            path: directory.appendingPathComponent(Self.domainFileName).path,
            deviceID: try await operational.deviceID(), outbox: operational, now: now
        )
        try await domain.ensureClubSettings()
        self.directory = directory
        self.operational = operational
        self.damagedOperationalFile = damaged
        self.domain = domain
    }

    /// Opens `sync.sqlite`. A damaged one is bookkeeping only: it is moved aside (never
    /// deleted) and a fresh one started; the reconcile on start then queues every record
    /// again for an idempotent push.
    private static func openOperational(in directory: URL) throws -> (OperationalStore, URL?) {
        let path = directory.appendingPathComponent(operationalFileName).path
        do {
            return (try OperationalStore(path: path), nil)
        } catch let error as DatabaseError where [.SQLITE_CORRUPT, .SQLITE_NOTADB].contains(error.resultCode.primaryResultCode) {
            let aside = directory.appendingPathComponent("\(operationalFileName).damaged-\(Int(Date().timeIntervalSince1970))")
            for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
                try FileManager.default.moveItem(atPath: path + suffix, toPath: aside.path + suffix)
            }
            return (try OperationalStore(path: path), aside)
        }
    }

    /// Puts the two files back in step after a crash: the domain write and its outbox entry
    /// are two transactions in two files, so a local change may be missing from the outbox
    /// (queue it) and an entry may be stuck in flight (push it again; pushes are idempotent).
    /// Returns how many records were queued.
    @discardableResult
    public func reconcile() async throws -> Int {
        try await operational.resetInFlight()
        let queued = try await operational.versions()
        // Only this device's own writes can be missing: whatever carries another device's
        // clock arrived from the cloud, which already has it. After a rebuilt sync.sqlite
        // nothing is known, so everything goes (pushes are idempotent).
        let device = domain.deviceID
        let everything = damagedOperationalFile != nil
        let missing = try await domain.recordVersions().filter { type, id, hlc in
            (everything || hlc.deviceID == device) && (queued["\(type.rawValue)/\(id)"].map { $0 < hlc } ?? true)
        }
        try await operational.enqueue(missing)
        return missing.count
    }
}
