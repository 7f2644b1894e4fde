import Foundation
import GRDB
import HyzerCore

// Money: pots, the entries of the club's books, a season's fees, and each night's money
// derived from them (`ClubBooks`, `NightMoney`).
extension DomainStore {
    /// A new pot, checked by `Pot.validated` against the club's pots.
    public func createPot(
        name: String?, kind: String?, seasonID: UUID?, capCents: Int?, overflowPotID: UUID?, actor: UUID?
    ) async throws -> Pot {
        let id = UUID()
        let stamp = tick()
        let moment = now()
        return try await write(queueing: { [(.pot, $0.id.text, $0.updatedAt)] }) { db in
            let pots = try PotRecord.fetchAll(db).map { try $0.domain() }
            let valid: (name: String, kind: Pot.Kind)
            do throws(FieldErrors) {
                valid = try Pot.validated(id: id, name: name, kind: kind, capCents: capCents, overflowPotID: overflowPotID, pots: pots)
            } catch { throw LeagueRejection.invalid(error) }
            if let seasonID, try SeasonRecord.fetchOne(db, key: seasonID.text) == nil {
                throw LeagueRejection.invalid(FieldErrors("seasonID", "That season does not exist."))
            }
            let pot = Pot(
                id: id, name: valid.name, kind: valid.kind, seasonID: seasonID, capCents: capCents, overflowPotID: overflowPotID, createdBy: actor,
                createdAt: moment, updatedAt: stamp)
            try PotRecord(pot).insert(db)
            try Self.audit(.pot, pot.id, actor: actor, at: moment, "pot created", db)
            return pot
        }
    }

    /// The club's pots, by name (removed ones left out).
    public func pots() async throws -> [Pot] {
        try await pool.read { db in try PotRecord.filter(Column("archived") == false).order(Column("name")).fetchAll(db).map { try $0.domain() } }
    }

    /// The club's books, derived now.
    public func books() async throws -> ClubBooks {
        try await pool.read { db in try Self.books(db) }
    }

    static func books(_ db: Database) throws -> ClubBooks {
        ClubBooks.derive(
            pots: try PotRecord.fetchAll(db).map { try $0.domain() }, entries: try MoneyEntryRecord.fetchAll(db).map { try $0.domain() },
            payments: try FeePaymentRecord.fetchAll(db).map { try $0.domain() })
    }

    /// A season's fees (nil: none), checked against its divisions and the club's pots.
    public func setSeasonFees(_ id: UUID, _ plan: FeePlan?, actor: UUID?) async throws -> Season {
        let stamp = tick()
        let moment = now()
        return try await write(queueing: { [(.season, $0.id.text, $0.updatedAt)] }) { db in
            guard var season = try SeasonRecord.fetchOne(db, key: id.text)?.domain(), !season.archived else { throw StoreError.notFound("Season") }
            if let plan {
                let pots = Set(try PotRecord.filter(Column("archived") == false).fetchAll(db).map { try StoredValue.uuid($0.id, "pots.id") })
                do throws(FieldErrors) { season.fees = try plan.validated(divisions: season.divisions, pots: pots) } catch {
                    throw LeagueRejection.invalid(error)
                }
            } else {
                season.fees = nil
            }
            season.updatedAt = stamp
            try SeasonRecord(season).update(db)
            try Self.audit(.season, id, actor: actor, at: moment, season.fees == nil ? "fees removed" : "fees set", db)
            return season
        }
    }

    /// Money put into a pot by hand (negative: a correction), optionally for a night.
    public func contribute(to potID: UUID, cents: Int, eventID: UUID?, note: String?, actor: UUID?) async throws -> MoneyEntry {
        guard cents != 0, (-Money.maxCents...Money.maxCents).contains(cents) else {
            throw LeagueRejection.invalid(FieldErrors("cents", "An amount is whole cents, not 0, up to \(Money.maxCents) either way."))
        }
        let note = try Self.note(note)
        let stamp = tick()
        let moment = now()
        return try await write(queueing: { [(.moneyEntry, $0.id.text, $0.recordedAt)] }) { db in
            let pot = try Self.openPot(potID, db)
            if let eventID, try EventRecord.fetchOne(db, key: eventID.text) == nil {
                throw LeagueRejection.invalid(FieldErrors("eventID", "There is no such night."))
            }
            if cents < 0, try Self.books(db).balance(of: .pot(potID)) + cents < 0 {
                throw LeagueRejection.conflict("\(pot.name) holds less than that: a correction never takes a pot below nothing.")
            }
            let entry = MoneyEntry(
                id: UUID(), kind: .contribution, cents: cents, potID: pot.id, eventID: eventID, note: note, recordedBy: actor, recordedAt: stamp)
            try MoneyEntryRecord(entry).insert(db)
            try Self.audit(.moneyEntry, entry.id, actor: actor, at: moment, "\(cents) cents into \(pot.name)", db)
            return entry
        }
    }

    /// Pays a pot's balance for a night, split evenly among `playerIDs` (a player named twice,
    /// e.g. two aces, takes two shares; cents that do not divide stay in the pot). With
    /// `shares` (a CTP pot's holes), the balance is split that many ways and the shares nobody
    /// won stay: a CTP hole with no winner rolls over. With nobody named, the pot rolls over:
    /// to the next night, or into `rolloverTo`.
    public func payPot(
        _ potID: UUID, eventID: UUID, playerIDs: [UUID], shares: Int? = nil, rolloverTo: UUID?, actor: UUID?
    ) async throws -> [MoneyEntry] {
        guard playerIDs.count <= 100 else { throw LeagueRejection.invalid(FieldErrors("playerIDs", "Name at most 100 winners.")) }
        if let shares, !(max(1, playerIDs.count)...100).contains(shares) {
            throw LeagueRejection.invalid(FieldErrors("shares", "Split the pot into as many shares as there are winners or more (at most 100)."))
        }
        if !playerIDs.isEmpty, rolloverTo != nil {
            throw LeagueRejection.invalid(FieldErrors("rolloverTo", "A pot either pays its winners or rolls over, not both."))
        }
        let stamp = tick()
        let moment = now()
        return try await write(queueing: { $0.map { (RecordType.moneyEntry, $0.id.text, $0.recordedAt) } }) { db in
            let pot = try Self.openPot(potID, db)
            guard let event = try EventRecord.fetchOne(db, key: eventID.text)?.domain() else {
                throw LeagueRejection.invalid(FieldErrors("eventID", "There is no such night."))
            }
            if let rolloverTo {
                guard rolloverTo != potID, try PotRecord.fetchOne(db, key: rolloverTo.text).map({ !$0.archived }) == true else {
                    throw LeagueRejection.invalid(FieldErrors("rolloverTo", "Roll over into another of the club's pots."))
                }
            }
            if let season = pot.seasonID, event.seasonID != season {
                throw LeagueRejection.invalid(FieldErrors("eventID", "\(pot.name) is a season's pot: pay it at one of that season's nights."))
            }
            let present = try Self.playersAt(eventID, db)
            var winners: [UUID] = []
            for id in playerIDs {
                guard let player = try PlayerRecord.fetchOne(db, key: try Self.canonicalID(id, db).text) else {
                    throw LeagueRejection.invalid(FieldErrors("playerIDs", "There is no player \(id.lowercasedText)."))
                }
                let winner = try StoredValue.uuid(player.id, "players.id")
                guard present.contains(winner) else {
                    throw LeagueRejection.invalid(FieldErrors("playerIDs", "\(player.displayName) neither checked in for nor played \(event.name)."))
                }
                winners.append(winner)
            }
            let books = try Self.books(db)
            // Once a night's decision is in the books, another would replace it, and money
            // already handed over would vanish from them: a correction is a new entry instead.
            if books.decided(potID, at: eventID) {
                throw LeagueRejection.conflict(
                    "\(pot.name) is already paid or rolled over for \(event.name). To correct it, add or take money on the pot's page.")
            }
            let balance = books.balance(of: .pot(potID))
            let batch = UUID()
            let entries: [MoneyEntry]
            if winners.isEmpty {
                entries = [
                    MoneyEntry(
                        id: UUID(), kind: .rollover, cents: max(0, balance), potID: potID, toPotID: rolloverTo, eventID: eventID, batchID: batch,
                        recordedBy: actor, recordedAt: stamp)
                ]
            } else {
                let parts = shares ?? winners.count
                guard balance >= parts else { throw LeagueRejection.conflict("\(pot.name) holds too little to pay \(winners.count).") }
                let share = balance / parts
                entries = winners.map {
                    MoneyEntry(
                        id: UUID(), kind: .potPayout, cents: share, potID: potID, eventID: eventID, playerID: $0, batchID: batch, recordedBy: actor,
                        recordedAt: stamp)
                }
            }
            for entry in entries { try MoneyEntryRecord(entry).insert(db) }
            let what = winners.isEmpty ? "rolled over" : "paid to \(winners.count) at \(event.name)"
            try Self.audit(.moneyEntry, batch, actor: actor, at: moment, "\(pot.name) \(what)", db)
            return entries
        }
    }

    /// A night's purse payout to a player: `cents` (or the payout as it stands: a coach's
    /// adjustment, else the table's proposal) at their place,
    /// paid by `method`, or with no method only adjusted. A player the table does not pay
    /// needs a division and a place.
    public func recordPursePayout(
        eventID: UUID, playerID: UUID, cents: Int?, method: MoneyEntry.Method?, division: String?, place: Int?, note: String?, actor: UUID?
    ) async throws -> MoneyEntry {
        if let cents, !(0...Money.maxCents).contains(cents) {
            throw LeagueRejection.invalid(FieldErrors("cents", "A payout is whole cents from 0 to \(Money.maxCents)."))
        }
        if let place, !(1...1_000).contains(place) { throw LeagueRejection.invalid(FieldErrors("place", "A place is 1 to 1000.")) }
        let note = try Self.note(note)
        let stamp = tick()
        let moment = now()
        return try await write(queueing: { [(.moneyEntry, $0.id.text, $0.recordedAt)] }) { db in
            let money = try self.nightMoney(eventID, db)
            let player = try Self.canonicalID(playerID, db)
            let row = money.payouts.first { $0.playerID == player }
            let night = try EventRecord.fetchOne(db, key: eventID.text)?.domain()
            var chosen = row?.division
            if let division {
                guard
                    let name = (night?.divisions ?? []).first(where: { $0.caseInsensitiveCompare(division) == .orderedSame })
                        ?? (division.isEmpty ? "" : nil)
                else { throw LeagueRejection.invalid(FieldErrors("division", "That night has no division \(division).")) }
                chosen = name
            }
            guard let chosen, let at = place ?? row?.place else {
                throw LeagueRejection.invalid(
                    FieldErrors("playerID", "The night's table pays this player nothing: give their division, place and cents to pay them."))
            }
            guard try PlayerRecord.fetchOne(db, key: player.text) != nil else {
                throw LeagueRejection.invalid(FieldErrors("playerID", "There is no such player."))
            }
            let present = try Self.playersAt(eventID, db)
            guard row != nil || present.contains(player) else {
                throw LeagueRejection.invalid(FieldErrors("playerID", "That player neither checked in for nor played this night."))
            }
            // Never more than the division's purse: what the other places take leaves the rest.
            guard let purse = money.purses.first(where: { $0.division == chosen }) else {
                throw LeagueRejection.conflict(
                    "Nobody paid into \(chosen.isEmpty ? "this night's" : "the \(chosen)") purse: there is nothing to pay out.")
            }
            let others = money.payouts.filter { $0.division == chosen && $0.playerID != player }.reduce(0) { $0 + $1.cents }
            let amount = cents ?? row?.cents ?? 0
            guard amount <= purse.cents - others else {
                throw LeagueRejection.invalid(
                    FieldErrors(
                        "cents",
                        "The \(chosen.isEmpty ? "" : chosen + " ")purse holds \(purse.cents) cents and the other places take \(others): at most \(max(0, purse.cents - others)) is left."
                    ))
            }
            let entry = MoneyEntry(
                id: UUID(), kind: .purse, cents: amount, eventID: eventID, playerID: player, division: chosen, place: at, method: method, note: note,
                recordedBy: actor, recordedAt: stamp)
            try MoneyEntryRecord(entry).insert(db)
            let what = method.map { "paid (\($0.rawValue))" } ?? "adjusted"
            try Self.audit(.moneyEntry, entry.id, actor: actor, at: moment, "purse payout \(entry.cents) cents \(what)", db)
            try self.settle(eventID, division: chosen, actor: actor, db)
            return entry
        }
    }

    /// Once every place of a night's division is paid (and the night is over), what its purse
    /// leaves goes to the club; a payout adjusted or undone afterwards moves it back.
    func settle(_ eventID: UUID, division: String, actor: UUID?, _ db: Database) throws {
        let money = try nightMoney(eventID, db)
        guard let purse = money.purses.first(where: { $0.division == division }) else { return }
        let rows = money.payouts.filter { $0.division == division }
        let left = money.final && !rows.isEmpty && rows.allSatisfy(\.paid) ? max(0, purse.left) : 0
        let books = try Self.books(db)
        guard (books.settled[ClubBooks.settleKey(eventID, division)] ?? 0) != left else { return }
        let entry = MoneyEntry(id: UUID(), kind: .settle, cents: left, eventID: eventID, division: division, recordedBy: actor, recordedAt: tick())
        try MoneyEntryRecord(entry).insert(db)
        try Outbox.enqueue([(.moneyEntry, entry.id.text, entry.recordedAt)], db)
    }

    /// Who was at a night: checked in (not undone) or on one of its rounds.
    static func playersAt(_ eventID: UUID, _ db: Database) throws -> Set<UUID> {
        let ids = try String.fetchAll(
            db,
            sql: """
                SELECT playerID FROM checkins WHERE eventID = ? AND cancelled = 0
                UNION SELECT rp.playerID FROM round_players rp JOIN rounds r ON r.id = rp.roundID WHERE r.eventID = ?
                """, arguments: [eventID.text, eventID.text])
        return Set(ids.compactMap(UUID.init(text:)))
    }

    /// A night's money now: in by fund, aces, payouts by place, its pots.
    public func nightMoney(_ eventID: UUID) async throws -> NightMoney {
        try await pool.read { db in try self.nightMoney(eventID, db) }
    }

    func nightMoney(_ eventID: UUID, _ db: Database) throws -> NightMoney {
        let snapshot = try eventSnapshot(eventID, db)
        let plan = try snapshot.event.seasonID.flatMap { try SeasonRecord.fetchOne(db, key: $0.text)?.domain().fees }
        let checkIns = try CheckInRecord.filter(Column("eventID") == eventID.text).filter(Column("cancelled") == false).fetchAll(db).map {
            try $0.domain()
        }
        return NightMoney.compute(
            eventID: eventID, plan: plan, books: try Self.books(db), checkIns: checkIns, standings: snapshot.standings,
            aces: NightMoney.aces(in: snapshot.boards), pots: try PotRecord.fetchAll(db).map { try $0.domain() })
    }

    /// The events of a season (to keep its part of the books).
    public func seasonEventIDs(_ seasonID: UUID) async throws -> Set<UUID> {
        try await pool.read { db in
            Set(try String.fetchAll(db, sql: "SELECT id FROM events WHERE seasonID = ?", arguments: [seasonID.text]).compactMap(UUID.init(text:)))
        }
    }

    static func openPot(_ id: UUID, _ db: Database) throws -> Pot {
        guard let pot = try PotRecord.fetchOne(db, key: id.text)?.domain(), !pot.archived else { throw StoreError.notFound("Pot") }
        return pot
    }

    static func note(_ raw: String?) throws -> String? {
        let note = (raw ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard note.count <= 200, !note.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw LeagueRejection.invalid(FieldErrors("note", "A note is one line of at most 200 characters."))
        }
        return note.isEmpty ? nil : note
    }
}
