import Crypto
import Foundation
import GRDB
import HyzerCore

/// One backup file: `manifest.json`, `domain.sqlite` and `sync.sqlite` in a gzip-compressed
/// tar. Everything here is blocking file work; callers run it off the server's threads.
enum BackupArchive {
    static let manifestName = "manifest.json"
    static let databaseNames = [Stores.domainFileName, Stores.operationalFileName]
    static var entryNames: Set<String> { Set(databaseNames + [manifestName]) }

    static func migrator(for name: String) -> DatabaseMigrator {
        name == Stores.domainFileName ? DomainMigrations.migrator : OperationalMigrations.migrator
    }

    /// Size, digest, schema and row counts of a database copy.
    static func describe(_ copy: URL, name: String) throws -> BackupManifest.File {
        let queue = try DatabaseQueue(path: copy.path)
        let (schema, counts) = try queue.read { db in
            let schema = try migrator(for: name).appliedMigrations(db).last ?? "none"
            var counts: [String: Int] = [:]
            for table in try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name")
            {
                counts[table] = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table.quotedDatabaseIdentifier)") ?? 0
            }
            return (schema, counts)
        }
        try queue.close()
        return BackupManifest.File(name: name, bytes: try size(of: copy), sha256: try sha256(of: copy), schema: schema, counts: counts)
    }

    /// Writes the archive and syncs it to disk.
    static func write(_ manifest: BackupManifest, from work: URL, to archive: URL, progress: (BackupProgress) -> Void) throws {
        let manifestData = try BackupCoding.encoder.encode(manifest)
        // Every byte the archive holds: headers, contents and their padding, and the end.
        let sizes = [Int64(manifestData.count)] + manifest.files.map(\.bytes)
        let total = sizes.reduce(Int64(Tar.end.count)) { $0 + Int64(Tar.block) + $1 + Int64(Tar.padding(after: $1).count) }
        let writer = try Gzip.Writer(to: archive)
        func entry(_ name: String, size: Int64) throws {
            try writer.write(Tar.header(name: name, size: size, modified: manifest.createdAt))
        }
        try entry(manifestName, size: Int64(manifestData.count))
        try writer.write(manifestData + Tar.padding(after: Int64(manifestData.count)))
        for file in manifest.files {
            try entry(file.name, size: file.bytes)
            let input = try FileHandle(forReadingFrom: work.appendingPathComponent(file.name))
            defer { try? input.close() }
            while let data = try input.read(upToCount: Gzip.chunk), !data.isEmpty {
                try writer.write(data)
                progress(BackupProgress(step: "compress", done: writer.bytesIn, total: total))
            }
            try writer.write(Tar.padding(after: file.bytes))
        }
        try writer.write(Tar.end)
        try writer.finish()
    }

    /// Opens an archive into `work` and checks everything it claims: each copy's digest and
    /// size, `PRAGMA integrity_check`, and the row counts of its manifest. Returns the
    /// manifest; throws `BackupError.damaged` with the first thing found wrong.
    static func verify(_ archive: URL, into work: URL, progress: (BackupProgress) -> Void) throws -> BackupManifest {
        let archiveBytes = try size(of: archive)
        let tar = work.appendingPathComponent("archive.tar")
        // Hyzer's databases compress four- to tenfold; fifty leaves room, and a bomb stops.
        try Gzip.decompress(archive, to: tar, limit: max(256 << 20, archiveBytes * 50)) { read in
            progress(BackupProgress(step: "decompress", done: read, total: archiveBytes))
        }
        let names = try Tar.extract(tar, into: work, allowed: entryNames)
        try? FileManager.default.removeItem(at: tar)  // quiet: scratch; the work folder goes as a whole
        guard names.contains(manifestName) else { throw BackupError.damaged("it has no manifest") }
        let manifest: BackupManifest
        do {
            manifest = try BackupCoding.decoder.decode(BackupManifest.self, from: Data(contentsOf: work.appendingPathComponent(manifestName)))
        } catch {
            throw BackupError.damaged("its manifest cannot be read")
        }
        guard manifest.format <= BackupManifest.currentFormat else {
            throw BackupError.damaged("it was written in format \(manifest.format), newer than this Hyzer reads (\(BackupManifest.currentFormat))")
        }
        for (index, expected) in manifest.files.enumerated() {
            progress(BackupProgress(step: "check \(expected.name)", done: Int64(index), total: Int64(manifest.files.count)))
            let copy = work.appendingPathComponent(expected.name)
            guard names.contains(expected.name) else { throw BackupError.damaged("\(expected.name) is missing") }
            guard try size(of: copy) == expected.bytes else { throw BackupError.damaged("\(expected.name) has the wrong size") }
            guard try sha256(of: copy) == expected.sha256 else { throw BackupError.damaged("\(expected.name) does not match its SHA-256") }
            try refuseForeignCode(copy, name: expected.name)
            try checkIntegrity(copy, name: expected.name)
            let found = try describe(copy, name: expected.name)
            guard found.counts == expected.counts else {
                let differing = expected.counts.keys.sorted().filter { found.counts[$0] != expected.counts[$0] }
                throw BackupError.damaged("\(expected.name) has other row counts than its manifest (\(differing.joined(separator: ", ")))")
            }
            guard found.schema == expected.schema else {
                throw BackupError.damaged("\(expected.name) is at schema \(found.schema), but its manifest claims \(expected.schema)")
            }
        }
        guard Set(manifest.files.map(\.name)) == Set(databaseNames) else { throw BackupError.damaged("it does not hold both databases") }
        // The device a manifest names is the one whose sync.sqlite it carries. (When it was made
        // and why cannot be checked: pages show those as the file's claim.)
        if let device = try deviceID(in: work.appendingPathComponent(Stores.operationalFileName)), device != manifest.deviceID {
            throw BackupError.damaged("its manifest names device \(manifest.deviceID.text), but its sync.sqlite belongs to \(device.text)")
        }
        progress(BackupProgress(step: "verified", done: archiveBytes, total: archiveBytes))
        return manifest
    }

    /// Views and triggers are the schema's only objects that run queries. A crafted file could
    /// bring one that never ends (a recursive view in place of the migrations table), so before
    /// anything but the schema is read, a copy may hold no view and no trigger but Hyzer's own,
    /// exactly as its migrator writes them (the full schema is compared after migrating).
    static func refuseForeignCode(_ copy: URL, name: String) throws {
        let queue = try DatabaseQueue(path: copy.path)
        defer { try? queue.close() }
        let code: Set<String>
        do {
            code = Set(try queue.read(StoreFile.codeObjects))
        } catch let error as DatabaseError {
            throw BackupError.damaged("\(name) cannot be read: \(error.message ?? "\(error)")")
        }
        let own = Set(try StoreFile.expectedCode(migrator(for: name)))
        if let foreign = code.subtracting(own).sorted().first {
            throw BackupError.damaged("\(name) holds \(foreign.split(separator: " ").prefix(2).joined(separator: " ")), which Hyzer does not write")
        }
    }

    /// The device a copy of `sync.sqlite` belongs to, if it has one.
    static func deviceID(in copy: URL) throws -> UUID? {
        let queue = try DatabaseQueue(path: copy.path)
        defer { try? queue.close() }
        return try queue.read { db in
            guard try db.tableExists("device") else { return nil }
            return try String.fetchOne(db, sql: "SELECT id FROM device WHERE singleton = 1").flatMap(UUID.init(text:))
        }
    }

    static func checkIntegrity(_ copy: URL, name: String) throws {
        do {
            let queue = try DatabaseQueue(path: copy.path)
            let result = try queue.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
            try queue.close()
            guard result == ["ok"] else {
                throw BackupError.damaged("\(name) fails SQLite's integrity check: \(result.prefix(3).joined(separator: "; "))")
            }
        } catch let error as DatabaseError {
            throw BackupError.damaged("\(name) fails SQLite's integrity check: \(error.message ?? "\(error)")")
        }
    }

    static func sha256(of url: URL) throws -> String {
        let input = try FileHandle(forReadingFrom: url)
        defer { try? input.close() }
        var hasher = SHA256()
        while let data = try input.read(upToCount: Gzip.chunk), !data.isEmpty { hasher.update(data: data) }
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }

    static func size(of url: URL) throws -> Int64 {
        Int64((try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.int64Value ?? 0)
    }
}
