import Foundation
import GRDB
import HyzerCore

extension DomainStore {
    /// A coach enters a player's rating (their PDGA rating, say), or clears it with nil.
    /// Throws `FieldErrors` for a rating outside `Player.ratingRange`.
    public func setEnteredRating(_ id: UUID, to rating: Int?, actor: UUID?) async throws -> Player {
        if let rating, !Player.ratingRange.contains(rating) {
            throw FieldErrors(
                "rating", "A rating is a whole number from \(Player.ratingRange.lowerBound) to \(Player.ratingRange.upperBound), or null to clear it."
            )
        }
        let before = try await player(id)
        let change = "entered rating \(before?.enteredRating.map(String.init) ?? "none") → \(rating.map(String.init) ?? "none")"
        return try await updatePlayer(id, audit: (actor, change)) { player, _ in player.enteredRating = rating }
    }

    /// Every round and player rating of the club, computed from the rounds (completed ones
    /// rated for good, live ones provisionally) and kept until the user's data changes: a
    /// score costs nothing here until someone reads a rating.
    public func clubRatings() async throws -> ClubRatings {
        let (kept, count) = keptRatings.lookup(.club)
        if let kept { return kept }
        let moment = now()
        let computed = try await pool.read { db in ClubRatings.compute(try self.ratingRounds(db), entered: try Self.enteredRatings(db), asOf: moment)
        }
        keptRatings.keep(computed, for: .club, readAt: count)
        return computed
    }

    /// Rounds under way or completed (not removed), each as its board reads it.
    func ratingRounds(_ db: Database) throws -> [ClubRatings.Round] {
        let rows = try Row.fetchAll(
            db, sql: "SELECT id, status, COALESCE(startedAt, createdAt) AS playedAt FROM rounds WHERE archived = 0 AND status != 'scheduled'")
        return try rows.compactMap { row -> ClubRatings.Round? in
            guard let id = UUID(text: row["id"]) else { return nil }
            let board: RoundBoard
            do { board = try self.board(id, db) } catch StoreError.notFound { return nil }
            let holes = board.snapshot.course.holes.count
            return ClubRatings.Round(
                id: id, holes: holes, playedAt: row["playedAt"], completed: (row["status"] as String) == RoundStatus.completed.rawValue,
                entries: board.standings.entries.filter { $0.thru > 0 }.map {
                    ClubRatings.Entry(playerID: $0.playerID, strokes: $0.strokes, finished: !$0.dnf && $0.thru == holes)
                })
        }
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
            guard let record = try CourseRecord.fetchOne(db, key: courseID.text) else { throw StoreError.notFound("Course") }
            let course = try Self.course(record, db)
            let ids =
                try roundIDs?.map(\.text)
                ?? String.fetchAll(
                    db, sql: "SELECT id FROM rounds WHERE courseID = ? AND archived = 0 AND status != 'scheduled' ORDER BY createdAt, id",
                    arguments: [courseID.text])
            var scores: [(hole: Int, strokes: Int)] = []
            var counted = 0
            for id in ids.compactMap(UUID.init(text:)) {
                let board: RoundBoard
                do { board = try self.board(id, db) } catch StoreError.notFound { continue }
                guard board.snapshot.course.id == courseID else { continue }
                counted += 1
                for (key, state) in board.scores.holes where board.snapshot.round.playerIDs.contains(key.playerID) {
                    if let strokes = state.winner.score { scores.append((key.hole, strokes)) }
                }
            }
            return HoleStatistics.compute(course: course, scores: scores, rounds: counted)
        }
    }
}

extension DomainStore {
    /// Every round a player is in (not removed, started), the newest first, each with its board.
    public func rounds(of playerID: UUID) async throws -> [RoundBoard] {
        try await pool.read { db in
            let canonical = try Self.canonicalID(playerID, db)
            let ids = try String.fetchAll(
                db,
                sql: """
                    SELECT r.id FROM rounds r JOIN round_players p ON p.roundID = r.id JOIN players pl ON pl.id = p.playerID
                    WHERE (pl.id = ?1 OR pl.aliasOf = ?1) AND r.archived = 0 AND r.status != 'scheduled'
                    GROUP BY r.id ORDER BY COALESCE(r.startedAt, r.createdAt) DESC, r.id
                    """, arguments: [canonical.text])
            return try ids.compactMap(UUID.init(text:)).compactMap { id in
                do { return try self.board(id, db) } catch StoreError.notFound { return nil }
            }
        }
    }
}
