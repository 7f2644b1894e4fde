import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import HyzerStore

/// Where the club's copies are (#37, item 12): /admin names the backups' folder, says when
/// they and an embedded cloud sit on the data's own disk, and `--backup-copy-to` copies each
/// verified backup to a folder elsewhere, checked byte for byte.
@Suite struct BackupOffSiteTests {
    @Test func eachBackupIsCopiedToTheFolderElsewhere() async throws {
        let copies = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-copies-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: copies) }
        try await withApp(configure: { $0.backupCopyFolder = copies }) { client in
            let admin = client.as(.admin)
            #expect(try await admin.postForm("/admin/backups", []).status == .seeOther)
            let record = try #require(admin.backupsFolder.records().first)
            let copied = copies.appendingPathComponent(record.id)
            #expect(try Data(contentsOf: copied) == Data(contentsOf: admin.backupsFolder.archive(record.id)))
            #expect(try FileManager.default.contentsOfDirectory(atPath: copies.path) == [record.id], "no partial file left")
            let page = try await admin.get("/admin").text
            #expect(page.contains("Each verified backup is also copied to <code>\(copies.path)</code>") && page.contains("Last copied"))
            // A temporary folder is on the data's disk too: said so.
            #expect(page.contains("is on the same disk as the data: choose a folder on another drive"))
        }
    }

    @Test func theAdminPageSaysWhenNothingIsOffSite() async throws {
        try await withApp(configure: { $0.cloud = .sqlite(path: $0.dataDirectory.appendingPathComponent("cloud.sqlite").path) }) { client in
            let page = try await client.as(.admin).get("/admin").text
            #expect(page.contains("Backups are in <code>/") && !page.contains("<code>data/backups/</code>"))
            #expect(page.contains("They are on the same disk as the club&#39;s data"))
            #expect(page.contains("This cloud is a file on this machine's own disk"))
        }
    }
}
