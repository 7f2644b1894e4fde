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
            deviceID: try operational.deviceID(), now: now
        )
    }
}
