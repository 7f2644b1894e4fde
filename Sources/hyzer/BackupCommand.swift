import ArgumentParser
import Foundation
import HyzerCore
import HyzerStore
import Synchronization

/// `hyzer backup …`: make, list, verify and restore backups of a data directory. Making,
/// listing and verifying are safe while the server runs; a restore from here needs the
/// server stopped (a running server restores from /admin, which answers "restoring" meanwhile).
struct Backup: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Make, list, verify and restore backups (data/backups/*.tar.gz).",
        subcommands: [Create.self, List.self, Verify.self, Restore.self]
    )

    struct Location: ParsableArguments {
        @Option(help: "Folder holding domain.sqlite and sync.sqlite. (HYZER_DATA_DIR)")
        var dataDir: String = Environment.value("HYZER_DATA_DIR") ?? "./data"

        var url: URL { URL(fileURLWithPath: dataDir) }

        /// The backups folder of an existing data directory (a mistyped path is an error, not
        /// a new empty folder).
        func folder() throws -> BackupFolder {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw CommandFailure("There is no data directory at \(url.path).")
            }
            return BackupFolder(dataDirectory: url)
        }
    }

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Back up both databases now (online: the server may keep running), then verify the backup.")
        @OptionGroup var location: Location

        func run() async throws {
            _ = try location.folder()
            let (stores, lock) = try await openStores(location.url)
            defer { withExtendedLifetime(lock) {} }
            let progress = ProgressLine()
            let record = try await failing { try await stores.createBackup(reason: .manual, progress: progress.show) }
            progress.done()
            print("Backup \(record.id): \(Format.bytes(record.archiveBytes)), \(record.manifest?.recordCounts.summary ?? ""), verified.")
            print(stores.backups.url.appendingPathComponent(record.id).path)
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the backups, newest first.")
        @OptionGroup var location: Location

        func run() async throws {
            let records = try location.folder().records()
            if records.isEmpty { print("No backups yet. Make one with: hyzer backup create") }
            let formatter = ISO8601DateFormatter()
            for record in records {
                let state = record.isVerified ? "verified" : "FAILED: \(record.failure ?? "unknown")"
                let counts = record.manifest?.recordCounts.summary ?? ""
                print(
                    "\(record.id)\t\(formatter.string(from: record.createdAt))\t\(Format.bytes(record.archiveBytes))\t\(record.manifest?.reason.rawValue ?? "")\t\(state)\t\(counts)"
                )
            }
        }
    }

    struct Verify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Check a backup file: checksum, decompression, SQLite integrity and record counts.")
        @Argument(help: "A backup file (a name in data/backups or any path).") var file: String
        @OptionGroup var location: Location

        func run() async throws {
            let folder = try location.folder()
            let progress = ProgressLine()
            let manifest = try await failing { try await folder.verify(resolve(file, in: folder), progress: progress.show) }
            progress.done()
            print(
                "OK: backup of \(ISO8601DateFormatter().string(from: manifest.createdAt)) from device \(manifest.deviceID.lowercasedText): \(manifest.recordCounts.summary); schemas \(manifest.files.map { "\($0.name) \($0.schema)" }.joined(separator: ", "))."
            )
        }
    }

    struct Restore: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Replace this data directory's club data with a backup's (a safety backup of the current data is made first).",
            discussion:
                "Stop the server first, or restore from /admin while it runs. Moving to a new machine: copy the file there and run this with a fresh --data-dir, then start the server."
        )
        @Argument(help: "A backup file (a name in data/backups or any path).") var file: String
        @OptionGroup var location: Location

        func run() async throws {
            guard let lock = try DataDirectoryLock.acquire(location.url) else {
                throw CommandFailure(
                    "The server is running on \(location.dataDir). Restore from /admin (Backups) while it runs, or stop it and run this again.")
            }
            defer { withExtendedLifetime(lock) {} }
            let folder = BackupFolder(dataDirectory: location.url)
            let source = resolve(file, in: folder)
            let progress = ProgressLine()
            do {
                let stores = try await Stores(directory: location.url)
                let report = try await failing { try await stores.restore(from: source, progress: progress.show) }
                _ = try await failing { try await stores.backUpRestoredData(progress: progress.show) }
                progress.done()
                print("Restored the backup of \(report.manifest.summary).")
                print("The data before it is in the safety backup \(report.safetyBackup.id). Records newer in the cloud come back at the next sync.")
            } catch StoreError.unrecoverable, StoreError.damaged {
                // domain.sqlite cannot be opened: the backup replaces it, and it is moved aside.
                let (stores, manifest) = try await failing {
                    try await Stores.restoreOverDamaged(directory: location.url, from: source, progress: progress.show)
                }
                _ = try await failing { try await stores.backUpRestoredData(progress: progress.show) }
                progress.done()
                print("domain.sqlite was damaged and has been moved aside; restored the backup of \(manifest.summary).")
            }
        }
    }
}

/// A name in the backups folder, or a path.
private func resolve(_ file: String, in folder: BackupFolder) -> URL {
    if BackupFolder.isValidName(file), !file.contains("/") {
        let inFolder = folder.url.appendingPathComponent(file)
        if FileManager.default.fileExists(atPath: inFolder.path) { return inFolder }
    }
    return URL(fileURLWithPath: file)
}

/// Turns backup and store refusals into a readable message and exit code 1.
private func failing<T>(_ work: () async throws -> T) async throws -> T {
    do {
        return try await work()
    } catch let error as BackupError {
        throw CommandFailure(error.description)
    } catch let error as StoreError {
        throw CommandFailure(error.description)
    } catch let error as CocoaError where error.code == .fileReadNoSuchFile || error.code == .fileNoSuchFile {
        throw CommandFailure("No such file: \(error.userInfo[NSFilePathErrorKey] ?? "")")
    }
}

/// Opens a data directory's stores from a command. While the server runs (it holds the
/// lock), nothing damaged is repaired from here; when it is stopped, the command holds the
/// lock itself until it ends, so the server cannot start halfway through.
func openStores(_ directory: URL) async throws -> (Stores, DataDirectoryLock?) {
    let lock = try DataDirectoryLock.acquire(directory)
    do {
        return (try await Stores(directory: directory, mayRepair: lock != nil), lock)
    } catch let error as StoreError {
        throw CommandFailure(error.description)
    }
}

/// Progress on standard error, so that results on standard output stay clean in a pipe: on
/// a terminal one line rewritten in place (step, percent, bytes), otherwise a line per step.
final class ProgressLine: Sendable {
    private let terminal = isatty(STDERR_FILENO) != 0
    private let lastStep = Mutex<String?>(nil)

    var show: @Sendable (BackupProgress) -> Void {
        { [self] progress in
            let isNewStep = lastStep.withLock { last in
                defer { last = progress.step }
                return last != progress.step
            }
            if terminal {
                let bytes = progress.total > 4096 ? "  \(Format.bytes(progress.done)) / \(Format.bytes(progress.total))" : ""
                let line = "\r\u{1B}[2K\(progress.step)  \(progress.percent)%\(bytes)"
                FileHandle.standardError.write(Data(line.utf8))
            } else if isNewStep {
                FileHandle.standardError.write(Data((progress.step + "\n").utf8))
            }
        }
    }

    func done() {
        if terminal { FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8)) }
    }
}

/// A refusal told as one line, without the usage text a ValidationError adds.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
