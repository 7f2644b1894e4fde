import Foundation
import GRDB
import HyzerCore

extension DomainStore {
    /// A coach enters a player's rating (their PDGA rating, say), or clears it with nil.
    /// Throws `FieldErrors` for a rating outside `Player.ratingRange`.
    public func setEnteredRating(_ id: UUID, to rating: Int?, actor: UUID?) async throws -> Player {
        let rating = try Player.validRating(rating)
        let before = try await player(id)
        let change = "entered rating \(before?.enteredRating.map(String.init) ?? "none") → \(rating.map(String.init) ?? "none")"
        return try await updatePlayer(id, audit: (actor, change)) { player, db in
            try Self.checkEditable(player, actor: actor, db)
            player.enteredRating = rating
        }
    }

    /// Every round and player rating of the club, computed from the rounds (completed ones
    /// rated for good, live ones provisionally) and kept until the user's data changes: a
    /// score costs nothing here until someone reads a rating.
    public func clubRatings() async throws -> ClubRatings {
        let (kept, count) = keptRatings.lookup(.club)
        if let kept { return kept }
        let moment = now()
        let computed = try await pool.read { db in try self.clubRatings(db, playerCount: self.playerChanges.value, asOf: moment) }
        keptRatings.keep(computed, for: .club, readAt: count)
        return computed
    }

    /// The club's ratings from the rounds as `db` has them; the completed rounds' part is
    /// reused while they and the entered ratings stand. `playerCount`: `playerChanges` read
    /// before the transaction's first statement. Inside a write, `keeping` false: what it
    /// reads may yet be rolled back, so nothing read is kept.
    func clubRatings(_ db: Database, playerCount: UInt64, asOf moment: Date, keeping: Bool = true) throws -> ClubRatings {
        let (rounds, versions) = try ratingRounds(db, playerCount: playerCount, keeping: keeping)
        let entered = try Self.enteredRatings(db)
        var hasher = Hasher()
        for round in rounds where round.completed {
            hasher.combine(round.id)
            hasher.combine(versions[round.id])
            hasher.combine(round.playedAt)
        }
        for (player, rating) in entered.sorted(by: { $0.key.lowercasedText < $1.key.lowercasedText }) {
            hasher.combine(player)
            hasher.combine(rating)
        }
        hasher.combine(try currentAliases(playerCount: playerCount, db))
        let key = hasher.finalize()
        let settled = roundDigests.settledRatings(key) ?? ClubRatings.settle(rounds, entered: entered)
        if keeping { roundDigests.keepSettled(settled, for: key) }
        return ClubRatings.compute(rounds, entered: entered, asOf: moment, settled: settled)
    }

    /// Rounds under way or completed (not removed), each as its board reads it, and the
    /// version each was read at.
    /// The rounds whose scores are each player's own throws: a team round's are its teams',
    /// a putting round's are putts made, and neither rates a player or a hole.
    static let ratedRounds = "archived = 0 AND status != 'scheduled' AND teams = '' AND format != 'putting' AND mulligans = ''"

    func ratingRounds(_ db: Database, playerCount: UInt64, keeping: Bool = true) throws -> ([ClubRatings.Round], versions: [UUID: Int]) {
        let rows = try Row.fetchAll(db, sql: "SELECT id, version FROM rounds WHERE \(Self.ratedRounds)")
        let listed = rows.compactMap { row in UUID(text: row["id"]).map { (id: $0, version: row["version"] as Int) } }
        let digests = try digests(listed, playerCount: playerCount, keeping: keeping, db)
        if keeping { roundDigests.keepOnly(Set(listed.map(\.id))) }
        let rounds = listed.compactMap { id, _ in
            digests[id].map { ClubRatings.Round(id: id, holes: $0.holes, playedAt: $0.playedAt, completed: $0.completed, entries: $0.entries) }
        }
        return (rounds, digests.mapValues(\.version))
    }

    static func enteredRatings(_ db: Database) throws -> [UUID: Int] {
        let rows = try Row.fetchAll(db, sql: "SELECT id, enteredRating FROM players WHERE enteredRating IS NOT NULL AND aliasOf IS NULL")
        return rows.reduce(into: [:]) { result, row in
            if let id = UUID(text: row["id"]) { result[id] = row["enteredRating"] }
        }
    }
}

extension DomainStore {
    /// How a layout's holes play over its rounds (not removed, started): every round on the
    /// course, or those of `roundIDs` only (one round, an event's).
    public func holeStatistics(course courseID: UUID, rounds roundIDs: [UUID]? = nil) async throws -> HoleStatistics {
        try await pool.read { db in
            let playerCount = self.playerChanges.value
            guard let record = try CourseRecord.fetchOne(db, key: courseID.text) else { throw StoreError.notFound("Course") }
            let course = try Self.course(record, db)
            let rows: [(id: UUID, version: Int)]
            if let roundIDs {
                rows = try roundIDs.compactMap { id in
                    try Int.fetchOne(db, sql: "SELECT version FROM rounds WHERE id = ?", arguments: [id.text]).map { (id, $0) }
                }
            } else {
                rows = try Row.fetchAll(
                    db, sql: "SELECT id, version FROM rounds WHERE courseID = ? AND \(Self.ratedRounds)",
                    arguments: [courseID.text]
                ).compactMap { row in UUID(text: row["id"]).map { ($0, row["version"]) } }
            }
            let digests = try self.digests(rows, playerCount: playerCount, db).values.filter { $0.courseID == courseID }
            return HoleStatistics.compute(course: course, tallies: digests.map(\.tally), rounds: digests.count)
        }
    }
}

extension DomainStore {
    /// Every round a player is in (not removed, started; not a putting night: putts are not a
    /// round of golf), the newest first, each in one line from its digest: a player with
    /// hundreds of rounds costs a lookup per round, not a board.
    public func playerRounds(of playerID: UUID) async throws -> [PlayerRoundLine] {
        try await pool.read { db in
            let playerCount = self.playerChanges.value
            let canonical = try Self.canonicalID(playerID, db)
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT r.id, r.version, r.name, COALESCE(r.startedAt, r.createdAt) AS playedAt, c.name AS courseName
                    FROM rounds r JOIN round_players p ON p.roundID = r.id JOIN players pl ON pl.id = p.playerID
                    LEFT JOIN courses c ON c.id = r.courseID
                    WHERE (pl.id = ?1 OR pl.aliasOf = ?1) AND r.archived = 0 AND r.status != 'scheduled' AND r.format != 'putting'
                    GROUP BY r.id ORDER BY playedAt DESC, r.id
                    """, arguments: [canonical.text])
            let listed = rows.compactMap { row in UUID(text: row["id"]).map { (id: $0, row: row) } }
            let digests = try self.digests(listed.map { ($0.id, $0.row["version"]) }, playerCount: playerCount, db)
            return listed.compactMap { id, row in
                digests[id]?.lines[canonical].map { result in
                    PlayerRoundLine(roundID: id, name: row["name"], playedAt: row["playedAt"], courseName: row["courseName"] ?? "", result: result)
                }
            }
        }
    }
}
