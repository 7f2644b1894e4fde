import Foundation
import GRDB
import HyzerCore

// Rounds: creating, reading, their status, renaming, late arrivals, withdrawals and reopening.
extension DomainStore {
    public func createRound(_ valid: RoundDraft.Valid, createdBy: UUID? = nil) async throws -> Round {
        let created = now()
        var round = Round(
            id: UUID(), name: valid.name, courseID: valid.courseID, playerIDs: valid.playerIDs,
            status: valid.startNow ? .active : .scheduled, startedAt: valid.startNow ? created : nil,
            createdBy: createdBy, createdAt: created, updatedAt: tick(),
            eventID: valid.eventID, divisions: valid.divisions
        )
        round.tagsID = valid.tagsID
        round.format = valid.format
        round.teams = valid.teams
        round.caliRule = valid.caliRule
        round.matchID = valid.matchID
        round.putting = valid.putting
        round.mulligans = valid.mulligans
        if let request = valid.draw {
            let strength = try await drawStrength(request.balance, players: valid.playerIDs, eventID: valid.eventID)
            var generator = SystemRandomNumberGenerator()
            round.teams = TeamDraw.draw(valid.playerIDs, request, strength: strength, using: &generator).map { group in
                Team(id: .random(), playerIDs: group, cali: group.count == 1)
            }
            if round.teams.contains(where: \.cali) { round.caliRule = valid.caliRule ?? .twoDiscs }
        }
        // The scorecard lists the players team by team.
        if !round.teams.isEmpty { round.playerIDs = round.teams.flatMap(\.playerIDs) }
        let made = round
        return try await write(queueing: { [(.round, $0.id.text, $0.updatedAt)] }) { db in
            // A team round's teams are its own, and a putting round's points are not throws: a
            // night's table cannot add either to other rounds, so each is its event's only round.
            if let eventID = made.eventID {
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT COUNT(*) AS rounds, COALESCE(SUM(teams != '' OR format = 'putting'), 0) AS alone
                        FROM rounds WHERE eventID = ? AND archived = 0
                        """,
                    arguments: [eventID.text])
                let (rounds, alone): (Int, Int) = (row?["rounds"] ?? 0, row?["alone"] ?? 0)
                if alone > 0 || ((!made.teams.isEmpty || made.format == .putting) && rounds > 0) {
                    throw LeagueRejection.conflict(
                        "A team or putting round is its event's only round: make another event for this round.")
                }
            }
            try RoundRecord(made, version: 1).insert(db)
            try RoundRecord.writePlayers(of: made, db)
            try self.freezeHandicaps(of: made.id, db)
            return made
        }
    }

    /// Checks a draft (form or API) against the courses, players and events that exist, and
    /// creates the round; a blank name becomes the course's name and the day. Throws `FieldErrors`.
    public func createRound(_ draft: RoundDraft, createdBy: UUID? = nil) async throws -> Round {
        var draft = draft
        // A bracket's match: its two players, in its event, named for them.
        if let matchID = UUID(text: draft.matchID ?? ""), RoundFormat(rawValue: draft.format ?? "") == .match {
            let match = try await pool.read { db in try self.matchDraft(matchID, db) }
            draft.playerIDs = match.players.map(\.text)
            draft.eventID = match.event.id.text
            if let division = match.event.divisions.first {
                for player in draft.playerIDs where draft.divisions[player] == nil { draft.divisions[player] = division }
            }
            if (draft.name ?? "").trimmingCharacters(in: .whitespaces).isEmpty {
                let names = match.players.map { match.names[$0] ?? "?" }.joined(separator: " v ")
                draft.name = match.suddenDeath ? "\(names) — sudden death" : names
            }
        } else if let text = draft.matchID, !text.isEmpty, RoundFormat(rawValue: draft.format ?? "") == .match {
            throw LeagueRejection.invalid(FieldErrors("matchID", "There is no such bracket match."))
        }
        // A draw with no players named draws from the night's check-ins.
        if draft.draw != nil, draft.playerIDs.isEmpty, let eventID = draft.eventID.flatMap(UUID.init(text:)),
            try await events().contains(where: { $0.id == eventID })
        {
            for entry in try await checkIns(of: eventID) where !entry.checkIn.cancelled {
                draft.playerIDs.append(entry.checkIn.playerID.text)
                if !entry.checkIn.division.isEmpty { draft.divisions[entry.checkIn.playerID.text] = entry.checkIn.division }
            }
        }
        let courses = try await courses()
        let players = try await players()
        let events = try await events()
        let names = Dictionary(courses.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        let today = now().formatted(.dateTime.weekday(.wide).day().month(.abbreviated))
        let byID = Dictionary(events.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let pools = try await tagPools()
        let valid = try draft.validated(
            knownCourses: Set(courses.map(\.id)), knownPlayers: Set(players.map(\.id)), events: byID, knownPools: Set(pools.map(\.id))
        ) { course, event in
            // A round of a dated night is named by the night's day, not the day it was set up.
            "\(names[course] ?? "Round") — \(event?.playedOn.flatMap(Format.day) ?? today)"
        }
        return try await createRound(valid, createdBy: createdBy)
    }

    /// How strong each player is for a balanced draw (higher is stronger): their rating, or
    /// their handicap at the night negated (a lower handicap plays better).
    func drawStrength(_ balance: TeamDraw.Balance, players: [UUID], eventID: UUID?) async throws -> [UUID: Double] {
        switch balance {
        case .none:
            return [:]
        case .rating:
            let ratings = try await clubRatings()
            return players.reduce(into: [:]) { result, player in
                if let rating = ratings.players[player]?.rating { result[player] = Double(rating) }
            }
        case .handicap:
            guard let eventID, let event = try await events().first(where: { $0.id == eventID }), let seasonID = event.seasonID else { return [:] }
            let season = try await seasonSnapshot(seasonID)
            let tonight = season.handicaps[eventID] ?? [:]
            return players.reduce(into: [:]) { result, player in
                if let handicap = tonight[player] { result[player] = -handicap.value }
            }
        }
    }

    /// Starts or completes a round. Only forward moves are allowed.
    public func setStatus(of roundID: UUID, to status: RoundStatus) async throws -> RoundSnapshot {
        let stamp = tick()
        let moment = now()
        return try await write(queueing: { [(.round, $0.round.id.text, $0.round.updatedAt)] }) { db in
            guard var record = try RoundRecord.fetchOne(db, key: roundID.text) else { throw StoreError.notFound("Round") }
            let current: RoundStatus = try StoredValue.raw(record.status, "rounds.status", of: record.id)
            guard current.canMove(to: status) else {
                throw ScoreRejection.conflict(field: "status", message: "A \(current.rawValue) round cannot become \(status.rawValue).")
            }
            record.status = status.rawValue
            if status == .active { record.startedAt = moment }
            if status == .completed { record.completedAt = moment }
            record.updatedAt = stamp.description
            record.version += 1
            try record.update(db)
            try self.freezeHandicaps(of: roundID, db)
            return try Self.snapshot(roundID, db)
        }
    }

    /// Rounds a list shows at once: the home page and `GET /api/v1/rounds` page through the rest.
    public static let roundsPerPage = 50

    /// One page of the rounds (1: live rounds first, then the newest), and whether another
    /// page follows.
    public func roundSummaries(page: Int, perPage: Int = roundsPerPage) async throws -> (summaries: [RoundSummary], hasMore: Bool) {
        let rows = try await roundSummaries(limit: perPage + 1, offset: (max(page, 1) - 1) * perPage)
        return (Array(rows.prefix(perPage)), rows.count > perPage)
    }

    /// Whether a round (not removed) is stored.
    public func roundExists(_ id: UUID) async throws -> Bool {
        try await pool.read { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM rounds WHERE id = ? AND archived = 0)", arguments: [id.text]) ?? false
        }
    }

    public func roundSummaries(limit: Int = roundsPerPage, offset: Int = 0) async throws -> [RoundSummary] {
        try await pool.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT r.id, r.name, r.status, r.startedAt, r.createdAt, c.name AS courseName,
                           (SELECT COUNT(*) FROM round_players p WHERE p.roundID = r.id) AS playerCount
                    FROM rounds r JOIN courses c ON c.id = r.courseID
                    WHERE r.archived = 0
                    ORDER BY CASE r.status WHEN 'active' THEN 0 ELSE 1 END, COALESCE(r.startedAt, r.createdAt) DESC, r.id
                    LIMIT ? OFFSET ?
                    """, arguments: [limit, offset])
            return try rows.map { row in
                RoundSummary(
                    id: try StoredValue.uuid(row["id"], "rounds.id"), name: row["name"], courseName: row["courseName"],
                    status: try StoredValue.raw(row["status"], "rounds.status", of: row["id"]), startedAt: row["startedAt"],
                    createdAt: row["createdAt"], playerCount: row["playerCount"]
                )
            }
        }
    }

    /// A round with its course, players and events, read in one transaction.
    public func snapshot(of roundID: UUID) async throws -> RoundSnapshot {
        try await pool.read { db in try Self.snapshot(roundID, db) }
    }

    /// `events`: the round's events when the caller already has them (`board(of:)`).
    static func snapshot(_ roundID: UUID, _ db: Database, events known: [ScoreEvent]? = nil) throws -> RoundSnapshot {
        guard let record = try RoundRecord.fetchOne(db, key: roundID.text) else { throw StoreError.notFound("Round") }
        guard let courseRecord = try CourseRecord.fetchOne(db, key: record.courseID) else { throw StoreError.notFound("Course") }
        let course = try course(courseRecord, db)
        // A merged identity counts once, under its canonical player, with every score of its
        // aliases (events stay as recorded; only how they are read changes).
        let aliases = try aliasMap(db)
        var seen = Set<String>()
        let playerIDs = try RoundRecord.playerIDs(of: record.id, db).map { aliases[$0] ?? $0 }.filter { seen.insert($0).inserted }
        let players = try PlayerRecord.filter(keys: playerIDs).fetchAll(db).map { try $0.domain() }
        let events = try known ?? Self.events(of: roundID, after: 0, aliases: aliases, db).map(\.event)
        var divisions: [String: String] = [:]
        for (id, division) in try RoundRecord.divisions(of: record.id, db) { divisions[aliases[id] ?? id] = division }
        let withdrawn = Set(try RoundRecord.withdrawn(of: record.id, db).map { aliases[$0] ?? $0 })
        var round = try record.domain(playerIDs: playerIDs, divisions: divisions, withdrawn: withdrawn)
        round.cards = round.cards.map { card in
            var card = card
            card.playerIDs = card.playerIDs.map { aliases[$0.text].flatMap(UUID.init(text:)) ?? $0 }
            return card
        }
        let event = try record.eventID.flatMap { try EventRecord.fetchOne(db, key: $0) }?.domain()
        let signatures = try SignatureRecord.filter(SignatureRecord.Columns.roundID == record.id).fetchAll(db).map { row in
            var signature = try row.domain()
            if let canonical = aliases[row.playerID].flatMap(UUID.init(text:)) { signature.playerID = canonical }
            return signature
        }
        var snapshot = RoundSnapshot(
            round: round, course: course, players: players, events: events, version: record.version, event: event, signatures: signatures)
        if round.mulligans != nil {
            snapshot.mulliganSales = try MulliganSaleRecord.sales(of: record.id, aliases: aliases, db)
        }
        try addReporterNames(&snapshot, from: events, db)
        if let eventID = record.eventID {
            let inRound = Set(playerIDs)
            for row in try FrozenHandicapRecord.filter(FrozenHandicapRecord.Columns.eventID == eventID).fetchAll(db) {
                let frozen = try row.domain()
                let player = aliases[frozen.playerID.text].flatMap(UUID.init(text:)) ?? frozen.playerID
                guard let handicap = frozen.handicap, inRound.contains(player.text) else { continue }
                snapshot.handicaps[player] = SeasonHandicaps.strokes(handicap, holes: course.holes.count)
            }
            if let seasonID = event?.seasonID, let season = try SeasonRecord.fetchOne(db, key: seasonID.text)?.domain() {
                snapshot.netUnplaced = season.points.placesBy == .net && season.handicap?.unhandicapped == .unplaced
            }
        }
        return snapshot
    }

    /// Names of those who entered `events` without playing in the round, once each.
    static func addReporterNames(_ snapshot: inout RoundSnapshot, from events: some Sequence<ScoreEvent>, _ db: Database) throws {
        let known = Set(snapshot.round.playerIDs).union(snapshot.reporterNames.keys)
        let reporters = Set(events.compactMap(\.reportedBy)).subtracting(known)
        guard !reporters.isEmpty else { return }
        let rows = try Row.fetchAll(
            db, sql: "SELECT id, displayName FROM players WHERE id IN (\(databaseQuestionMarks(count: reporters.count)))",
            arguments: StatementArguments(reporters.map(\.text)))
        for row in rows { if let id = UUID(text: row["id"]) { snapshot.reporterNames[id] = row["displayName"] } }
    }

    public func renameRound(_ id: UUID, to name: String, actor: UUID?) async throws -> RoundSnapshot {
        try await changeRound(id, actor: actor) { round, _, _ in
            let before = round.name
            round.name = name
            return "name “\(before)” → “\(name)”"
        }
    }

    /// Adds a player who arrived late to a round that is not over, with a division when its
    /// event has divisions, and optionally to a card. A withdrawn player who returns is back in.
    /// On a season's league night they are checked in too (the night's list and fees are its
    /// record of who played), unless they already are.
    public func addPlayer(_ playerID: UUID, division: String?, card cardID: UUID?, to roundID: UUID, actor: UUID?) async throws -> RoundSnapshot {
        let snapshot = try await addToRound(playerID, division: division, card: cardID, to: roundID, actor: actor)
        if let event = snapshot.event, event.seasonID != nil {
            let canonical = try await pool.read { db in try Self.canonicalID(playerID, db) }
            if try await !checkIns(of: event.id).contains(where: { $0.checkIn.playerID == canonical }) {
                _ = try await checkIn(.player(canonical), division: snapshot.round.divisions[canonical], paid: nil, at: event.id, by: nil)
            }
        }
        return snapshot
    }

    private func addToRound(_ playerID: UUID, division: String?, card cardID: UUID?, to roundID: UUID, actor: UUID?) async throws -> RoundSnapshot {
        try await changeRound(roundID, actor: actor) { round, snapshot, db in
            guard round.status != .completed else {
                throw LeagueRejection.conflict("\(round.name) is completed: reopen it to add a player.")
            }
            guard round.format != .match else { throw LeagueRejection.conflict("A match is between its two players: nobody can join it.") }
            let canonical = try Self.canonicalID(playerID, db)
            guard let player = try PlayerRecord.fetchOne(db, key: canonical.text)?.domain(), !player.archived else {
                throw LeagueRejection.invalid(FieldErrors("playerID", "That player does not exist."))
            }
            if round.playerIDs.contains(canonical) && !round.withdrawn.contains(canonical) {
                throw LeagueRejection.conflict("\(player.displayName) is already in \(round.name).")
            }
            guard round.playerIDs.count < Round.playerCountRange.upperBound || round.playerIDs.contains(canonical) else {
                throw LeagueRejection.conflict("A round can have at most \(Round.playerCountRange.upperBound) players.")
            }
            let divisions = snapshot.event?.divisions ?? []
            // Without a division given, the one a check-in would choose: the night's own check-in,
            // else their usual one, else the one they last played this season.
            var text = (division ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            if text.isEmpty, let event = snapshot.event {
                let checkedIn = try CheckInRecord.fetchOne(db, key: CheckIn.recordID(event: event.id, player: canonical))?.domain()
                let last = try Self.lastDivision(of: canonical, season: event.seasonID, before: event.id, db)
                // quiet: a division it cannot choose is none, and the guard below asks for one.
                text = (try? Self.division(nil, for: player, existing: checkedIn?.cancelled == false ? checkedIn : nil, last: last, of: event)) ?? ""
            }
            if !divisions.isEmpty {
                guard !text.isEmpty else {
                    throw LeagueRejection.invalid(
                        FieldErrors("division", "Choose \(player.displayName)'s division: \(divisions.joined(separator: ", "))."))
                }
                guard let valid = Division.validated(text), divisions.contains(valid) else {
                    throw LeagueRejection.invalid(
                        FieldErrors(
                            "division", "\(text) is not a division of \(snapshot.event?.name ?? "the event") (\(divisions.joined(separator: ", "))).")
                    )
                }
                round.divisions[canonical] = valid
            } else if !text.isEmpty {
                throw LeagueRejection.invalid(
                    FieldErrors(
                        "division",
                        snapshot.event.map { "\($0.name) has no divisions: its rounds are one field." }
                            ?? "This round is not part of an event with divisions."))
            }
            round.withdrawn.remove(canonical)
            if !round.playerIDs.contains(canonical) { round.playerIDs.append(canonical) }
            // A late arrival to a team round plays as a cali.
            if !round.teams.isEmpty, round.team(of: canonical) == nil {
                round.teams.append(Team(id: .random(), playerIDs: [canonical], cali: true))
                round.caliRule = round.caliRule ?? .twoDiscs
            }
            if let cardID {
                guard let index = round.cards.firstIndex(where: { $0.id == cardID }) else {
                    throw LeagueRejection.invalid(FieldErrors("cardID", "That card is not in \(round.name)."))
                }
                for other in round.cards.indices { round.cards[other].playerIDs.removeAll { $0 == canonical } }
                guard round.cards[index].playerIDs.count < CardRules.sizeLimit else {
                    throw LeagueRejection.invalid(
                        FieldErrors(
                            "cardID", "\(round.cards[index].name) is full: at most \(CardRules.sizeLimit) play together. Choose another card."))
                }
                round.cards[index].playerIDs.append(canonical)
            }
            return "added \(player.displayName)\(round.divisions[canonical].map { " (\($0))" } ?? "")"
        }
    }

    /// Takes a player out of a round. One with scores stays, withdrawn (did not finish, kept as
    /// history); one without leaves the round and its cards.
    public func withdraw(_ playerID: UUID, from roundID: UUID, actor: UUID?) async throws -> RoundSnapshot {
        try await changeRound(roundID, actor: actor) { round, snapshot, db in
            let canonical = try Self.canonicalID(playerID, db)
            let name = snapshot.playerNames[canonical] ?? "That player"
            guard round.playerIDs.contains(canonical) else { throw StoreError.notFound("Player in this round") }
            guard round.status != .completed else { throw LeagueRejection.conflict("\(round.name) is completed: reopen it to withdraw a player.") }
            guard round.format != .match else {
                throw LeagueRejection.conflict(
                    round.matchID == nil
                        ? "A match is between its two players: remove the round instead."
                        : "A player leaves a bracket's match by conceding it (the bracket's concessions).")
            }
            // On a team round the scores are the team's: a team that has scored keeps them and
            // does not finish; before its first score the player leaves it (alone, a cali).
            let scoredAs = round.scoredAs(canonical)
            if let index = round.teams.firstIndex(where: { $0.playerIDs.contains(canonical) }), scoredAs != canonical,
                !snapshot.events.contains(where: { $0.playerID == scoredAs })
            {
                round.teams[index].playerIDs.removeAll { $0 == canonical }
                if round.teams[index].playerIDs.isEmpty {
                    round.teams.remove(at: index)
                } else if round.teams[index].playerIDs.count == 1 {
                    round.teams[index].cali = true
                    round.caliRule = round.caliRule ?? .twoDiscs
                }
            }
            if snapshot.events.contains(where: { $0.playerID == scoredAs }) {
                guard !round.withdrawn.contains(canonical) else { throw LeagueRejection.conflict("\(name) has already withdrawn.") }
                round.withdrawn.insert(canonical)
                return "withdrew \(name) (kept with their scores)"
            }
            guard round.playerIDs.count > 1 else {
                throw LeagueRejection.conflict("\(name) is the round's only player: remove the round instead.")
            }
            round.playerIDs.removeAll { $0 == canonical }
            round.divisions[canonical] = nil
            for index in round.cards.indices { round.cards[index].playerIDs.removeAll { $0 == canonical } }
            return "removed \(name) (no scores)"
        }
    }

    /// A completed round is active again: whoever it made did-not-finish is back in play (that
    /// was read from the status, never written as scores).
    public func reopen(_ roundID: UUID, actor: UUID?) async throws -> RoundSnapshot {
        try await changeRound(roundID, actor: actor) { round, _, _ in
            guard round.status == .completed else {
                throw LeagueRejection.conflict("Only a completed round can be reopened; \(round.name) is \(round.status.rawValue).")
            }
            round.status = .active
            round.completedAt = nil
            return "reopened"
        }
    }

    /// Changes a stored round in one transaction with a new clock reading, queues it and logs
    /// what `change` says it did.
    func changeRound(_ id: UUID, actor: UUID?, _ change: @escaping @Sendable (inout Round, RoundSnapshot, Database) throws -> String) async throws
        -> RoundSnapshot
    {
        let stamp = tick()
        let moment = now()
        return try await write(queueing: { [(.round, $0.round.id.text, $0.round.updatedAt)] }) { db in
            var snapshot = try Self.snapshot(id, db)
            guard var round = try RoundRecord.round(id.text, db), !round.archived else { throw StoreError.notFound("Round") }
            let line = try change(&round, snapshot, db)
            round.updatedAt = stamp
            try Self.saveRound(round, db)
            try Self.audit(.round, id, actor: actor, at: moment, line, db)
            try self.freezeHandicaps(of: id, db)
            snapshot = try Self.snapshot(id, db)
            return snapshot
        }
    }
}
