import Foundation

/// Whether this device can use the cloud, as CloudKit's account status says it.
public enum AccountStatus: String, Codable, Sendable, CaseIterable {
    /// Connected with write rights: push and pull.
    case available
    /// No cloud configured (`--cloud none`): this device works alone.
    case noAccount
    /// Connected without write rights: pull only.
    case restricted
    /// Unreachable for now: keep working locally and retry.
    case temporarilyUnavailable
    /// Not known yet, or the cloud answered in a way we do not understand.
    case couldNotDetermine
    /// The cloud database itself is damaged (the embedded cloud's file is not a database).
    case damaged

    public var title: String {
        switch self {
        case .available: "Connected"
        case .noAccount: "No cloud configured"
        case .restricted: "Read-only cloud access"
        case .temporarilyUnavailable: "Cloud unreachable"
        case .couldNotDetermine: "Checking the cloud…"
        case .damaged: "Cloud database damaged"
        }
    }

    /// What a person should do about it.
    public var advice: String {
        switch self {
        case .available:
            "Scores from this device reach the other devices, and theirs arrive here."
        case .noAccount:
            "This device keeps its scores to itself. Start Hyzer with --cloud sqlite:PATH or --cloud postgres://… to share rounds with other devices."
        case .restricted:
            "This device receives other devices' scores but cannot send its own. Ask the cloud database's owner to grant this user INSERT and UPDATE rights."
        case .temporarilyUnavailable:
            "Keep scoring: everything is stored here and will be sent when the cloud is back. Check the network or the database server if this lasts."
        case .couldNotDetermine:
            "Hyzer could not tell whether the cloud is usable. It keeps trying; check the cloud address if this lasts."
        case .damaged:
            "Keep scoring: everything is stored here. The cloud database file is damaged: restore it from a backup or point --cloud at a good copy; every device then sends what the cloud lacks."
        }
    }

    public var canPull: Bool { self == .available || self == .restricted }
    public var canPush: Bool { self == .available }
}

public enum SyncState: Hashable, Sendable {
    case idle
    case syncing
    case offline
    case error(String)

    public var name: String {
        switch self {
        case .idle: "idle"
        case .syncing: "syncing"
        case .offline: "offline"
        case .error: "error"
        }
    }

    public var message: String? {
        if case .error(let message) = self { return message }
        return nil
    }
}

/// Exponential backoff with jitter for failed pushes and unreachable clouds: 1 s, 2 s, 4 s …
/// capped at 5 minutes, each scaled by a random factor in 0.5…1.0 so devices that failed
/// together do not retry together.
public enum Backoff {
    public static func delay(attempt: Int, jitter: Double) -> Double {
        let base = min(300.0, pow(2.0, Double(max(0, attempt - 1))))
        return base * (0.5 + 0.5 * min(1, max(0, jitter)))
    }
}
