import Foundation
import GRDB
import HyzerCore

/// An event with its rounds, read in one transaction: what its standings are computed from.
public struct EventSnapshot: Sendable {
    public var event: Event
    /// In the order they are played (created).
    public var boards: [RoundBoard]

    public var rounds: [RoundSnapshot] { boards.map(\.snapshot) }

    public var standings: EventStandings {
        EventStandings.compute(event: event, rounds: boards.map { .init(round: $0.snapshot.round, standings: $0.standings) })
    }
}

/// Why a card, a signature or a playoff was refused (HTTP 409 or 422 with the message).
public enum LeagueRejection: Error, Hashable, Sendable {
    case invalid(FieldErrors)
    case conflict(String)
    /// Not this person's to do (HTTP 403).
    case forbidden(String)

    public var message: String {
        switch self {
        case .invalid(let errors): errors.summary
        case .conflict(let message): message
        case .forbidden(let message): message
        }
    }
}

extension DomainStore {
    // MARK: Events

    public func createEvent(_ valid: EventDraft.Valid, createdBy: UUID? = nil) async throws -> Event {
        var made = Event(id: UUID(), name: valid.name, divisions: valid.divisions, createdBy: createdBy, createdAt: now(), updatedAt: tick())
        made.seasonID = valid.seasonID
        made.playedOn = valid.playedOn
        let event = made
        return try await write(queueing: { [(.event, $0.id.text, $0.updatedAt)] }) { db in
            if let seasonID = valid.seasonID, try SeasonRecord.fetchOne(db, key: seasonID.text) == nil {
                throw LeagueRejection.invalid(FieldErrors("seasonID", "There is no such season."))
            }
            try EventRecord(event).insert(db)
            return event
        }
    }

    public func events() async throws -> [Event] {
        try await pool.read { db in
            try EventRecord.filter(EventRecord.Columns.archived == false).order(EventRecord.Columns.createdAt.desc).fetchAll(db).map {
                try $0.domain()
            }
        }
    }

    public func eventSnapshot(_ id: UUID) async throws -> EventSnapshot {
        try await pool.read { db in try self.eventSnapshot(id, db) }
    }

    func eventSnapshot(_ id: UUID, _ db: Database) throws -> EventSnapshot {
        guard let event = try EventRecord.fetchOne(db, key: id.text)?.domain() else { throw StoreError.notFound("Event") }
        let roundIDs = try String.fetchAll(db, sql: "SELECT id FROM rounds WHERE eventID = ? ORDER BY createdAt, id", arguments: [id.text])
        let boards = try roundIDs.compactMap(UUID.init(text:)).compactMap { roundID -> RoundBoard? in
            // A round whose course has not arrived through sync yet is left out until it has.
            do { return try board(roundID, db) } catch StoreError.notFound { return nil }
        }
        return EventSnapshot(event: event, boards: boards)
    }

    /// Records who won a division's playoff. Only a tie for first of a finished event has one.
    public func recordPlayoff(eventID: UUID, division: String, winner: UUID) async throws -> EventSnapshot {
        let stamp = tick()
        return try await write(queueing: { [(.event, $0.event.id.text, $0.event.updatedAt)] }) { db in
            var snapshot = try self.eventSnapshot(eventID, db)
            let standings = snapshot.standings
            guard standings.isFinal else { throw LeagueRejection.conflict("The playoff is decided once every round of the event is completed.") }
            guard let group = standings.division(division) else {
                throw LeagueRejection.invalid(
                    FieldErrors(
                        "division",
                        division.isEmpty ? "Name the division whose playoff this is." : "\(snapshot.event.name) has no division \(division)."))
            }
            let tied = group.entries.filter { $0.playoff != nil }
            guard !tied.isEmpty else {
                throw LeagueRejection.conflict("Nobody is tied for first\(division.isEmpty ? "" : " in \(division)"): there is no playoff.")
            }
            guard tied.contains(where: { $0.playerID == winner }) else {
                throw LeagueRejection.invalid(FieldErrors("winner", "The winner must be one of the players tied for first."))
            }
            snapshot.event.playoffs[division] = Playoff(winner: winner, rounds: snapshot.boards.map(\.snapshot.round.id))
            snapshot.event.updatedAt = stamp
            try EventRecord(snapshot.event).update(db)
            try Self.bumpRounds(of: eventID, db)
            return snapshot
        }
    }

    static func bumpRounds(of eventID: UUID, _ db: Database) throws {
        try db.execute(sql: "UPDATE rounds SET version = version + 1 WHERE eventID = ?", arguments: [eventID.text])
    }

    // MARK: Cards

    /// Replaces a round's cards. Every player on at most one card, every card's players in the
    /// round, its starting hole on the course.
    public func setCards(_ cards: [Card], of roundID: UUID) async throws -> RoundSnapshot {
        let stamp = tick()
        return try await write(queueing: { [(.round, $0.round.id.text, $0.round.updatedAt)] }) { db in
            var snapshot = try Self.snapshot(roundID, db)
            let checked: [Card]
            do throws(FieldErrors) { checked = try CardRules.check(cards, round: snapshot.round, course: snapshot.course) } catch {
                throw LeagueRejection.invalid(error)
            }
            // A card that keeps its name keeps its id: its page stays open on the phones.
            let ids = Dictionary(snapshot.round.cards.map { ($0.name, $0.id) }, uniquingKeysWith: { first, _ in first })
            snapshot.round.cards = checked.map { card in
                var card = card
                card.id = ids[card.name] ?? card.id
                return card
            }
            snapshot.round.updatedAt = stamp
            try Self.saveRound(snapshot.round, db)
            snapshot.version += 1
            return snapshot
        }
    }

    /// Cards made the tournament director's way (`CardPlanner`): by division, ordered by the
    /// event's standings before this round.
    /// Cards by division: leaders together (by the event's standings so far), or with `draw`
    /// a random draw within each division.
    public func planCards(of roundID: UUID, shotgun: Bool, firstTee: Date?, draw: Bool = false) async throws -> RoundSnapshot {
        var generator = SystemRandomNumberGenerator()
        return try await planCards(of: roundID, shotgun: shotgun, firstTee: firstTee, draw: draw, using: &generator)
    }

    func planCards(of roundID: UUID, shotgun: Bool, firstTee: Date?, draw: Bool, using generator: inout some RandomNumberGenerator) async throws
        -> RoundSnapshot
    {
        let snapshot = try await snapshot(of: roundID)
        if !snapshot.events.isEmpty {
            throw LeagueRejection.conflict(
                "Scoring has begun: the cards stay as they are (a coach can still change them one by one through the API).")
        }
        var previous: EventStandings?
        if let eventID = snapshot.round.eventID {
            var event = try await eventSnapshot(eventID)
            event.boards = Array(event.boards.prefix { $0.snapshot.round.id != roundID })
            if !event.rounds.isEmpty { previous = event.standings }
        }
        let round = snapshot.round
        if !round.teams.isEmpty {
            let teams = draw ? round.teams.shuffled(using: &generator) : round.teams
            let cards = CardPlanner.plan(teams: teams, holes: snapshot.course.holes.map(\.number), shotgun: shotgun, firstTee: firstTee)
            return try await setCards(cards, of: roundID)
        }
        let names = Divisions.ordered(present: round.playerIDs.map { round.divisions[$0] ?? "" }, preferred: snapshot.event?.divisions ?? [])
        let groups = (names + (round.playerIDs.contains { (round.divisions[$0] ?? "").isEmpty } ? [""] : [])).map { name in
            CardPlanner.order(round.playerIDs.filter { (round.divisions[$0] ?? "") == name }, by: previous?.division(name))
        }.map { draw ? CardPlanner.draw($0, using: &generator) : $0 }
        let cards = CardPlanner.plan(groups: groups, holes: snapshot.course.holes.map(\.number), shotgun: shotgun, firstTee: firstTee)
        return try await setCards(cards, of: roundID)
    }

    static func saveRound(_ round: Round, _ db: Database) throws {
        guard var record = try RoundRecord.fetchOne(db, key: round.id.text) else { throw StoreError.notFound("Round") }
        let version = record.version + 1
        record = try RoundRecord(round, version: version)
        try record.update(db)
        try RoundRecord.writePlayers(of: round, db)
    }

    // MARK: Card scoring

    public struct CardEntry: Sendable {
        public var playerID: UUID
        public var strokes: Strokes
        public var penalties: Int
        public var mulligans: Int

        public init(playerID: UUID, strokes: Strokes, penalties: Int = 0, mulligans: Int = 0) {
            self.playerID = playerID
            self.strokes = strokes
            self.penalties = penalties
            self.mulligans = mulligans
        }
    }

    /// One hole for a whole card, in one transaction: each player's entry is this
    /// scorekeeper's own (it corrects only their earlier entry), so two scorekeepers of one
    /// card cross-check each other and a difference shows as a mismatch. Entries equal to the
    /// scorekeeper's current one are left alone. Nothing is written if any entry is refused.
    public func recordCardHole(_ entries: [CardEntry], hole: Int, card cardID: UUID, in roundID: UUID, by reporter: Identity?) async throws
        -> RoundSnapshot
    {
        let stamp = tick()
        let deviceID = deviceID
        let written = try await write(queueing: { $0.1.map { (.scoreEvent, $0.id.text, $0.recordedAt) } }) { db -> (RoundSnapshot, [ScoreEvent]) in
            // As the card page shows it: on a team round its scores are the teams'.
            var snapshot = try Self.snapshot(roundID, db).scoringView
            guard let card = snapshot.round.cards.first(where: { $0.id == cardID }) else { throw StoreError.notFound("Card") }
            let coach = reporter.map { $0.role.includes(.coach) } ?? true
            if let reporter, !coach, !card.playerIDs.contains(snapshot.round.scoredAs(reporter.playerID)) {
                throw ScoreRejection.notYours
            }
            var seen: Set<UUID> = []
            for entry in entries {
                guard card.playerIDs.contains(entry.playerID) else {
                    throw ScoreRejection.invalid(
                        FieldErrors("playerID", "\(snapshot.playerNames[entry.playerID] ?? "That player") is not on \(card.name)."))
                }
                guard seen.insert(entry.playerID).inserted else {
                    throw ScoreRejection.invalid(
                        FieldErrors("playerID", "\(snapshot.playerNames[entry.playerID] ?? "A player") is listed twice for hole \(hole)."))
                }
            }
            let signed = Set(snapshot.signatures.map(\.playerID))
            let submissions = entries.map {
                var submission = ScoreSubmission(
                    playerID: $0.playerID, hole: hole, strokes: $0.strokes, reportedBy: reporter?.playerID,
                    penalties: $0.strokes == .dnf ? 0 : $0.penalties, crossCheck: !coach)
                submission.mulligans = $0.strokes == .dnf ? 0 : $0.mulligans
                return submission
            }
            let recorded = try Self.recordAll(
                submissions, into: &snapshot, at: stamp, deviceID: deviceID, byCoach: coach,
                prepare: { submission, scores in
                    Self.cardEntry(submission, scores: scores, signed: signed, coach: coach)
                }, db)
            return (snapshot, recorded)
        }
        if let last = written.1.last { advanceClock(past: last.recordedAt) }
        return written.0
    }

    /// Records submissions into `snapshot` inside one write transaction, by the usual rules.
    /// `prepare` sees the current scores before each one and returns what to record, or nil
    /// when it would change nothing. Throws on the first refusal, which rolls everything back.
    static func recordAll(
        _ submissions: [ScoreSubmission], into snapshot: inout RoundSnapshot, at stamp: HLC, deviceID: UUID, byCoach: Bool,
        prepare: (ScoreSubmission, CurrentScores) -> ScoreSubmission?, _ db: Database
    ) throws -> [ScoreEvent] {
        var recorded: [ScoreEvent] = []
        var clock = stamp
        var scores = CurrentScores(events: snapshot.events)
        for submission in submissions {
            guard let submission = prepare(submission, scores) else { continue }
            let decision = try ScoreRules.decide(
                submission, round: snapshot.round, course: snapshot.course, playerName: snapshot.playerName,
                existing: snapshot.events, newID: .random(), deviceID: deviceID, recordedAt: clock,
                signed: Set(snapshot.signatures.map(\.playerID)), mulliganSales: snapshot.mulliganSales, byCoach: byCoach,
                isCoach: { try Self.isCoach($0, db) })
            switch decision {
            case .failure(let rejection): throw rejection
            case .success(.duplicate): continue
            case .success(.record(let event)):
                try ScoreEventRecord.insert(event, ifAbsent: false, db)
                snapshot.events.append(event)
                scores.add([event])
                recorded.append(event)
                clock = HLC(wallMillis: clock.wallMillis, counter: clock.counter + 1, deviceID: clock.deviceID)
            }
        }
        if !recorded.isEmpty {
            try db.execute(sql: "UPDATE rounds SET version = version + 1 WHERE id = ?", arguments: [snapshot.round.id.text])
            snapshot.version += 1
        }
        return recorded
    }

    func advanceClock(past reading: HLC) {
        let wall = now().millisecondsSince1970
        clock.withLock { $0.receive(reading, wallMillis: wall) }
    }

    // MARK: Signing

    /// A player confirms their own card: every hole scored, no mismatch left. Athletes sign
    /// for themselves; a coach may sign for anyone (a player without a phone).
    public func sign(playerID: UUID, in roundID: UUID, by reporter: Identity?) async throws -> RoundSnapshot {
        let stamp = tick()
        let written = try await write(queueing: { $0.1.map { [(.signature, $0.id.text, $0.signedAt)] } ?? [] }) { db -> (RoundSnapshot, Signature?) in
            var snapshot = try Self.snapshot(roundID, db)
            // On a team round a player signs their team's card (one score per team per hole).
            let view = snapshot.scoringView
            let playerID = view.round.scoredAs(playerID)
            let name = view.playerName(playerID) ?? "This player"
            guard view.round.playerIDs.contains(playerID) else {
                throw LeagueRejection.invalid(FieldErrors("playerID", "That player is not in this round."))
            }
            if let reporter, !reporter.role.includes(.coach), view.round.scoredAs(reporter.playerID) != playerID {
                throw LeagueRejection.forbidden("Each player signs their own card; a coach can sign for a player without a phone.")
            }
            if view.signatures.contains(where: { $0.playerID == playerID }) { return (snapshot, nil) }
            let board = view.board
            let missing = view.course.holes.map(\.number).filter { board.scores[playerID, $0] == nil }
            let finished = board.standings.entries.first { $0.playerID == playerID }?.dnf == true
            if !missing.isEmpty && !finished {
                throw LeagueRejection.conflict(
                    "\(name) cannot sign yet: hole\(missing.count == 1 ? "" : "s") \(missing.map(String.init).joined(separator: ", ")) \(missing.count == 1 ? "has" : "have") no score."
                )
            }
            let open = board.standings.conflicts.filter { $0.playerID == playerID }.map(\.hole)
            if !open.isEmpty {
                throw LeagueRejection.conflict(
                    "\(name) cannot sign yet: the scorekeepers disagree on hole\(open.count == 1 ? "" : "s") \(open.map(String.init).joined(separator: ", "))."
                )
            }
            let signature = Signature(id: UUID(), roundID: roundID, playerID: playerID, signedBy: reporter?.playerID, signedAt: stamp)
            try SignatureRecord(signature).insert(db)
            try db.execute(sql: "UPDATE rounds SET version = version + 1 WHERE id = ?", arguments: [roundID.text])
            snapshot.signatures.append(signature)
            snapshot.version += 1
            return (snapshot, signature)
        }
        return written.0
    }
}

extension DomainStore {
    // MARK: Imports

    /// What a player list did: who it added and whose name it corrected.
    public struct PlayerImport: Sendable {
        public var created: [Player] = []
        public var updated: [Player] = []
        public var unchanged: [Player] = []
        public var all: [Player] { created + updated + unchanged }
    }

    /// Imports a player list in one transaction (see the rows' form below).
    public func importPlayers(_ list: [PlayerDraft.Valid], actor: UUID?) async throws -> PlayerImport {
        try await importPlayers(list.map { PlayerTable.Row(valid: $0) }, actor: actor)
    }

    /// Imports a player list in one transaction: a handle that is new makes a player; a handle
    /// that exists updates that player's name and whatever else the row gives (PDGA number,
    /// email, rating, usual division; a blank cell changes nothing). Roles are left as they are
    /// (they change on /admin, with the audit log). A removed player's handle, or a player the
    /// importer may not manage, refuses the whole list.
    public func importPlayers(_ list: [PlayerTable.Row], actor: UUID?) async throws -> PlayerImport {
        let created = now()
        let stamps = list.map { _ in tick() }
        return try await write(queueing: { ($0.created + $0.updated).map { (.player, $0.id.text, $0.updatedAt) } }) { db in
            var result = PlayerImport()
            var errors = FieldErrors()
            for row in list {
                let valid = row.valid
                do { try Self.checkGrants(valid.role, actor: actor, field: "csv", naming: valid.handle.value, db) } catch let refusal as FieldErrors {
                    refusal.entries.forEach { errors.add($0.field, $0.message) }
                }
                guard
                    let existing = try PlayerRecord.filter(PlayerRecord.Columns.handle == valid.handle.value && PlayerRecord.Columns.aliasOf == nil)
                        .fetchOne(db)?.domain()
                else { continue }
                if existing.archived {
                    errors.add("csv", "@\(valid.handle.value) belongs to a removed player: choose another handle.")
                } else if existing != Self.imported(row, into: existing) {
                    do { try Self.checkManages(existing, actor: actor, db) } catch let refusal as AccountError {
                        errors.add("csv", "@\(valid.handle.value): \(refusal.description)")
                    }
                }
            }
            try errors.throwIfAny()
            for (row, stamp) in zip(list, stamps) {
                let valid = row.valid
                let existing = try PlayerRecord.filter(PlayerRecord.Columns.handle == valid.handle.value && PlayerRecord.Columns.aliasOf == nil)
                    .fetchOne(db)?.domain()
                guard let existing else {
                    var player = Player(
                        id: UUID(), displayName: valid.displayName, handle: valid.handle, role: valid.role, createdAt: created, updatedAt: stamp,
                        originDeviceID: self.deviceID)
                    player = Self.imported(row, into: player)
                    try Self.savePlayer(player, db)
                    result.created.append(player)
                    continue
                }
                var player = Self.imported(row, into: existing)
                guard player != existing else {
                    result.unchanged.append(player)
                    continue
                }
                var changes: [String] = []
                if player.displayName != existing.displayName { changes.append("name “\(existing.displayName)” → “\(player.displayName)”") }
                if player.pdgaNumber != existing.pdgaNumber { changes.append("PDGA number \(player.pdgaNumber.map(String.init) ?? "none")") }
                if player.email != existing.email { changes.append("email") }
                if player.enteredRating != existing.enteredRating { changes.append("rating \(player.enteredRating.map(String.init) ?? "none")") }
                if player.division != existing.division { changes.append("usual division \(player.division)") }
                player.updatedAt = stamp
                try Self.savePlayer(player, db)
                try Self.audit(.player, player.id, actor: actor, at: created, changes.joined(separator: ", ") + " (import)", db)
                result.updated.append(player)
            }
            return result
        }
    }

    /// A player with what an imported row gives: its name, and each other field it fills.
    static func imported(_ row: PlayerTable.Row, into player: Player) -> Player {
        var player = player
        player.displayName = row.valid.displayName
        if let number = row.pdgaNumber { player.pdgaNumber = number }
        if let email = row.email { player.email = email }
        if let rating = row.rating { player.enteredRating = rating }
        if let division = row.division { player.division = division }
        return player
    }

    /// Records a round's results in one transaction, each by the usual rules: a hole that
    /// already has the same score is left alone, one with another score refuses the whole
    /// import (correct it instead), so nothing is half-written.
    public func recordScores(_ submissions: [ScoreSubmission], in roundID: UUID, by reporter: Identity?) async throws -> RoundSnapshot {
        let stamp = tick()
        let deviceID = deviceID
        let written = try await write(queueing: { $0.1.map { (.scoreEvent, $0.id.text, $0.recordedAt) } }) { db -> (RoundSnapshot, [ScoreEvent]) in
            // A team round's results are its teams'.
            var snapshot = try Self.snapshot(roundID, db).scoringView
            let submissions = submissions.map { submission in
                var submission = submission
                submission.reportedBy = reporter?.playerID
                return submission
            }
            let recorded = try Self.recordAll(
                submissions, into: &snapshot, at: stamp, deviceID: deviceID, byCoach: reporter.map { $0.role.includes(.coach) } ?? true,
                prepare: { submission, scores in
                    scores[submission.playerID, submission.hole]?.winner.result
                        == HoleResult(strokes: submission.strokes, penalties: submission.penalties, mulligans: submission.mulligans)
                        ? nil : submission
                }, db)
            return (snapshot, recorded)
        }
        if let last = written.1.last { advanceClock(past: last.recordedAt) }
        return written.0
    }
}
