import Foundation
import GRDB
import HyzerCore

extension DomainStore {
    /// Who is checked in: a player of the club, or a walk-up made at check-in.
    public enum CheckInWho: Sendable {
        case player(UUID)
        /// A name and, optionally, a handle (made from the name when none is given).
        case walkUp(displayName: String, handle: String?)
    }

    /// A check-in as the night's list shows it.
    public struct CheckInEntry: Sendable, Hashable {
        public var checkIn: CheckIn
        public var displayName: String
        public var handle: String
        /// Made by this call (not a check-in again).
        public var isNew = false
    }

    /// Checks a player in for a league night (again: their division and fee as now given).
    /// The rules are here: a player checks only themselves in, never records a fee, checks in
    /// only before the night is over, and keeps the division a coach checked them in to; a
    /// coach checks anyone in at any time (fees are settled after the night), adds walk-ups
    /// and records fees. A division is one of the night's; with none given, the one the
    /// check-in had, else the player's usual one, else the one they last checked in to this
    /// season.
    /// `paidCents` records the amount (0: not paid); `paid` alone records the season's fee for
    /// the division (no amount when the season sets none).
    public func checkIn(
        _ who: CheckInWho, division: String?, paid: Bool?, paidCents: Int? = nil, at eventID: UUID, by identity: Identity?
    ) async throws -> CheckInEntry {
        let coach = identity.map { $0.role.includes(.coach) } ?? true
        if !coach {
            guard case .player(let id) = who, id == identity?.playerID else {
                throw LeagueRejection.forbidden("Players check themselves in; a coach checks in others and adds walk-ups.")
            }
            if paid != nil || paidCents != nil { throw LeagueRejection.forbidden("Entry fees are recorded by a coach.") }
        }
        if let paidCents, !(0...Money.maxCents).contains(paidCents) {
            throw LeagueRejection.invalid(FieldErrors("paidCents", "An amount paid is whole cents from 0 to \(Money.maxCents)."))
        }
        let walkUp: Player? =
            if case .walkUp(let name, let handle) = who { try await makeWalkUp(name: name, handle: handle) } else { nil }
        let moment = now()
        let stamp = tick()
        return try await write(queueing: { entry in
            (walkUp.map { [(RecordType.player, $0.id.text, $0.updatedAt)] } ?? []) + [(.checkIn, entry.checkIn.recordID, entry.checkIn.updatedAt)]
        }) { db in
            guard let event = try EventRecord.fetchOne(db, key: eventID.text)?.domain(), !event.archived else { throw StoreError.notFound("Event") }
            let player: Player
            if let walkUp {
                try Self.checkGrants(.athlete, actor: identity?.playerID, field: "walkUp", db)
                if try PlayerRecord.filter(PlayerRecord.Columns.handle == walkUp.handle.value).fetchCount(db) > 0 {
                    throw LeagueRejection.invalid(FieldErrors("walkUp.handle", AccountError.handleTaken(walkUp.handle.value).description))
                }
                try Self.savePlayer(walkUp, db)
                player = walkUp
            } else if case .player(let id) = who {
                guard let found = try PlayerRecord.fetchOne(db, key: try Self.canonicalID(id, db).text)?.domain(), !found.archived else {
                    throw LeagueRejection.invalid(FieldErrors("playerID", "There is no such player."))
                }
                player = found
            } else {
                throw StoreError.notFound("Player")
            }
            return try self.saveCheckIn(
                of: player, division: division, paid: paid, paidCents: paidCents, at: event, by: identity, coach: coach, moment: moment,
                stamp: stamp, db)
        }
    }

    /// Several players of the club checked in by a coach at once, in one transaction: all of
    /// them or, when one is refused (a division unknown), none. Each as `checkIn` would.
    public func checkIn(
        players entries: [(playerID: UUID, division: String?, paid: Bool?)], at eventID: UUID, by identity: Identity?
    ) async throws -> [CheckInEntry] {
        guard identity.map({ $0.role.includes(.coach) }) ?? true else {
            throw LeagueRejection.forbidden("Players check themselves in; a coach checks in others and adds walk-ups.")
        }
        guard !entries.isEmpty else { throw LeagueRejection.invalid(FieldErrors("players", "Tick the players to check in.")) }
        let moment = now()
        let stamp = tick()
        return try await write(queueing: { made in made.map { (RecordType.checkIn, $0.checkIn.recordID, $0.checkIn.updatedAt) } }) { db in
            guard let event = try EventRecord.fetchOne(db, key: eventID.text)?.domain(), !event.archived else { throw StoreError.notFound("Event") }
            var made: [CheckInEntry] = []
            var unknown: [String] = []
            for entry in entries {
                guard let player = try PlayerRecord.fetchOne(db, key: try Self.canonicalID(entry.playerID, db).text)?.domain(), !player.archived
                else { throw LeagueRejection.invalid(FieldErrors("playerID", "There is no such player.")) }
                do {
                    made.append(
                        try self.saveCheckIn(
                            of: player, division: entry.division, paid: entry.paid, at: event, by: identity, coach: true, moment: moment,
                            stamp: stamp, db))
                } catch LeagueRejection.invalid(let errors) where errors["division"] != nil {
                    unknown.append(player.displayName)
                }
            }
            guard unknown.isEmpty else {
                throw LeagueRejection.invalid(
                    FieldErrors(
                        "division",
                        "Choose a division for \(unknown.joined(separator: ", ")): \(event.divisions.joined(separator: ", ")). Nobody was checked in."
                    ))
            }
            return made
        }
    }

    /// One player's check-in stored (see `checkIn`), its fee recorded in the ledger.
    func saveCheckIn(
        of player: Player, division: String?, paid: Bool?, paidCents: Int? = nil, at event: Event, by identity: Identity?, coach: Bool, moment: Date,
        stamp: HLC,
        _ db: Database
    ) throws -> CheckInEntry {
        let eventID = event.id
        let stored = try CheckInRecord.fetchOne(db, key: CheckIn.recordID(event: eventID, player: player.id))?.domain()
        let existing = stored?.cancelled == true ? nil : stored
        if !coach {
            if try Self.nightOver(eventID, db) {
                throw LeagueRejection.conflict("\(event.name) is over: check-in is closed.")
            }
            if let existing, let by = existing.checkedInBy, by != identity?.playerID,
                let asked = division?.trimmingCharacters(in: .whitespaces), !asked.isEmpty,
                asked.caseInsensitiveCompare(existing.division) != .orderedSame
            {
                throw LeagueRejection.forbidden("A coach checked you in to \(existing.division): ask a coach to change your division.")
            }
            // Once the night is under way, the division a player plays in is on the cards and
            // boards: changing it is a coach's call.
            if let existing, let asked = division?.trimmingCharacters(in: .whitespaces), !asked.isEmpty,
                asked.caseInsensitiveCompare(existing.division) != .orderedSame, try Self.nightStarted(eventID, db)
            {
                throw LeagueRejection.conflict("The night has started: ask a coach to change your division.")
            }
        }
        let lastDivision = try Self.lastDivision(of: player.id, season: event.seasonID, before: eventID, db)
        let chosen = try Self.division(division, for: player, existing: existing, last: lastDivision, of: event)
        // An undone check-in keeps its fee: the money was taken, and the ledger's last word
        // on it stands until a coach records another.
        var checkIn = CheckIn(
            eventID: eventID, playerID: player.id, division: chosen, paid: paidCents.map { $0 > 0 } ?? paid ?? stored?.paid ?? false,
            checkedInBy: existing?.checkedInBy ?? identity?.playerID, checkedInAt: existing?.checkedInAt ?? moment, updatedAt: stamp)
        checkIn.cancelled = false
        try CheckInRecord(checkIn).save(db)
        // The amount: as given, else the season's fee for the division (none without one).
        let plan = try event.seasonID.flatMap { try SeasonRecord.fetchOne(db, key: $0.text)?.domain().fees }
        let cents = checkIn.paid ? paidCents ?? plan?.fee(for: chosen) : nil
        if paid == true, cents == nil, let plan {
            // Recorded without an amount, the fee would be missing from the books unnoticed.
            throw LeagueRejection.invalid(
                FieldErrors(
                    "paidCents",
                    "The season's fees name no fee for \(chosen.isEmpty ? "a night without divisions" : chosen) (they name \(plan.entry.keys.sorted().joined(separator: ", "))): give the amount paid."
                ))
        }
        let last = try FeePaymentRecord.filter(FeePaymentRecord.Columns.eventID == eventID.text).filter(Column("playerID") == player.id.text)
            .order(FeePaymentRecord.Columns.recordedAt.desc).fetchOne(db)?.domain()
        // A coach recording the fee again with another amount: the difference is a new entry.
        let amountChanged = coach && (paid != nil || paidCents != nil) && checkIn.paid && last?.paid == true && last?.cents != cents
        if stored?.paid != checkIn.paid && (checkIn.paid || stored != nil) || amountChanged {
            // Fees are an audit matter: who recorded paid or not paid, and when, on every device.
            var payment = FeePayment(
                id: UUID(), eventID: eventID, playerID: player.id, paid: checkIn.paid, recordedBy: identity?.playerID, recordedAt: self.tick())
            if let cents {
                payment.cents = cents
                payment.funds = plan?.split(cents) ?? [FundAmount(.club, cents: cents)].filter { $0.cents > 0 }
                payment.division = chosen
                payment.payout = plan?.payout
            }
            try FeePaymentRecord(payment).insert(db)
            try Outbox.enqueue([(.feePayment, payment.id.text, payment.recordedAt)], db)
            try Self.audit(.checkIn, checkIn.recordID, actor: identity?.playerID, at: moment, checkIn.paid ? "fee paid" : "fee not paid", db)
        }
        if stored?.cancelled == true {
            try Self.audit(.checkIn, checkIn.recordID, actor: identity?.playerID, at: moment, "checked in again", db)
        }
        return CheckInEntry(checkIn: checkIn, displayName: player.displayName, handle: player.handle.value, isNew: existing == nil)
    }

    /// The division each player would be checked in to with none asked for, where it is known:
    /// their usual one (when the night has it), else the one they last checked in to this season.
    public func knownDivisions(at eventID: UUID) async throws -> [UUID: String] {
        try await pool.read { db in
            guard let event = try EventRecord.fetchOne(db, key: eventID.text)?.domain() else { throw StoreError.notFound("Event") }
            var known: [UUID: String] = [:]
            if let season = event.seasonID {
                let rows = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT c.playerID, c.division FROM checkins c JOIN events e ON e.id = c.eventID
                        WHERE e.seasonID = ? AND c.eventID != ? AND c.cancelled = 0 AND c.division != ''
                        ORDER BY c.checkedInAt
                        """, arguments: [season.text, eventID.text])
                for row in rows {
                    if let id = UUID(text: row["playerID"]), let division: String = row["division"], event.divisions.contains(division) {
                        known[id] = division
                    }
                }
            }
            for player in try PlayerRecord.filter(PlayerRecord.Columns.division != "").fetchAll(db) {
                if let id = UUID(text: player.id), event.divisions.contains(player.division) { known[id] = player.division }
            }
            return known
        }
    }

    /// A night's check-ins, by name.
    public func checkIns(of eventID: UUID) async throws -> [CheckInEntry] {
        try await pool.read { db in
            guard try EventRecord.fetchOne(db, key: eventID.text) != nil else { throw StoreError.notFound("Event") }
            return try CheckInRecord.filter(CheckInRecord.Columns.eventID == eventID.text && CheckInRecord.Columns.cancelled == false).fetchAll(db)
                .compactMap { record in
                    let checkIn = try record.domain()
                    guard let player = try PlayerRecord.fetchOne(db, key: try Self.canonicalID(checkIn.playerID, db).text)?.domain() else {
                        return nil
                    }
                    return CheckInEntry(checkIn: checkIn, displayName: player.displayName, handle: player.handle.value)
                }
                .sorted { $0.displayName.localizedCaseInsensitiveCompare($1.displayName) == .orderedAscending }
        }
    }

    /// The division a check-in goes in: the one asked for (one of the night's), else the one
    /// it had, else the player's usual one, else the one they last checked in to this season,
    /// when the night has it.
    static func division(_ asked: String?, for player: Player, existing: CheckIn?, last: String?, of event: Event) throws -> String {
        if let asked = asked.map({ $0.trimmingCharacters(in: .whitespaces) }), !asked.isEmpty {
            guard let name = event.divisions.first(where: { $0.caseInsensitiveCompare(asked) == .orderedSame }) else {
                throw LeagueRejection.invalid(
                    FieldErrors(
                        "division",
                        event.divisions.isEmpty
                            ? "\(event.name) has no divisions."
                            : "Choose one of \(event.name)'s divisions: \(event.divisions.joined(separator: ", "))."))
            }
            return name
        }
        if let existing { return existing.division }
        if event.divisions.contains(player.division) { return player.division }
        if let last, event.divisions.contains(last) { return last }
        guard event.divisions.isEmpty else {
            throw LeagueRejection.invalid(FieldErrors("division", "Choose a division: \(event.divisions.joined(separator: ", "))."))
        }
        return ""
    }

    /// The division of a player's latest check-in to another night of the season.
    static func lastDivision(of playerID: UUID, season: UUID?, before eventID: UUID, _ db: Database) throws -> String? {
        guard let season else { return nil }
        return try String.fetchOne(
            db,
            sql: """
                SELECT c.division FROM checkins c JOIN events e ON e.id = c.eventID
                WHERE c.playerID = ? AND e.seasonID = ? AND c.eventID != ? AND c.cancelled = 0 AND c.division != ''
                ORDER BY c.checkedInAt DESC LIMIT 1
                """, arguments: [playerID.text, season.text, eventID.text])
    }

    /// Undoes a check-in (a coach; or the player themselves before the night's first round
    /// starts). The record stays, marked, so the undo travels like the check-in.
    public func cancelCheckIn(of playerID: UUID, at eventID: UUID, by identity: Identity?) async throws {
        let coach = identity.map { $0.role.includes(.coach) } ?? true
        let stamp = tick()
        let moment = now()
        _ = try await write(queueing: { [(.checkIn, $0.recordID, $0.updatedAt)] }) { db -> CheckIn in
            let id = try Self.canonicalID(playerID, db)
            guard var checkIn = try CheckInRecord.fetchOne(db, key: CheckIn.recordID(event: eventID, player: id))?.domain(), !checkIn.cancelled
            else { throw StoreError.notFound("Check-in") }
            if !coach {
                guard id == identity?.playerID else {
                    throw LeagueRejection.forbidden("Players undo only their own check-in; a coach undoes others'.")
                }
                if try Self.nightStarted(eventID, db) { throw LeagueRejection.conflict("The night has started: ask a coach to take you off.") }
            }
            checkIn.cancelled = true
            checkIn.updatedAt = stamp
            try CheckInRecord(checkIn).update(db)
            try Self.audit(.checkIn, checkIn.recordID, actor: identity?.playerID, at: moment, "check-in undone", db)
            return checkIn
        }
    }

    /// A walk-up: an athlete without an account, named as given; their handle made from the
    /// name (unique) when none is given. An invite can later attach an account (a claim).
    func makeWalkUp(name: String, handle: String?) async throws -> Player {
        var draft = PlayerDraft(displayName: name, handle: handle, role: Role.athlete.rawValue)
        if (handle ?? "").trimmingCharacters(in: .whitespaces).isEmpty {
            let base = String(name.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "." }.filter(\.isASCII))
                .split(separator: ".").joined(separator: ".")
            let stem = String((base.isEmpty ? "walkup" : base).prefix(24))
            var candidate = stem.count >= 2 ? stem : "walkup"
            var number = 2
            while try await player(handle: Handle(trusted: candidate)) != nil {
                candidate = "\(stem.prefix(24)).\(number)"
                number += 1
            }
            draft.handle = candidate
        }
        let valid: PlayerDraft.Valid
        do {
            valid = try draft.validated()
        } catch {
            // Named as the walk-up's fields, so a form or API client sees where.
            var named = FieldErrors()
            for entry in error.entries { named.add("walkUp.\(entry.field)", entry.message) }
            throw LeagueRejection.invalid(named)
        }
        return Player(
            id: UUID(), displayName: valid.displayName, handle: valid.handle, role: .athlete, createdAt: now(), updatedAt: tick(), passwordHash: nil,
            originDeviceID: deviceID)
    }

    /// Opens a league night's check-in (its link and QR code work for the night) or closes it.
    public func setCheckIn(open: Bool, at eventID: UUID, actor: UUID?) async throws -> Event {
        try await editEvent(eventID, name: nil, divisions: nil, checkInOpen: open, actor: actor)
    }

    /// The night a check-in link names, while its check-in is open and it is not over; nil
    /// for a code of no night, and the night with `open: false` otherwise.
    public func checkInNight(code: String) async throws -> (event: Event, open: Bool)? {
        let code = code.lowercased()
        guard code.count == 8, code.allSatisfy({ $0.isASCII && $0.isHexDigit }) else { return nil }
        let moment = now()
        return try await pool.read { db in
            let matches = try EventRecord.filter(sql: "lower(id) LIKE ? AND archived = 0", arguments: [code + "%"])
                .order(EventRecord.Columns.createdAt.desc).fetchAll(db)
            guard let event = try matches.first?.domain() else { return nil }
            let over = try Self.nightOver(event.id, db)
            return (event, event.checkInOpen(at: moment) && !over)
        }
    }

    /// Every round of the night is completed.
    /// Whether a round of the night has started: from then on its check-ins are the coaches'.
    static func nightStarted(_ eventID: UUID, _ db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM rounds WHERE eventID = ? AND status != 'scheduled')", arguments: [eventID.text])
            ?? true
    }

    static func nightOver(_ eventID: UUID, _ db: Database) throws -> Bool {
        let statuses = try String.fetchAll(db, sql: "SELECT status FROM rounds WHERE eventID = ? AND archived = 0", arguments: [eventID.text])
        return !statuses.isEmpty && statuses.allSatisfy { $0 == RoundStatus.completed.rawValue }
    }

    /// A night's fee ledger, oldest first: each time someone recorded a player's fee as paid or
    /// not, with who they were.
    public func feeLedger(of eventID: UUID) async throws -> [(payment: FeePayment, playerName: String, recordedByName: String?)] {
        try await pool.read { db in
            guard try EventRecord.fetchOne(db, key: eventID.text) != nil else { throw StoreError.notFound("Event") }
            let payments = try FeePaymentRecord.filter(FeePaymentRecord.Columns.eventID == eventID.text).order(FeePaymentRecord.Columns.recordedAt)
                .fetchAll(db).map { try $0.domain() }
            func name(_ id: UUID?) throws -> String? {
                guard let id else { return nil }
                return try PlayerRecord.fetchOne(db, key: try Self.canonicalID(id, db).text)?.displayName
            }
            return try payments.map { ($0, try name($0.playerID) ?? "Unknown player", try name($0.recordedBy)) }
        }
    }
}
