import Foundation

public enum BackupError: Error, Equatable, CustomStringConvertible {
    /// Verification found the file wrong: the reason says what.
    case damaged(String)
    case notFound(String)
    /// The backup failed its verification and is kept for inspection only.
    case notRestorable(String)
    /// Another backup or restore is running.
    case busy
    /// The store is being refilled from the cloud after a recovery: not the club's data yet.
    case notReady

    /// What went wrong, without the preamble: what a failed backup's sidecar records.
    public var reason: String {
        if case .damaged(let reason) = self { reason } else { description }
    }

    public var description: String {
        switch self {
        case .damaged(let reason): "The backup is damaged: \(reason)."
        case .notFound(let name): "There is no backup named \(name)."
        case .notRestorable(let name): "\(name) failed its verification and cannot be restored."
        case .busy: "A backup or restore is already running; try again when it has finished."
        case .notReady: "The store is being refilled from the cloud after a recovery; back up once that is done."
        }
    }
}
