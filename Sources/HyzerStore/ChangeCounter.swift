import GRDB
import Synchronization

/// Counts the committed transactions that changed the tables it follows: the user's data
/// (any table but the outbox, whose sync bookkeeping no page shows) for cached pages, or one
/// kind of thing (players, club settings, API tokens, sessions) for values kept while it
/// stands still (`KeptValues`) and for the access of open live streams. Bumped on the writer, at the
/// commit, before the write returns: whoever reads the count after a write returned sees it
/// moved, so nothing kept under an older count is served after it (read-your-writes). It sees
/// this process's commits only.
final class ChangeCounter: TransactionObserver, Sendable {
    private let count = Atomic<UInt64>(0)
    /// Touched only on the writer's queue, one transaction at a time.
    private let changed = Mutex(false)
    private let tables: Set<String>
    private let watching: Bool
    /// Columns whose updates alone do not count (a token's last use).
    private let ignoredColumns: Set<String>

    /// Counts commits that change any table but these.
    init(ignoring tables: Set<String>, exceptUpdatesOf columns: Set<String> = []) {
        self.tables = tables
        watching = false
        ignoredColumns = columns
    }

    /// Counts commits that change one of these tables.
    init(watching tables: Set<String>, exceptUpdatesOf columns: Set<String> = []) {
        self.tables = tables
        watching = true
        ignoredColumns = columns
    }

    var value: UInt64 { count.load(ordering: .acquiring) }

    /// Whether the write transaction `db` is in has changed what this counts without having
    /// committed: the count does not say so yet, so nothing read in it may be kept under the
    /// count (a board read while reopening a season's night kept the completed round under
    /// the new version). Readers' connections never are.
    func isAhead(in db: Database) -> Bool {
        !db.configuration.readonly && db.isInsideTransaction && changed.withLock { $0 }
    }

    /// For changes made outside any transaction it sees (a restore replacing the file).
    func bump() {
        count.add(1, ordering: .releasing)
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        guard tables.contains(eventKind.tableName) == watching else { return false }
        if case .update(_, let columns) = eventKind, !columns.isEmpty, columns.isSubset(of: ignoredColumns) { return false }
        return true
    }

    func databaseDidChange(with event: DatabaseEvent) {
        changed.withLock { $0 = true }
    }

    func databaseDidCommit(_ db: Database) {
        if changed.withLock({ flag in
            defer { flag = false }
            return flag
        }) {
            bump()
        }
    }

    func databaseDidRollback(_ db: Database) {
        changed.withLock { $0 = false }
    }
}
