import Foundation
import HyzerCore
import HyzerStore
import HyzerSync
import Logging

/// Everything the server needs to start, decided once at the top (CLI flags and HYZER_*
/// variables) and passed down; nothing below reads the environment.
public struct AppConfiguration: Sendable {
    public var host: String
    /// 0 picks a free port; the chosen one is logged and reported to `onServerRunning`.
    public var port: Int
    public var dataDirectory: URL
    /// The folder holding `Templates/` and `Public/`.
    public var resourcesDirectory: URL
    public var seedDemo: Bool
    public var logLevel: Logger.Level
    /// How often an idle live stream gets a keep-alive comment.
    public var heartbeatInterval: Duration
    /// The shared cloud database; `.none` keeps this device to itself.
    public var cloud: CloudAddress
    /// How long a PostgreSQL cloud may take to answer a new connection.
    public var cloudConnectTimeout: Duration = .seconds(5)
    public var sync: SyncEngine.Configuration
    /// bcrypt's work factor for new passwords (4…31).
    public var bcryptCost: UInt8
    /// How long a sign-in lasts.
    public var sessionLifetime: Duration
    /// Mark cookies `Secure`: set when Hyzer is served over TLS (behind a proxy).
    public var secureCookies: Bool
    /// Who may frame the TV page (`frame-ancestors`), e.g. a digital-signage origin.
    public var tvFrameAncestors: String
    /// How often a backup is made; nil: never on a schedule (on demand only).
    public var backupInterval: Duration?
    public var backupRetention: BackupRetention
    /// `--backup-copy-to`: a folder elsewhere each verified backup is also copied to.
    public var backupCopyFolder: URL? = nil
    /// The largest backup file the admin page accepts for upload.
    public var maxBackupUpload: Int
    /// The names `Host` may carry; nil: the listen address, localhost and this machine's names.
    public var allowedHosts: [String]? = nil
    /// A new connection must have sent a whole request head within this time.
    public var headerTimeout: Duration = .seconds(10)
    /// A connection that reads nothing for this long, with no response being written, is closed.
    /// Live streams are exempt: their heartbeats keep them open.
    public var idleTimeout: Duration = .seconds(60)
    /// Connections served at once; more wait in the accept queue. nil: as many as the open-file
    /// limit leaves room for (the stores and backups keep 256 descriptors). Live streams never
    /// take the last tenth of them (`StreamShares`).
    public var maxConnections: Int? = nil
    /// Live streams one client address may hold open; 0: no limit. A venue's Wi-Fi puts every
    /// phone behind one address, so the default is generous.
    public var maxStreamsPerClient = 1000
    /// Proxies whose `X-Forwarded-For` names the client (addresses or networks); none by default.
    public var trustedProxies: [String] = []
    /// When set, `/metrics` answers only `Authorization: Bearer <this>` (or a signed-in admin);
    /// when nil, it follows the leaderboards' rule (anyone when they are public).
    public var metricsToken: String? = nil
    /// The address people reach this server at (`--public-url`), for invite and setup links;
    /// nil: the address the inviter is browsing from.
    public var publicURL: String? = nil
    /// The key form tokens are signed with; nil: the one kept in the data directory (`form-key`),
    /// or in a cluster the one derived from the cluster secret.
    public var formTokenKey: FormTokenKey? = nil
    /// Instances sharing a PostgreSQL cloud and this secret act as one site (`--cluster-secret`):
    /// sessions, form tokens and API tokens are the cluster's, and a write's redirect reads it
    /// on whichever instance it lands. nil: this device keeps its own.
    public var clusterSecret: String? = nil
    /// How long a request carrying a version it has seen (a write's `Hyzer-Seen`) waits for this
    /// instance to have pulled it, and a write waits for its push, before answering anyway.
    public var readYourWritesWait: Duration = .seconds(2)

    /// Why `clusterSecret` cannot be used with `cloud`, if it cannot.
    public static func clusterProblem(secret: String?, cloud: CloudAddress) -> String? {
        guard let secret else { return nil }
        guard case .postgres = cloud else {
            return "--cluster-secret needs a PostgreSQL cloud (--cloud postgres://…) shared by every instance of the cluster."
        }
        guard secret.count >= 16, !secret.contains(where: \.isWhitespace) else {
            return "--cluster-secret must be at least 16 characters with no spaces (e.g. from `openssl rand -hex 32`), the same on every instance."
        }
        return nil
    }

    public init(
        host: String = "127.0.0.1", port: Int = 8080, dataDirectory: URL = URL(fileURLWithPath: "data"),
        resourcesDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
        seedDemo: Bool = false, logLevel: Logger.Level = .info, heartbeatInterval: Duration = .seconds(15),
        cloud: CloudAddress = .none, sync: SyncEngine.Configuration = .init(),
        bcryptCost: UInt8 = 12, sessionLifetime: Duration = .seconds(14 * 24 * 3600), secureCookies: Bool = false,
        tvFrameAncestors: String = "'none'",
        backupInterval: Duration? = .seconds(3600), backupRetention: BackupRetention = .init(), maxBackupUpload: Int = 2 << 30
    ) {
        self.backupInterval = backupInterval
        self.backupRetention = backupRetention
        self.maxBackupUpload = maxBackupUpload
        self.bcryptCost = bcryptCost
        self.sessionLifetime = sessionLifetime
        self.secureCookies = secureCookies
        self.tvFrameAncestors = tvFrameAncestors
        self.cloud = cloud
        self.sync = sync
        self.heartbeatInterval = heartbeatInterval
        self.host = host
        self.port = port
        self.dataDirectory = dataDirectory
        self.resourcesDirectory = resourcesDirectory
        self.seedDemo = seedDemo
        self.logLevel = logLevel
    }

    var hosts: AllowedHosts { allowedHosts.map(AllowedHosts.init) ?? .defaults(listeningOn: host) }

    var connectionLimit: Int {
        if let maxConnections { return max(1, maxConnections) }
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        return max(64, Int(min(limit.rlim_cur, 1 << 20)) - 256)
    }

    var templatesDirectory: URL { resourcesDirectory.appendingPathComponent("Templates") }
    var publicDirectory: URL { resourcesDirectory.appendingPathComponent("Public") }
}

/// A configuration the server cannot start with, said in the flags' words.
public struct ConfigurationError: Error, CustomStringConvertible {
    public let description: String
}
