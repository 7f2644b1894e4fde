import Foundation
import GRDB
import HyzerCore

/// A page of cloud changes ready to apply (`DomainStore.prepareRemote`).
public struct PreparedRemote: Sendable {
    enum Change: Sendable {
        case scoreEvent(ScoreEventRecord, roundID: UUID)
        case other(RemoteChange)
    }

    let changes: [Change]
    /// Records that cannot be read: kept in the quarantine in the same transaction.
    let unreadable: [UnreadableRecord]
    /// Kept records read at last (by a newer build): out of the quarantine as they apply.
    let released: [UnreadableRecord]
    public var isEmpty: Bool { changes.isEmpty && unreadable.isEmpty && released.isEmpty }
}

/// What applying a page of cloud records changed here.
public struct RemoteApplyResult: Sendable {
    public var applied = 0
    /// Records newly kept in the quarantine (or newer versions of kept ones).
    public var quarantined = 0
    public var rounds: Set<UUID> = []
}

extension DomainStore {
    // MARK: Club settings

    /// Creates the club settings singleton with clock-zero defaults when it is missing, so
    /// every device has one from its first start and any real edit wins over a default.
    func ensureClubSettings() async throws {
        let defaults = ClubSettingsPayload.defaults(deviceID: deviceID)
        _ = try await write(queueing: { $0 ? [(.clubSettings, ClubSettingsPayload.sentinelID, defaults.newest)] : [] }) { db in
            guard try Self.settings(db) == nil else { return false }
            try Self.writeSettings(defaults, db)
            return true
        }
    }

    /// Read on every page request (access rules): kept while the settings have not changed.
    public func clubSettings() async throws -> ClubSettingsPayload {
        let (kept, count) = keptSettings.lookup(.club)
        if let kept { return kept }
        let settings = try await pool.read { db in try Self.settings(db) ?? .defaults(deviceID: self.deviceID) }
        keptSettings.keep(settings, for: .club, readAt: count)
        return settings
    }

    /// Changes some club settings; each changed field gets its own clock reading, so edits
    /// of different fields on two devices both survive the merge.
    /// `publicURL`: "" clears it.
    public func updateClubSettings(
        clubName: String? = nil, tvPageSeconds: Int? = nil, publicLeaderboards: Bool? = nil, openSignUp: Bool? = nil, publicURL: String? = nil,
        currency: String? = nil, publicPots: Bool? = nil
    ) async throws -> ClubSettingsPayload {
        let stamp = tick()
        return try await write(queueing: { [(.clubSettings, ClubSettingsPayload.sentinelID, $0.newest)] }) { db in
            var settings = try Self.settings(db) ?? .defaults(deviceID: self.deviceID)
            // Only fields that change get the new clock: a form that re-sends the others must
            // not win them over another device's edit.
            if let clubName, clubName != settings.clubName.value { settings.clubName = StampedValue(clubName, hlc: stamp) }
            if let tvPageSeconds, tvPageSeconds != settings.tvPageSeconds.value { settings.tvPageSeconds = StampedValue(tvPageSeconds, hlc: stamp) }
            if let publicLeaderboards, publicLeaderboards != settings.publicLeaderboards.value {
                settings.publicLeaderboards = StampedValue(publicLeaderboards, hlc: stamp)
            }
            if let openSignUp, openSignUp != settings.allowsOpenSignUp { settings.openSignUp = StampedValue(openSignUp, hlc: stamp) }
            if let publicURL, publicURL != (settings.publicAddress ?? "") { settings.publicURL = StampedValue(publicURL, hlc: stamp) }
            if let currency, currency != settings.currencyCode { settings.currency = StampedValue(currency, hlc: stamp) }
            if let publicPots, publicPots != settings.showsPots { settings.publicPots = StampedValue(publicPots, hlc: stamp) }
            try Self.writeSettings(settings, db)
            return settings
        }
    }

    static func settings(_ db: Database) throws -> ClubSettingsPayload? {
        guard let data = try Data.fetchOne(db, sql: "SELECT payload FROM club_settings WHERE id = ?", arguments: [ClubSettingsPayload.sentinelID])
        else { return nil }
        return try RecordCoding.decode(ClubSettingsPayload.self, data)
    }

    static func writeSettings(_ settings: ClubSettingsPayload, _ db: Database) throws {
        try db.execute(
            sql:
                "INSERT INTO club_settings (id, payload, updatedAt) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET payload = excluded.payload, updatedAt = excluded.updatedAt",
            arguments: [ClubSettingsPayload.sentinelID, try RecordCoding.encode(settings), settings.newest.description])
    }

    // MARK: Pushing

    static func cloudRecord(_ type: RecordType, _ id: String, _ db: Database) throws -> CloudRecord? {
        if type.declaration.removable, let removed = try tombstone(type, id, db) {
            return CloudRecord(type: type, id: id, hlc: removed, payload: try RecordCoding.encode(RemovalPayload()))
        }
        return try type.stored.stored(id, db)?.cloudRecord()
    }

    /// When this device deleted (or learnt of the deletion of) a record, if it did.
    static func tombstone(_ type: RecordType, _ id: String, _ db: Database) throws -> HLC? {
        try String.fetchOne(
            db.cachedStatement(sql: "SELECT removedAt FROM tombstones WHERE recordType = ? AND recordID = ?"), arguments: [type.rawValue, id]
        )
        .flatMap(HLC.init)
    }

    /// True when a deletion at least as new as `hlc` is recorded here: an older copy of the
    /// record must not come back. A newer copy (edited elsewhere after) lifts the tombstone.
    static func buried(_ type: RecordType, _ id: String, olderThan hlc: HLC, _ db: Database) throws -> Bool {
        guard let removed = try tombstone(type, id, db) else { return false }
        if removed >= hlc { return true }
        try db.execute(sql: "DELETE FROM tombstones WHERE recordType = ? AND recordID = ?", arguments: [type.rawValue, id])
        return false
    }

    /// Every record's version, to find local changes a crash kept out of the outbox.
    public func recordVersions() async throws -> [(RecordType, String, HLC)] {
        try await pool.read { db in
            var result: [(RecordType, String, HLC)] = []
            let removals = try Row.fetchCursor(db, sql: "SELECT recordType, recordID, removedAt FROM tombstones")
            while let row = try removals.next() {
                if let type = RecordType(rawValue: row[0]), let hlc = HLC(row[2]) { result.append((type, row[1], hlc)) }
            }
            for (type, table, version) in VersionedTables.all {
                let rows = try Row.fetchCursor(db, sql: "SELECT id, \(version) FROM \(table)")
                while let row = try rows.next() {
                    if let hlc = HLC(row[1]) { result.append((type, row[0], hlc)) }
                }
            }
            return result
        }
    }

    // MARK: Pulling

    /// Sets how the writer checkpoints and caches: `.bulkLoad` while an empty device takes a
    /// first sync of more than a page, `.everyday` again after.
    public func tuneWriter(_ tuning: StoreFile.WriterTuning) async throws {
        try await pool.writeWithoutTransaction { db in try tuning.apply(db) }
    }

    /// Applies records from the cloud in one transaction, with the same rules the cloud
    /// uses: events are inserted if absent, mutable records replace older versions only,
    /// settings merge field by field. The versions of affected rounds go up, which is how
    /// the live leaderboards learn of them. Every received clock reading advances ours.
    public func applyRemote(_ changes: [RemoteChange]) async throws -> RemoteApplyResult {
        try await applyRemote(prepareRemote(changes))
    }

    /// Readies a page for `applyRemote`: every received clock reading advances ours, the
    /// changes are put in apply order, and score events (nearly all of a first sync) are put
    /// in their stored form. A pull does this while the page before is being written, so the
    /// single writer is left with the SQLite work alone.
    public func prepareRemote(
        _ changes: [RemoteChange], unreadable: [UnreadableRecord] = [], releasing released: [UnreadableRecord] = []
    ) -> PreparedRemote {
        let wall = now().millisecondsSince1970
        clock.withLock { clock in
            for change in changes { clock.receive(change.hlc, wallMillis: wall) }
        }
        // One pass per apply order present (a page of a first sync is nearly all score
        // events): stable like a sort, without a sorted copy of tens of thousands of changes.
        var prepared: [PreparedRemote.Change] = []
        prepared.reserveCapacity(changes.count)
        for order in Set(changes.map(\.type.applyOrder)).sorted() {
            for change in changes where change.type.applyOrder == order {
                if change.type == .scoreEvent, let event = change.value as? ScoreEvent {
                    prepared.append(.scoreEvent(ScoreEventRecord(event), roundID: event.roundID))
                } else {
                    prepared.append(.other(change))
                }
            }
        }
        return PreparedRemote(changes: prepared, unreadable: unreadable, released: released)
    }

    public func applyRemote(_ prepared: PreparedRemote) async throws -> RemoteApplyResult {
        try await pool.write { db in
            try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
            var result = RemoteApplyResult()
            // Score events (nearly all of a page) go in together, many to a statement.
            var events: [ScoreEventRecord] = []
            var eventRounds: [UUID] = []
            func storeEvents() throws {
                guard !events.isEmpty else { return }
                var offset = 0
                try ScoreEventRecord.insertIfAbsent(events, db) { chunk, stored in
                    defer { offset += chunk.count }
                    guard stored > 0 else { return }
                    result.applied += stored
                    // A page holds a round's events in a row: one set insertion per run. When
                    // only some of a statement's events were new, its rounds all count as
                    // changed: a version moved for nothing costs one render, never a score.
                    var last: UUID?
                    for round in eventRounds[offset..<offset + chunk.count] where round != last {
                        result.rounds.insert(round)
                        last = round
                    }
                }
                events.removeAll(keepingCapacity: true)
                eventRounds.removeAll(keepingCapacity: true)
            }
            for record in prepared.released {
                try db.execute(
                    sql: "DELETE FROM quarantine WHERE recordType = ? AND recordID = ? AND hlc = ?", arguments: [record.type, record.id, record.hlc])
            }
            // A readable row of a kept record makes the kept one moot. Score events are never in
            // question: stored once, a readable one never follows an unreadable one.
            let releasing = try Self.hasQuarantine(db)
            for change in prepared.changes {
                switch change {
                case .scoreEvent(let row, let roundID):
                    events.append(row)
                    eventRounds.append(roundID)
                case .other(let change):
                    try storeEvents()
                    if try Self.apply(change, db, into: &result) { result.applied += 1 }
                    if releasing { try Self.release(change.type, change.recordID, db) }
                }
            }
            try storeEvents()
            result.quarantined = try Self.quarantine(prepared.unreadable, at: now(), db)
            for roundID in result.rounds {
                try db.execute(sql: "UPDATE rounds SET version = version + 1 WHERE id = ?", arguments: [roundID.text])
            }
            return result
        }
    }

    /// Applies one change; true when it changed something.
    static func apply(_ change: RemoteChange, _ db: Database, into result: inout RemoteApplyResult) throws -> Bool {
        guard let value = change.value else { return try applyRemoval(change.type, change.recordID, change.hlc, db, into: &result) }
        guard let stored = value as? any StoredRecord else { throw StoreError.notFound("A record type this store does not keep") }
        return try stored.apply(db, into: &result)
    }

    /// A record removed on another device: deleted here unless a newer version or removal is.
    static func applyRemoval(_ type: RecordType, _ id: String, _ hlc: HLC, _ db: Database, into result: inout RemoteApplyResult) throws -> Bool {
        let table = try Self.table(of: type)
        if let local = try String.fetchOne(db, sql: "SELECT \(type.stored.versionColumn) FROM \(table) WHERE id = ?", arguments: [id]).flatMap(
            HLC.init),
            local >= hlc
        {
            return false
        }
        if let removed = try tombstone(type, id, db), removed >= hlc { return false }
        if type == .round { result.rounds.remove(UUID(text: id) ?? UUID()) }
        try db.execute(sql: "DELETE FROM \(table) WHERE id = ?", arguments: [id])
        try db.execute(
            sql: "INSERT OR REPLACE INTO tombstones (recordType, recordID, removedAt) VALUES (?, ?, ?)",
            arguments: [type.rawValue, id, hlc.description])
        return true
    }
}
