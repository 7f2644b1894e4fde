import Foundation

/// What a backup holds, written into the archive beside the two database copies: enough to
/// verify it anywhere (a new machine included) without the folder it was made in.
public struct BackupManifest: Codable, Sendable, Equatable {
    public struct File: Codable, Sendable, Equatable {
        /// `domain.sqlite` or `sync.sqlite`.
        public var name: String
        public var bytes: Int64
        public var sha256: String
        /// The newest migration applied to the copy.
        public var schema: String
        /// Rows per table in the copy.
        public var counts: [String: Int]

        public init(name: String, bytes: Int64, sha256: String, schema: String, counts: [String: Int]) {
            self.name = name
            self.bytes = bytes
            self.sha256 = sha256
            self.schema = schema
            self.counts = counts
        }
    }

    public static let currentFormat = 1

    public var format: Int
    public var createdAt: Date
    public var deviceID: UUID
    public var reason: BackupReason
    public var files: [File]

    public init(createdAt: Date, deviceID: UUID, reason: BackupReason, files: [File]) {
        format = Self.currentFormat
        self.createdAt = createdAt
        self.deviceID = deviceID
        self.reason = reason
        self.files = files
    }

    public func file(_ name: String) -> File? { files.first { $0.name == name } }

    /// "2026-11-22T10:15:00Z (12 players, …)": a backup named as logs and store events name it.
    public var summary: String {
        "\(ISO8601DateFormatter().string(from: createdAt)) (\(recordCounts.summary))"
    }

    /// The club's records in the copy: what a person means by "how much is in it".
    public var recordCounts: RecordCounts {
        let counts = file("domain.sqlite")?.counts ?? [:]
        return RecordCounts(
            players: counts["players"] ?? 0, courses: counts["courses"] ?? 0,
            rounds: counts["rounds"] ?? 0, scoreEvents: counts["score_events"] ?? 0)
    }
}

public struct RecordCounts: Sendable, Equatable {
    public var players: Int
    public var courses: Int
    public var rounds: Int
    public var scoreEvents: Int

    public init(players: Int, courses: Int, rounds: Int, scoreEvents: Int) {
        self.players = players
        self.courses = courses
        self.rounds = rounds
        self.scoreEvents = scoreEvents
    }

    public var summary: String {
        func count(_ n: Int, _ one: String, _ many: String) -> String { "\(n) \(n == 1 ? one : many)" }
        return [
            count(players, "player", "players"), count(courses, "course", "courses"), count(rounds, "round", "rounds"),
            count(scoreEvents, "score event", "score events"),
        ].joined(separator: ", ")
    }
}

public enum BackupReason: String, Codable, Sendable {
    case scheduled, manual
    /// The data a restore replaced, taken in the same moment.
    case safety
    /// The data just restored, taken right after a restore: what a later recovery starts from.
    case restored
}

/// The state of one backup file as its sidecar records it. Only verified backups are offered
/// for restore; a failed one is kept, with its reason, for someone to look at.
public struct BackupRecord: Codable, Sendable, Equatable, Identifiable {
    public enum Status: String, Codable, Sendable { case verified, failed }

    /// The archive's file name in the backups folder, e.g. `hyzer-20261122T101500.123Z.tar.gz`.
    public var id: String
    public var createdAt: Date
    public var archiveBytes: Int64
    public var archiveSHA256: String
    public var status: Status
    public var failure: String?
    public var verifiedAt: Date?
    public var manifest: BackupManifest?
    /// True for a file uploaded from elsewhere: listed and restorable, but never what the
    /// schedule counts from or what an automatic recovery uses. `createdAt` is its arrival.
    public var imported: Bool?

    public init(
        id: String, createdAt: Date, archiveBytes: Int64, archiveSHA256: String, status: Status,
        failure: String? = nil, verifiedAt: Date? = nil, manifest: BackupManifest?, imported: Bool? = nil
    ) {
        self.imported = imported
        self.id = id
        self.createdAt = createdAt
        self.archiveBytes = archiveBytes
        self.archiveSHA256 = archiveSHA256
        self.status = status
        self.failure = failure
        self.verifiedAt = verifiedAt
        self.manifest = manifest
    }

    public var isVerified: Bool { status == .verified }

    /// A verified backup of this machine's own data as it was being served: what the schedule
    /// counts from, and what recovers a damaged store. Not an upload, and not the data a
    /// restore replaced.
    public var isOwnRecoveryPoint: Bool {
        isVerified && imported != true && manifest.map { $0.reason != .safety } == true
    }

    /// How much smaller the archive is than the databases it holds.
    public var compressionRatio: Double? {
        guard let manifest, archiveBytes > 0 else { return nil }
        return Double(manifest.files.reduce(0) { $0 + $1.bytes }) / Double(archiveBytes)
    }
}

/// Where a long backup step is, for a progress bar or a log line.
public struct BackupProgress: Sendable, Equatable {
    public var step: String
    public var done: Int64
    public var total: Int64

    public init(step: String, done: Int64, total: Int64) {
        self.step = step
        self.done = done
        self.total = total
    }

    public var percent: Int { total > 0 ? Int(min(100, done * 100 / total)) : 100 }
}
