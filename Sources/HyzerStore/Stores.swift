import Foundation

/// The two SQLite files of one instance, opened once for the whole process.
public struct Stores: Sendable {
    public let domain: DomainStore
    public let operational: OperationalStore
    public let directory: URL

    public static let domainFileName = "domain.sqlite"
    public static let operationalFileName = "sync.sqlite"

    public init(directory: URL, now: @escaping @Sendable () -> Date = { Date() }) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.directory = directory
        operational = try OperationalStore(path: directory.appendingPathComponent(Self.operationalFileName).path)
        domain = try DomainStore(
            path: directory.appendingPathComponent(Self.domainFileName).path,
            deviceID: try operational.deviceID(), outbox: operational, now: now
        )
        try domain.ensureClubSettings()
    }

    /// Puts the two files back in step after a crash: the domain write and its outbox entry
    /// are two transactions in two files, so a local change may be missing from the outbox
    /// (queue it) and an entry may be stuck in flight (push it again; pushes are idempotent).
    /// Returns how many records were queued.
    @discardableResult
    public func reconcile() async throws -> Int {
        try operational.resetInFlight()
        let queued = try operational.versions()
        // Only this device's own writes can be missing: whatever carries another device's
        // clock arrived from the cloud, which already has it.
        let device = domain.deviceID
        let missing = try await domain.recordVersions().filter { type, id, hlc in
            hlc.deviceID == device && (queued["\(type.rawValue)/\(id)"].map { $0 < hlc } ?? true)
        }
        try operational.enqueue(missing)
        return missing.count
    }
}
