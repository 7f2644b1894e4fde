import Foundation
import HyzerCore

/// `data/backups/`: each archive with a JSON sidecar (`NAME.json`) holding its verification
/// result and manifest. The sidecar is written last, atomically: an archive without one is a
/// backup that never finished, and is not offered.
public struct BackupFolder: Sendable {
    public let url: URL

    init(url: URL) {
        self.url = url
    }

    /// The backups folder of a data directory, for commands that need no database.
    public init(dataDirectory: URL) {
        url = dataDirectory.appendingPathComponent("backups")
    }

    static let archiveSuffix = ".tar.gz"

    /// A new archive name for a backup made at `date`, e.g. `hyzer-20261122-101500-123Z.tar.gz`.
    func newName(at date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss-SSS"
        let stem = "hyzer-\(formatter.string(from: date))Z"
        var name = stem + Self.archiveSuffix
        var counter = 1
        while FileManager.default.fileExists(atPath: url.appendingPathComponent(name).path) {
            counter += 1
            name = "\(stem)-\(counter)\(Self.archiveSuffix)"
        }
        return name
    }

    /// Whether a name is one of ours: nothing from a URL or a form reaches the disk otherwise.
    public static func isValidName(_ name: String) -> Bool {
        name.hasPrefix("hyzer-") && name.hasSuffix(archiveSuffix) && name.count < 80
            && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") } && !name.contains("..")
    }

    public func archive(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// The record of a file when it is one of this folder's backups.
    func record(at file: URL) -> BackupRecord? {
        guard file.deletingLastPathComponent().standardizedFileURL.path == url.standardizedFileURL.path else { return nil }
        return record(file.lastPathComponent)
    }
    func sidecar(_ name: String) -> URL { url.appendingPathComponent(name + ".json") }

    func save(_ record: BackupRecord) throws {
        try BackupCoding.encoder.encode(record).write(to: sidecar(record.id), options: .atomic)
    }

    /// The backup's record, nil when it has none. A record that cannot be read is listed as
    /// a failed backup saying why: never hidden, never offered for restore.
    public func record(_ name: String) -> BackupRecord? {
        guard Self.isValidName(name) else { return nil }
        let file = sidecar(name)
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        do {
            return try BackupCoding.decoder.decode(BackupRecord.self, from: Data(contentsOf: file))
        } catch {
            let attributes = try? FileManager.default.attributesOfItem(atPath: file.path)  // quiet: only the date shown
            return BackupRecord(
                id: name, createdAt: attributes?[.modificationDate] as? Date ?? .distantPast, archiveBytes: 0, archiveSHA256: "",
                status: .failed, failure: "its record \(file.lastPathComponent) cannot be read: \(error)", manifest: nil)
        }
    }

    /// Every finished backup, newest first.
    public func records() -> [BackupRecord] {
        // quiet: the folder is made at start; if it cannot be listed, the next backup fails
        // writing into it, with the reason, on the admin page and in the log.
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.filter { $0.hasSuffix(Self.archiveSuffix + ".json") }
            .compactMap { record(String($0.dropLast(5))) }
            .sorted { ($0.createdAt, $0.id) > ($1.createdAt, $1.id) }
    }

    public func newestVerified() -> BackupRecord? {
        records().first(where: \.isVerified)
    }

    /// The newest backup an automatic recovery may start from (see `isOwnRecoveryPoint`).
    public func newestRecoveryPoint() -> BackupRecord? {
        records().first(where: \.isOwnRecoveryPoint)
    }

    /// Removes what an interrupted backup, upload or restore left: scratch folders, partial
    /// uploads, and archives whose sidecar was never written. Only for the process that
    /// holds the data directory's lock (nothing else can be writing here then).
    func removeLeftovers() {
        // quiet: tidying scratch files; what is not removed now is removed at the next start.
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        let names_ = Set(names)
        for name in names
        where name.hasPrefix(".work-") || name.hasPrefix(".upload-")
            || (name.hasSuffix(Self.archiveSuffix) && !names_.contains(name + ".json"))
        {
            try? FileManager.default.removeItem(at: url.appendingPathComponent(name))  // quiet: as above
        }
    }

    /// Deletes what the retention rule does not keep. Returns the names deleted.
    @discardableResult
    func prune(_ retention: BackupRetention, now: Date) -> [String] {
        let all = records()
        let keep = retention.keep(all.map { .init(id: $0.id, createdAt: $0.createdAt, verified: $0.isVerified) }, now: now)
        var deleted: [String] = []
        for record in all where !keep.contains(record.id) {
            // The sidecar goes first: a leftover archive without one is never offered.
            // quiet: a file not deleted is a backup kept longer, never one lost.
            try? FileManager.default.removeItem(at: sidecar(record.id))
            try? FileManager.default.removeItem(at: archive(record.id))  // quiet: as above
            deleted.append(record.id)
        }
        return deleted
    }

    /// A scratch folder inside the backups folder (same file system, so moves are renames).
    func workFolder() throws -> URL {
        let work = url.appendingPathComponent(".work-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        return work
    }
}

/// JSON for manifests and sidecars: ISO 8601 times with milliseconds, so a record read back
/// equals the one written.
enum BackupCoding {
    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(formatter.string(from: date))
        }
        return encoder
    }

    static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            guard let date = formatter.date(from: text) ?? ISO8601DateFormatter().date(from: text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not an ISO 8601 time: \(text)"))
            }
            return date
        }
        return decoder
    }

    private static var formatter: ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }
}
