import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HyzerCore
import NIOCore
import Synchronization
import Testing

@testable import HyzerStore
@testable import HyzerWeb

@Suite struct BackupPageTests {
    @Test func theAdminPageShowsBackupStateAndTheCloudSide() async throws {
        try await withApp { client in
            let admin = client.as(.admin)
            let empty = try await admin.get("/admin").text
            #expect(empty.contains("There is no verified backup of this machine"))
            #expect(try await admin.postForm("/admin/backups", []).status == .seeOther)
            let page = try await admin.get("/admin").text
            #expect(page.contains("Last verified backup:"))
            #expect(page.contains("9 players, 1 course, 1 round,"), "the demo round and the three test users")
            #expect(page.contains("/admin/backups/hyzer-"))
            #expect(page.contains("Restore…"))
            // No cloud: the backups are the only other copy.
            #expect(page.contains("No cloud is configured"))
            #expect(page.contains("kept: the newest 24 plus one a day for 30 days"))
            #expect(!page.contains("There is no verified backup of this machine"))
        }
    }

    @Test func anOldBackupRaisesTheWarningAndAFailedOneShowsItsReason() async throws {
        try await withApp(configure: { $0.backupInterval = .seconds(3600) }) { client in
            let admin = client.as(.admin)
            // The scheduler makes the first backup at start.
            try await waitUntil { try await admin.get("/admin").text.contains("Last verified backup:") }
            let folder = admin.backupsFolder
            var record = try #require(folder.records().first)
            #expect(!(try await admin.get("/admin").text.contains("older than twice the backup interval")))
            record.createdAt = Date(timeIntervalSinceNow: -3 * 3600)
            try folder.save(record)
            #expect(try await admin.get("/admin").text.contains("older than twice the backup interval"))

            let garbage = try await admin.upload(ByteBuffer(string: "not a backup at all"))
            #expect(garbage.status == .unprocessableContent)
            let page = try await admin.get("/admin").text
            #expect(page.contains("Failed backups"))
            #expect(page.contains("the compressed data is damaged") || page.contains("truncated"))
        }
    }

    @Test func downloadUploadConfirmAndRestore() async throws {
        try await withApp { client in
            let admin = client.as(.admin)
            let roundID = try await client.demoRoundID()
            #expect(try await admin.postForm("/admin/backups", []).status == .seeOther)
            let record = try #require(admin.backupsFolder.records().first)
            let download = try await admin.get("/admin/backups/\(record.id)")
            #expect(download.status == .ok)
            #expect(download.headers[.contentDisposition]?.contains(record.id) == true)
            let bytes = Data(download.body.readableBytesView)
            #expect(bytes == (try Data(contentsOf: admin.backupsFolder.archive(record.id))))

            // A score after the backup, which the restore takes away.
            let player = try #require(try await client.roundDetail(roundID).playerIDs().last)
            #expect(
                try await client.postJSON("/api/v1/rounds/\(roundID)/scores", #"{"playerID":"\#(player)","hole":18,"strokes":2}"#).status == .created)
            let before = try #require(try await client.standings(roundID)["version"] as? Int)

            let uploaded = try await admin.upload(ByteBuffer(data: bytes))
            #expect(uploaded.status == .created)
            let location = try #require(try uploaded.json()["location"] as? String)
            let confirm = try await admin.get(location)
            #expect(confirm.status == .ok)
            #expect(confirm.text.contains(Format.timestamp(try #require(record.manifest?.createdAt))))
            #expect(confirm.text.contains(try #require(record.manifest?.recordCounts.summary)))

            let name = String(location.dropFirst("/admin/backups/".count).dropLast("/restore".count))
            let unconfirmed = try await admin.postForm("/admin/backups/\(name)/restore", [])
            #expect(unconfirmed.status == .unprocessableContent)
            let restored = try await admin.postForm("/admin/backups/\(name)/restore", [("confirm", name)])
            #expect(restored.status == .seeOther)
            let standings = try await client.standings(roundID)
            #expect(standings.row(player)?["thru"] as? Int != 18)
            #expect(try #require(standings["version"] as? Int) > before)
            let page = try await admin.get("/admin").text
            #expect(page.contains("safety"), "the data before the restore is in a listed safety backup")
            #expect(page.contains("Restored the backup of"))
        }
    }

    @Test func uploadsAreCheckedBeforeAnythingIsRead() async throws {
        try await withApp(configure: { $0.maxBackupUpload = 1024 }) { client in
            let admin = client.as(.admin)
            let big = try await admin.upload(ByteBuffer(repeating: 0x1F, count: 4096))
            #expect(big.status == .contentTooLarge)
            let text = try await admin.upload(ByteBuffer(string: "hello"), type: "text/plain")
            #expect(text.status == .unsupportedMediaType)
            let forged = try await admin.upload(ByteBuffer(string: "hello"), csrf: "wrong")
            #expect(forged.status == .forbidden)
            let coach = try await client.as(.coach).upload(ByteBuffer(string: "hello"))
            #expect(coach.status == .forbidden)
            #expect(admin.backupsFolder.records().isEmpty, "nothing refused was kept")
        }
    }

    @Test func requestsDuringARestoreAreToldToComeBack() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-web-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (web, _, _) = try await assemble(testConfiguration(directory), logger: .init(label: "test"))
        let users = try await TestUsers.create(in: directory)
        try await Application(router: buildRouter(web)).test(.router) { raw in
            let client = Client(raw: raw, users: users)
            let stores = web.stores
            stores.activity.withLock { $0 = .restoring(since: Date()) }
            for path in ["/", "/tv", "/admin", "/sync"] {
                let page = try await client.get(path)
                #expect(page.status == .serviceUnavailable)
                #expect(page.headers[.retryAfter] == "5")
                #expect(page.text.contains("Restoring a backup"))
            }
            let api = try await client.get("/api/v1/rounds")
            #expect(api.status == .serviceUnavailable)
            #expect(api.headers[.contentType] == "application/problem+json")
            #expect(try await client.postJSON("/api/v1/rounds/x/scores", "{}").status == .serviceUnavailable)
            stores.activity.withLock { $0 = .idle }
            #expect(try await client.get("/").status == .ok)
        }
    }
}

extension Client {
    /// The app's backups folder (files: the test reads what the app wrote).
    var backupsFolder: BackupFolder { BackupFolder(url: users.directory.appendingPathComponent("backups")) }

    func upload(_ body: ByteBuffer, type: String = "application/gzip", csrf: String = Client.formToken) async throws -> TestResponse {
        var headers: HTTPFields = [.contentType: type, .accept: "application/json", .cookie: "\(CSRF.cookieName)=\(Client.formToken)"]
        headers[CSRF.headerName] = csrf
        return try await execute(uri: "/admin/backups/upload", method: .post, headers: headers, body: body)
    }
}

/// Polls an HTTP condition the server makes true by itself (bounded: 10 s).
func waitUntil(_ condition: () async throws -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(10)
    while try await !condition() {
        guard ContinuousClock.now < deadline else {
            Issue.record("condition not met within 10 s")
            return
        }
        try await Task.sleep(for: .milliseconds(20))
    }
}

/// Found by an attacker's pass over backups.
@Suite struct BackupSecurityTests {
    @Test func aSessionCookieIsNotInSyncSqliteOrItsBackups() async throws {
        try await withApp { client in
            let (cookie, _) = try await AccountTests.signIn(client.as(.anonymous), client.users.coach)
            let value = String(try #require(cookie.components(separatedBy: "hyzer_session=").last).prefix { $0 != ";" })
            #expect(value.count > 20)
            let raw =
                try Data(contentsOf: client.users.directory.appendingPathComponent("sync.sqlite"))
                + ((try? Data(contentsOf: client.users.directory.appendingPathComponent("sync.sqlite-wal"))) ?? Data())
            #expect(raw.range(of: Data(value.utf8)) == nil, "the cookie value is stored only as a digest")
            // And the session still works.
            #expect(try await client.as(.anonymous).get("/sync", headers: [.cookie: "hyzer_session=\(value)"]).status == .ok)
        }
    }

    @Test func aSetupLinkOpensNothingOnceTheClubHasAnAdmin() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-web-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (web, _, token) = try await assemble(testConfiguration(directory, seedDemo: false), logger: .init(label: "test"))
        let link = try #require(token)
        // An admin arrives (from the cloud after a refill, or made on the command line).
        let users = try await TestUsers.create(in: directory)
        try await Application(router: buildRouter(web)).test(.router) { raw in
            let browser = Client(raw: raw, users: users).as(.anonymous)
            #expect(try await browser.get("/setup?token=\(link)").status == .forbidden)
            let made = try await browser.postForm(
                "/setup",
                [
                    ("token", link), ("displayName", "Mallory"), ("handle", "mallory"),
                    ("password", "mallory password 1"), ("confirm", "mallory password 1"),
                ])
            #expect(made.status == .forbidden)
            #expect(try await web.stores.domain.player(handle: Handle(trusted: "mallory")) == nil)
        }
    }
}
