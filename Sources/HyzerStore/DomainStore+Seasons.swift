import Foundation
import GRDB
import HyzerCore

/// A season with its nights, read together: everything its table is computed from.
public struct SeasonSnapshot: Sendable {
    public var season: Season
    /// Its league nights in the order they were made, each with its rounds' boards.
    public var nights: [EventSnapshot]
    public var names: [UUID: String]
    /// The handicaps frozen when each night started, by night and player (nil: none then).
    public var frozen: [UUID: [UUID: Handicap?]] = [:]
    /// Ratings and each night's points per throw, for a season whose handicaps go by rating.
    public var ratings = RatingBasis()

    /// Each night as the season reads it: every player's night result and rounds.
    public var seasonNights: [SeasonNight] {
        nights.map { night in
            let standings = night.standings
            return SeasonNight(
                eventID: night.event.id,
                entries: standings.divisions.flatMap { division in
                    division.entries.map {
                        SeasonNight.Entry(
                            playerID: $0.playerID, division: $0.division, toPar: $0.toPar, dnf: $0.dnf, started: $0.holesPlayed > 0,
                            wonPlayoff: $0.playoff == .won)
                    }
                },
                // A putting round's points say nothing of a player's throws: no handicap counts them.
                rounds: night.boards.filter { $0.snapshot.round.format != .putting }.flatMap { board in
                    board.standings.entries.map {
                        NightRound(
                            roundID: board.snapshot.round.id, playerID: $0.playerID, toPar: $0.toPar, holes: board.snapshot.course.holes.count,
                            thru: $0.thru, dnf: $0.dnf)
                    }
                },
                teams: night.boards.reduce(into: [:]) { teams, board in
                    for team in board.snapshot.round.teams { teams[team.id] = team.playerIDs }
                })
        }
    }

    /// One night's handicaps, each with the throws it takes off that night (over its rounds).
    public func nightHandicaps(_ eventID: UUID) -> [UUID: (handicap: Handicap, strokes: Int)] {
        let nights = seasonNights
        guard let night = nights.first(where: { $0.eventID == eventID }) else { return [:] }
        let tonight = SeasonHandicaps.perNight(nights, method: season.handicap, frozen: frozen, ratings: ratings)[eventID] ?? [:]
        return tonight.reduce(into: [:]) { result, pair in
            let strokes = night.rounds.filter { $0.playerID == pair.key }.reduce(0) { $0 + SeasonHandicaps.strokes(pair.value, holes: $1.holes) }
            result[pair.key] = (pair.value, strokes)
        }
    }

    /// Each night's handicaps (from the season's earlier nights), by event and player.
    public var handicaps: [UUID: [UUID: Handicap]] {
        SeasonHandicaps.perNight(seasonNights, method: season.handicap, frozen: frozen, ratings: ratings)
    }

    /// The season's table: each night placed gross or net (gross minus that night's
    /// handicap) as the season says, then scored by its rule.
    public var standings: SeasonStandings {
        SeasonStandings.compute(
            nights: SeasonHandicaps.results(seasonNights, rule: season.points, method: season.handicap, frozen: frozen, ratings: ratings),
            rule: season.points,
            names: names,
            divisionOrder: season.divisions)
    }
}

extension DomainStore {
    public func createSeason(_ valid: SeasonDraft.Valid, createdBy: UUID?) async throws -> Season {
        let season = Season(
            id: UUID(), name: valid.name, startsOn: valid.startsOn, endsOn: valid.endsOn, divisions: valid.divisions, points: valid.points,
            handicap: valid.handicap, createdBy: createdBy, createdAt: now(), updatedAt: tick())
        return try await write(queueing: { [(.season, $0.id.text, $0.updatedAt)] }) { db in
            try SeasonRecord(season).insert(db)
            return season
        }
    }

    /// Every season not removed, the newest first.
    public func seasons() async throws -> [Season] {
        try await pool.read { db in
            try SeasonRecord.filter(SeasonRecord.Columns.archived == false).order(SeasonRecord.Columns.createdAt.desc).fetchAll(db).map {
                try $0.domain()
            }
        }
    }

    /// Changes a season's name, dates, divisions, points rule or handicap method: its table
    /// is computed again from its nights. (Frozen handicaps stay as frozen.)
    public func editSeason(_ id: UUID, _ valid: SeasonDraft.Valid, actor: UUID?) async throws -> Season {
        let stamp = tick()
        let moment = now()
        return try await write(queueing: { [(.season, $0.id.text, $0.updatedAt)] }) { db in
            guard var season = try SeasonRecord.fetchOne(db, key: id.text)?.domain(), !season.archived else { throw StoreError.notFound("Season") }
            var changes: [String] = []
            if season.name != valid.name { changes.append("name “\(season.name)” → “\(valid.name)”") }
            if season.divisions != valid.divisions { changes.append("divisions \(valid.divisions.joined(separator: " "))") }
            if season.points != valid.points { changes.append("points: \(valid.points.description)") }
            if season.handicap != valid.handicap { changes.append("handicap: \(valid.handicap?.description ?? "none")") }
            if season.startsOn != valid.startsOn || season.endsOn != valid.endsOn {
                changes.append("dates \(valid.startsOn ?? "–") to \(valid.endsOn ?? "–")")
            }
            season.name = valid.name
            season.startsOn = valid.startsOn
            season.endsOn = valid.endsOn
            season.divisions = valid.divisions
            season.points = valid.points
            season.handicap = valid.handicap
            season.updatedAt = stamp
            try SeasonRecord(season).update(db)
            // Its nights' boards place on net as the season now says.
            try db.execute(
                sql: "UPDATE rounds SET version = version + 1 WHERE eventID IN (SELECT id FROM events WHERE seasonID = ?)", arguments: [id.text])
            if !changes.isEmpty { try Self.audit(.season, id, actor: actor, at: moment, changes.joined(separator: ", "), db) }
            return season
        }
    }

    public func seasonSnapshot(_ id: UUID) async throws -> SeasonSnapshot {
        try await withRatings(try await pool.read { db in try self.seasonSnapshot(id, db) })
    }

    /// A season whose handicaps go by rating, with the club's ratings (as kept) and each
    /// night's points per throw added; any other as it is.
    func withRatings(_ snapshot: SeasonSnapshot) async throws -> SeasonSnapshot {
        guard snapshot.season.handicap?.kind == .rating else { return snapshot }
        let ratings = try await clubRatings()
        let nights = snapshot.nights
        var snapshot = snapshot
        snapshot.ratings = try await pool.read { db in try self.ratingBasis(nights, ratings, db) }
        return snapshot
    }

    /// Each player's rating now, and each night's layout's points per throw: the layout of the
    /// night's first round, from its latest rated round (or its par before any).
    func ratingBasis(_ nights: [EventSnapshot], _ ratings: ClubRatings, _ db: Database) throws -> RatingBasis {
        var basis = RatingBasis(ratings: ratings.players.compactMapValues(\.rating))
        var layouts: [UUID: Double] = [:]
        for night in nights {
            guard let course = night.boards.first?.snapshot.course else { continue }
            if layouts[course.id] == nil {
                let rounds = try String.fetchAll(
                    db,
                    sql: """
                        SELECT id FROM rounds WHERE courseID = ? AND status = 'completed' AND archived = 0
                        ORDER BY COALESCE(startedAt, createdAt) DESC, id DESC
                        """, arguments: [course.id.text])
                let latest = rounds.lazy.compactMap(UUID.init(text:)).compactMap { ratings.rounds[$0]?.result.ssa }.first
                layouts[course.id] = RoundRatings.layoutPointsPerThrow(latestSSA: latest, holes: course.holes.count, par: course.totalPar)
            }
            basis.pointsPerThrow[night.event.id] = layouts[course.id]
        }
        return basis
    }

    func seasonSnapshot(_ id: UUID, _ db: Database) throws -> SeasonSnapshot {
        guard let season = try SeasonRecord.fetchOne(db, key: id.text)?.domain() else { throw StoreError.notFound("Season") }
        // A removed night that was played is archived, and its results stay in the table.
        // Nights in the order they are played: by their day, a night without one by the day
        // it was set up (a night set up ahead keeps its place).
        let eventIDs = try String.fetchAll(
            db, sql: "SELECT id FROM events WHERE seasonID = ? ORDER BY COALESCE(playedOn, substr(createdAt, 1, 10)), createdAt, id",
            arguments: [id.text])
        let nights = try eventIDs.compactMap(UUID.init(text:)).map { try self.eventSnapshot($0, db) }
        var names: [UUID: String] = [:]
        for night in nights {
            for board in night.boards {
                for player in board.snapshot.players { names[player.id] = player.displayName }
                // A team round's players, who take their team's points.
                for team in board.snapshot.round.teams {
                    for player in team.playerIDs { names[player] = board.snapshot.reporterNames[player] ?? names[player] }
                }
            }
        }
        var frozen: [UUID: [UUID: Handicap?]] = [:]
        let aliases = try Self.aliasMap(db)
        for record in try FrozenHandicapRecord.filter(eventIDs.contains(FrozenHandicapRecord.Columns.eventID)).fetchAll(db) {
            let value = try record.domain()
            let player = aliases[value.playerID.text].flatMap(UUID.init(text:)) ?? value.playerID
            frozen[value.eventID, default: [:]][player] = .some(value.handicap)
        }
        return SeasonSnapshot(season: season, nights: nights, names: names, frozen: frozen)
    }

    /// Freezes the handicaps of a league night's round once it is under way: each of its
    /// players without a frozen handicap for the night gets the one the season's earlier nights
    /// give now (or none), and later corrections or rounds never change it. Runs inside the
    /// write that starts the round or adds a player to it; nothing to do outside a season with
    /// handicaps.
    func freezeHandicaps(of roundID: UUID, _ db: Database) throws {
        guard let record = try RoundRecord.fetchOne(db, key: roundID.text), record.status == RoundStatus.active.rawValue, !record.archived,
            let eventID = record.eventID.flatMap(UUID.init(text:)),
            let seasonID = try EventRecord.fetchOne(db, key: eventID.text)?.domain().seasonID
        else { return }
        var snapshot = try seasonSnapshot(seasonID, db)
        guard let method = snapshot.season.handicap else { return }
        if method.kind == .rating {
            let ratings = try clubRatings(db, playerCount: playerChanges.value, asOf: now(), keeping: false)
            snapshot.ratings = try ratingBasis(snapshot.nights, ratings, db)
        }
        let kept = snapshot.frozen[eventID] ?? [:]
        let missing = try Self.snapshot(roundID, db).round.playerIDs.filter { kept[$0] == nil }
        guard !missing.isEmpty else { return }
        let stamp = tick()
        let nights = snapshot.seasonNights
        var frozen: [(RecordType, String, HLC)] = []
        for player in missing {
            let value = FrozenHandicap(
                eventID: eventID, playerID: player,
                handicap: SeasonHandicaps.handicap(of: player, before: eventID, nights, method: method, ratings: snapshot.ratings),
                frozenAt: stamp)
            try FrozenHandicapRecord(value).insert(db, onConflict: .ignore)
            frozen.append((.frozenHandicap, value.recordID, stamp))
        }
        try Outbox.enqueue(frozen, db)
        // Reading the season kept a board of this round from before the freeze, at the version
        // the round keeps: let it go.
        _ = boards.take(roundID)
    }

    /// A player's handicap on every night of every season with a handicap method, oldest
    /// season first, and what it would be for their next night: by the method of the newest
    /// such season they have played a night of (else the newest such season), over every
    /// finished league round they played.
    public func handicapHistory(of playerID: UUID) async throws -> (
        current: Handicap?, currentSeason: Season?, history: [(season: Season, eventID: UUID, handicap: Handicap)]
    ) {
        guard try await player(playerID) != nil else { throw StoreError.notFound("Player") }
        var history: [(season: Season, eventID: UUID, handicap: Handicap)] = []
        var played: [HandicapRound] = []
        var newestPlayed: (season: Season, rating: (value: Double, pointsPerThrow: Double)?)?
        var newest: (season: Season, rating: (value: Double, pointsPerThrow: Double)?)?
        for season in try await seasons().reversed() {
            let snapshot = try await seasonSnapshot(season.id)
            let nights = snapshot.seasonNights
            let mine = nights.flatMap(\.rounds).filter { $0.playerID == playerID && $0.finished }
            played += mine.map { HandicapRound(roundID: $0.roundID, toPar: $0.toPar, holes: $0.holes) }
            guard season.handicap != nil else { continue }
            // By rating, the next night is on the layout of the season's latest night.
            let rating = snapshot.nights.last.flatMap { snapshot.ratings.basis(playerID, night: $0.event.id) }
            newest = (season, rating)
            if !mine.isEmpty { newestPlayed = (season, rating) }
            let perNight = snapshot.handicaps
            for night in nights {
                if let handicap = perNight[night.eventID]?[playerID] { history.append((season, night.eventID, handicap)) }
            }
        }
        let chosen = newestPlayed ?? newest
        let current = chosen.flatMap { chosen in chosen.season.handicap.flatMap { Handicap.compute($0, rounds: played, rating: chosen.rating) } }
        return (current, chosen?.season, history)
    }
}

/// What the TV shows of the league besides live boards: the current seasons' tables and the
/// nights whose check-in is open.
public struct TVLeague: Sendable {
    public struct OpenNight: Sendable {
        public var event: Event
        public var checkedIn: Int
    }

    public var seasons: [SeasonSnapshot]
    public var openNights: [OpenNight]
}

extension DomainStore {
    /// Seasons on the TV: those with a night under way (a round live or check-in open), and
    /// those whose dates include today.
    public func tvLeague() async throws -> TVLeague {
        let moment = now()
        let today = moment.formatted(.iso8601.year().month().day().dateSeparator(.dash).timeZone(separator: .omitted))
        var league = try await pool.read { db in
            var open: [TVLeague.OpenNight] = []
            for record in try EventRecord.filter(sql: "checkInOpenedAt IS NOT NULL AND archived = 0").order(EventRecord.Columns.createdAt).fetchAll(
                db)
            {
                let event = try record.domain()
                guard event.checkInOpen(at: moment), try !Self.nightOver(event.id, db) else { continue }
                let count = try CheckInRecord.filter(CheckInRecord.Columns.eventID == event.id.text && CheckInRecord.Columns.cancelled == false)
                    .fetchCount(db)
                open.append(TVLeague.OpenNight(event: event, checkedIn: count))
            }
            let live = try String.fetchAll(
                db,
                sql:
                    "SELECT DISTINCT e.seasonID FROM rounds r JOIN events e ON e.id = r.eventID WHERE r.status = 'active' AND r.archived = 0 AND e.seasonID IS NOT NULL"
            )
            var chosen = Set(live).union(open.compactMap { $0.event.seasonID?.text })
            for record in try SeasonRecord.fetchAll(db) {
                if let starts = record.startsOn, starts <= today, record.endsOn.map({ today <= $0 }) ?? true { chosen.insert(record.id) }
            }
            let seasons = try SeasonRecord.filter(keys: chosen).filter(SeasonRecord.Columns.archived == false).order(SeasonRecord.Columns.createdAt)
                .fetchAll(db)
            return TVLeague(seasons: try seasons.map { try self.seasonSnapshot(try StoredValue.uuid($0.id, "seasons.id"), db) }, openNights: open)
        }
        var withRatings: [SeasonSnapshot] = []
        for season in league.seasons { withRatings.append(try await self.withRatings(season)) }
        league.seasons = withRatings
        return league
    }

    /// Changes whenever a check-in, a night, a season, a tag or a pot does: the TV's league
    /// part follows it.
    public func leagueChanges() -> some AsyncSequence<String, any Error> & Sendable {
        changes(of: ["checkins", "events", "seasons", "tag_pools", "tag_moves", "pots", "money_entries", "fee_payments"]) { db in
            try String.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT (SELECT COUNT(*) || '/' || COALESCE(MAX(updatedAt), '') FROM checkins) || '|'
                            || (SELECT COUNT(*) || '/' || COALESCE(MAX(updatedAt), '') FROM events) || '|'
                            || (SELECT COUNT(*) || '/' || COALESCE(MAX(updatedAt), '') FROM seasons) || '|'
                            || (SELECT COUNT(*) || '/' || COALESCE(MAX(updatedAt), '') FROM tag_pools) || '|'
                            || (SELECT COUNT(*) || '/' || COALESCE(MAX(recordedAt), '') FROM tag_moves) || '|'
                            || (SELECT COUNT(*) || '/' || COALESCE(MAX(updatedAt), '') FROM pots) || '|'
                            || (SELECT COUNT(*) || '/' || COALESCE(MAX(recordedAt), '') FROM money_entries) || '|'
                            || (SELECT COUNT(*) || '/' || COALESCE(MAX(recordedAt), '') FROM fee_payments)
                        """)) ?? ""
        }
    }
}

extension DomainStore {
    /// A league night's season and, when the season has handicaps, each player's handicap and
    /// the throws it takes off the night; nil for a night of no season (or one whose season
    /// has not arrived through sync yet).
    public func nightSeason(_ event: Event) async throws -> (
        season: Season, handicaps: [UUID: (value: Double, strokes: Int)]?, unplaced: Bool
    )? {
        guard let seasonID = event.seasonID else { return nil }
        let snapshot: SeasonSnapshot
        do { snapshot = try await seasonSnapshot(seasonID) } catch StoreError.notFound { return nil }
        guard let method = snapshot.season.handicap else { return (snapshot.season, nil, false) }
        return (
            snapshot.season, snapshot.nightHandicaps(event.id).mapValues { ($0.handicap.value, $0.strokes) },
            snapshot.season.points.placesBy == .net && method.unhandicapped == .unplaced
        )
    }
}
