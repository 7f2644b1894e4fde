import ArgumentParser
import Foundation
import HyzerCore
import HyzerStore
import HyzerSync
import HyzerWeb
import Logging
import Synchronization

/// `hyzer admin …`: account chores on this machine's data directory, safe while the server
/// runs (both use SQLite's WAL with a busy timeout).
struct Admin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Create users, issue API tokens and reset passwords on this machine.",
        subcommands: [CreateUser.self, Token.self, ResetPassword.self]
    )

    struct Location: ParsableArguments {
        @Option(help: "Folder holding domain.sqlite and sync.sqlite. (HYZER_DATA_DIR)")
        var dataDir: String = Environment.value("HYZER_DATA_DIR") ?? "./data"

        @Option(help: "In a cluster: the PostgreSQL cloud the instances share. (HYZER_CLOUD)")
        var cloud: String = Environment.value("HYZER_CLOUD") ?? Environment.value("HYZER_CLOUD_URL") ?? ""

        @Option(
            help:
                "In a cluster: its secret. Tokens are then issued, and a password reset signs out, on every instance. (HYZER_CLUSTER_SECRET)"
        )
        var clusterSecret: String?

        /// `credentials`: the command touches sessions or tokens (a token, a reset), which in a
        /// cluster are the cluster's.
        func accounts(credentials: Bool = true) async throws -> Accounts {
            // The lock, if this command took it, is released when the process ends.
            let (stores, lock) = try await openStores(URL(fileURLWithPath: dataDir))
            Self.held.withLock { $0 = lock }
            return Accounts(stores: stores, credentials: credentials ? try clusterCredentials() : nil)
        }

        /// The cluster's sessions and tokens when a secret is given; nil: this machine's. A folder
        /// whose server runs in a cluster needs the cluster's secret: a token of one instance
        /// opens nothing behind the load balancer, and a reset there signs nobody out elsewhere.
        private func clusterCredentials() throws -> ClusterCredentials? {
            try Secrets.refuseEmpty()
            let marked = try ClusterMarker.read(in: URL(fileURLWithPath: dataDir))
            guard let secret = clusterSecret ?? Environment.value("HYZER_CLUSTER_SECRET") else {
                if let marked {
                    throw ValidationError(
                        "\(dataDir) belongs to an instance of cluster \(marked): give the cluster's --cloud and --cluster-secret (or HYZER_CLOUD and HYZER_CLUSTER_SECRET), so this acts on every instance."
                    )
                }
                return nil
            }
            let keys = try ClusterKeys(secret: secret)
            if let marked, !keys.names(marked) {
                throw ValidationError(
                    "This secret is not the one of cluster \(marked), which \(dataDir) belongs to (it gives cluster \(keys.clusterID)).")
            }
            let address: CloudAddress
            do { address = try CloudAddress.parse(cloud) } catch { throw ValidationError("--cloud: \(error)") }
            if let problem = AppConfiguration.clusterProblem(secret: secret, cloud: address) { throw ValidationError(problem) }
            guard case .postgres(let postgresAddress) = address else { return nil }
            let logger = Logger(label: "hyzer-admin")
            let postgres = PostgresCloud(address: postgresAddress, logger: logger)
            // The connection pool runs until the command ends.
            Self.pool.withLock { $0 = Task { try? await postgres.run() } }
            return ClusterCredentials(cloud: postgres, keys: keys, logger: logger)
        }

        private static let held = Mutex<DataDirectoryLock?>(nil)
        private static let pool = Mutex<Task<Void, Never>?>(nil)
    }

    struct CreateUser: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "create-user",
            abstract: "Create a user who can sign in. The password is read from standard input, or generated and printed when it is a terminal."
        )
        @Argument(help: "The handle, e.g. ann.lee") var handle: String
        @Option(help: "athlete, coach or admin.") var role: String = "athlete"
        @Option(help: "Display name (default: the handle).") var name: String?
        @OptionGroup var location: Location

        func validate() throws {
            guard Role(rawValue: role) != nil else { throw ValidationError("--role must be athlete, coach or admin.") }
        }

        func run() async throws {
            let (password, generated) = Password.read()
            let player = try await report {
                // An account is a record like any other: it reaches the cluster by sync.
                try await location.accounts(credentials: false).createUser(
                    displayName: name ?? handle, handle: handle, role: Role(rawValue: role) ?? .athlete, password: password)
            }
            print("Created @\(player.handle) (\(player.role.rawValue)).")
            if generated { print("Password: \(password)") }
        }
    }

    struct Token: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print a new API token for a user (stored hashed; listed and revocable on /admin).")
        @Argument(help: "The user's handle.") var handle: String
        @Option(help: "What the token is for, shown on /admin.") var name: String = "command line"
        @OptionGroup var location: Location

        func run() async throws {
            let token = try await report { try await location.accounts().issueToken(handle: handle, name: name) }
            print(token)
        }
    }

    struct ResetPassword: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reset-password",
            abstract: "Set a new password (for a locked-out admin). Read from standard input, or generated and printed on a terminal."
        )
        @Argument(help: "The user's handle.") var handle: String
        @OptionGroup var location: Location

        func run() async throws {
            let (password, generated) = Password.read()
            let player = try await report { try await location.accounts().resetPassword(handle: handle, password: password) }
            print("New password set for @\(player.handle).")
            if generated { print("Password: \(password)") }
        }
    }
}

enum Password {
    /// From a pipe, the first line; on a terminal, a new random one (printed by the caller).
    static func read() -> (String, generated: Bool) {
        if isatty(STDIN_FILENO) == 0, let line = readLine(strippingNewline: true), !line.isEmpty {
            return (line, false)
        }
        return (String(Secret.make().prefix(20)), true)
    }
}

/// Runs an account change and turns its refusal into a readable message and exit code 1.
func report<T>(_ work: () async throws -> T) async throws -> T {
    do {
        return try await work()
    } catch let errors as FieldErrors {
        throw ValidationError(errors.entries.map(\.message).joined(separator: " "))
    } catch StoreError.notFound(let what) {
        throw ValidationError("\(what) was not found.")
    }
}

enum Secrets {
    /// `HYZER_CLUSTER_SECRET=` with nothing after it (an unreadable secret file, say) is a
    /// mistake, not "no cluster": an instance started so would form a cluster of one.
    static func refuseEmpty() throws {
        if ProcessInfo.processInfo.environment["HYZER_CLUSTER_SECRET"]?.isEmpty == true {
            throw ValidationError("HYZER_CLUSTER_SECRET is set but empty: give the cluster's secret, or unset it to run on your own.")
        }
    }
}
