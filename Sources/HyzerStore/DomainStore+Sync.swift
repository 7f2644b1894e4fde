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
        clubName: String? = nil, tvPageSeconds: Int? = nil, publicLeaderboards: Bool? = nil, openSignUp: Bool? = nil, publicURL: String? = nil
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
        if Removals.removable(type), let removed = try tombstone(type, id, db) {
            return CloudRecord(type: type, id: id, hlc: removed, payload: try RecordCoding.encode(RemovalPayload()))
        }
        switch type {
        case .player:
            guard let player = try PlayerRecord.fetchOne(db, key: id)?.domain() else { return nil }
            return CloudRecord(type: type, id: id, hlc: player.updatedAt, payload: try RecordCoding.encode(PlayerPayload(player)))
        case .course:
            guard let record = try CourseRecord.fetchOne(db, key: id) else { return nil }
            let course = try course(record, db)
            return CloudRecord(type: type, id: id, hlc: course.updatedAt, payload: try RecordCoding.encode(CoursePayload(course)))
        case .round:
            guard let round = try RoundRecord.round(id, db) else { return nil }
            return CloudRecord(type: type, id: id, hlc: round.updatedAt, payload: try RecordCoding.encode(RoundPayload(round)))
        case .scoreEvent:
            guard let row = try Row.fetchOne(db, sql: "SELECT \(ScoreEventRecord.columns) FROM score_events WHERE id = ?", arguments: [id]) else {
                return nil
            }
            let event = try ScoreEventRecord.event(row)
            return CloudRecord(type: type, id: id, hlc: event.recordedAt, payload: try RecordCoding.encode(ScoreEventPayload(event)))
        case .clubSettings:
            guard let settings = try settings(db) else { return nil }
            return CloudRecord(type: type, id: id, hlc: settings.newest, payload: try RecordCoding.encode(settings))
        case .event:
            guard let event = try EventRecord.fetchOne(db, key: id)?.domain() else { return nil }
            return CloudRecord(type: type, id: id, hlc: event.updatedAt, payload: try RecordCoding.encode(EventPayload(event)))
        case .signature:
            guard let signature = try SignatureRecord.fetchOne(db, key: id)?.domain() else { return nil }
            return CloudRecord(type: type, id: id, hlc: signature.signedAt, payload: try RecordCoding.encode(SignaturePayload(signature)))
        case .season:
            guard let season = try SeasonRecord.fetchOne(db, key: id)?.domain() else { return nil }
            return CloudRecord(type: type, id: id, hlc: season.updatedAt, payload: try RecordCoding.encode(SeasonPayload(season)))
        case .checkIn:
            guard let checkIn = try CheckInRecord.fetchOne(db, key: id)?.domain() else { return nil }
            return CloudRecord(type: type, id: id, hlc: checkIn.updatedAt, payload: try RecordCoding.encode(CheckInPayload(checkIn)))
        case .feePayment:
            guard let payment = try FeePaymentRecord.fetchOne(db, key: id)?.domain() else { return nil }
            return CloudRecord(type: type, id: id, hlc: payment.recordedAt, payload: try RecordCoding.encode(FeePaymentPayload(payment)))
        case .frozenHandicap:
            guard let frozen = try FrozenHandicapRecord.fetchOne(db, key: id)?.domain() else { return nil }
            return CloudRecord(type: type, id: id, hlc: frozen.frozenAt, payload: try RecordCoding.encode(FrozenHandicapPayload(frozen)))
        }
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
                if case .scoreEvent(let event) = change {
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
            // A readable version of a kept record makes the kept one moot. Score events are
            // never in question: stored once, a readable one never follows an unreadable one.
            let releasing = try Self.hasQuarantine(db)
            for change in prepared.changes {
                switch change {
                case .scoreEvent(let row, let roundID):
                    events.append(row)
                    eventRounds.append(roundID)
                case .other(let change):
                    try storeEvents()
                    if try Self.apply(change, db, into: &result) { result.applied += 1 }
                    if releasing { try Self.release(change.type, change.recordID, through: change.hlc, db) }
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
        switch change {
        case .scoreEvent(let event):
            guard try ScoreEventRecord(event).insert(ifAbsent: true, db) else { return false }
            result.rounds.insert(event.roundID)
            return true

        case .player(let player):
            let id = player.id.text
            if let local = try PlayerRecord.fetchOne(db, key: id), let stamp = HLC(local.updatedAt), stamp >= player.updatedAt { return false }
            if try buried(.player, id, olderThan: player.updatedAt, db) { return false }
            // The same handle on another player is the same person created on two devices
            // apart: `savePlayer` merges them into one identity, keeping both records.
            try savePlayer(player, db)
            return true

        case .course(let course):
            let id = course.id.text
            if let local = try CourseRecord.fetchOne(db, key: id), let stamp = HLC(local.updatedAt), stamp >= course.updatedAt { return false }
            if try buried(.course, id, olderThan: course.updatedAt, db) { return false }
            try saveCourse(course, db)
            let rounds = try String.fetchAll(db, sql: "SELECT id FROM rounds WHERE courseID = ?", arguments: [id])
            result.rounds.formUnion(rounds.compactMap(UUID.init(text:)))
            return true

        case .round(let round):
            let id = round.id.text
            let local = try RoundRecord.fetchOne(db, key: id)
            if let local, let stamp = HLC(local.updatedAt), stamp >= round.updatedAt { return false }
            if try buried(.round, id, olderThan: round.updatedAt, db) { return false }
            try RoundRecord(round, version: local?.version ?? 0).save(db)
            try RoundRecord.writePlayers(of: round, db)
            result.rounds.insert(round.id)
            return true

        case .event(let event):
            let id = event.id.text
            if let local = try EventRecord.fetchOne(db, key: id), let stamp = HLC(local.updatedAt), stamp >= event.updatedAt { return false }
            if try buried(.event, id, olderThan: event.updatedAt, db) { return false }
            try EventRecord(event).save(db)
            // Its rounds' boards show the event's divisions and playoff.
            let rounds = try String.fetchAll(db, sql: "SELECT id FROM rounds WHERE eventID = ?", arguments: [id])
            result.rounds.formUnion(rounds.compactMap(UUID.init(text:)))
            return true

        case .season(let season):
            let id = season.id.text
            if let local = try SeasonRecord.fetchOne(db, key: id), let stamp = HLC(local.updatedAt), stamp >= season.updatedAt { return false }
            try SeasonRecord(season).save(db)
            let rounds = try String.fetchAll(
                db, sql: "SELECT r.id FROM rounds r JOIN events e ON e.id = r.eventID WHERE e.seasonID = ?", arguments: [id])
            result.rounds.formUnion(rounds.compactMap(UUID.init(text:)))
            return true

        case .checkIn(let checkIn):
            let id = checkIn.recordID
            if let local = try CheckInRecord.fetchOne(db, key: id), let stamp = HLC(local.updatedAt), stamp >= checkIn.updatedAt { return false }
            try CheckInRecord(checkIn).save(db)
            return true

        case .frozenHandicap(let frozen):
            // The earlier freeze stands (`CloudMerge`).
            let id = frozen.recordID
            if let local = try FrozenHandicapRecord.fetchOne(db, key: id), let stamp = HLC(local.frozenAt), stamp <= frozen.frozenAt { return false }
            try FrozenHandicapRecord(frozen).save(db)
            // The night's boards show the handicap: their kept copies are out of date.
            let rounds = try String.fetchAll(db, sql: "SELECT id FROM rounds WHERE eventID = ?", arguments: [frozen.eventID.text])
            result.rounds.formUnion(rounds.compactMap(UUID.init(text:)))
            return true

        case .feePayment(let payment):
            try FeePaymentRecord(payment).insert(db, onConflict: .ignore)
            return db.changesCount > 0

        case .signature(let signature):
            try SignatureRecord(signature).insert(db, onConflict: .ignore)
            guard db.changesCount > 0 else { return false }
            result.rounds.insert(signature.roundID)
            return true

        case .removed(let type, let id, let hlc):
            let table = try Self.table(of: type)
            if let local = try String.fetchOne(db, sql: "SELECT updatedAt FROM \(table) WHERE id = ?", arguments: [id]).flatMap(HLC.init),
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

        case .clubSettings(let offered):
            let stored = try settings(db)
            let merged = stored.map { $0.merged(with: offered) } ?? offered
            guard merged != stored else { return false }
            try writeSettings(merged, db)
            return true
        }
    }
}
