import Foundation
import GRDB
import HyzerCore

// Brackets: an event's single-elimination bracket and the match-play rounds that decide it.
extension DomainStore {
    /// A bracket as it stands, with every name its page shows.
    public struct BracketSnapshot: Sendable {
        public var bracket: Bracket
        public var state: BracketState
        public var event: Event
        public var names: [UUID: String]
    }

    /// Makes an event's bracket from seeds given best first. One bracket per event.
    public func createBracket(eventID: UUID, seeds: [UUID], deadlines: [Date?], actor: UUID?) async throws -> BracketSnapshot {
        let stamp = tick()
        let moment = now()
        let bracket = try await write(queueing: { [(.bracket, $0.id.text, $0.updatedAt)] }) { db in
            guard try EventRecord.fetchOne(db, key: eventID.text) != nil else { throw StoreError.notFound("Event") }
            if try BracketRecord.filter(Column("eventID") == eventID.text).fetchCount(db) > 0 {
                throw LeagueRejection.conflict("This event already has a bracket.")
            }
            let ids = Bracket.matchIDs(seeds: seeds.count)
            guard deadlines.count <= ids.count else {
                throw LeagueRejection.invalid(
                    FieldErrors("deadlines", "The bracket has \(ids.count) round\(ids.count == 1 ? "" : "s"): give at most that many deadlines."))
            }
            let bracket = Bracket(
                id: UUID(), eventID: eventID, seeds: seeds, matchIDs: ids, deadlines: deadlines, createdBy: actor, createdAt: moment,
                updatedAt: stamp)
            try BracketRecord(bracket).insert(db)
            try Self.audit(.bracket, bracket.id, actor: actor, at: moment, "bracket of \(seeds.count) made", db)
            return bracket
        }
        return try await bracketSnapshot(eventID: bracket.eventID)
    }

    /// Seeds ordered by rating or by the night's handicap, best first (a player with neither
    /// last, in the order given).
    public func seeded(_ players: [UUID], by balance: TeamDraw.Balance, eventID: UUID) async throws -> [UUID] {
        TeamDraw.strongestFirst(players, strength: try await drawStrength(balance, players: players, eventID: eventID))
    }

    public func hasBracket(eventID: UUID) async throws -> Bool {
        try await pool.read { db in try BracketRecord.filter(Column("eventID") == eventID.text).fetchCount(db) > 0 }
    }

    public func bracketSnapshot(eventID: UUID) async throws -> BracketSnapshot {
        try await pool.read { db in try self.bracketSnapshot(eventID: eventID, db) }
    }

    func bracketSnapshot(eventID: UUID, _ db: Database) throws -> BracketSnapshot {
        guard let event = try EventRecord.fetchOne(db, key: eventID.text)?.domain() else { throw StoreError.notFound("Event") }
        guard let bracket = try BracketRecord.filter(Column("eventID") == eventID.text).fetchOne(db)?.domain() else {
            throw StoreError.notFound("Bracket")
        }
        let state = BracketState.derive(bracket, plays: try matchRounds(of: bracket, db))
        let ids = Array(Set(bracket.seeds))
        let rows = try Row.fetchAll(
            db, sql: "SELECT id, displayName FROM players WHERE id IN (\(databaseQuestionMarks(count: ids.count)))",
            arguments: StatementArguments(ids.map(\.text)))
        var names: [UUID: String] = [:]
        for row in rows { if let id = UUID(text: row["id"]) { names[id] = row["displayName"] } }
        return BracketSnapshot(bracket: bracket, state: state, event: event, names: names)
    }

    /// Each match's rounds (not removed), oldest first, as the holes both sides scored.
    func matchRounds(of bracket: Bracket, _ db: Database) throws -> [UUID: [BracketState.MatchRound]] {
        let matchIDs = bracket.matchIDs.flatMap { $0 }
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT id, matchID FROM rounds WHERE archived = 0 AND matchID IN (\(databaseQuestionMarks(count: matchIDs.count)))
                ORDER BY createdAt, id
                """, arguments: StatementArguments(matchIDs.map(\.text)))
        var plays: [UUID: [BracketState.MatchRound]] = [:]
        for row in rows {
            guard let roundID = UUID(text: row["id"]), let matchID = UUID(text: row["matchID"]) else { continue }
            let board = try passingBoard(roundID, db)
            plays[matchID, default: []].append(BracketState.MatchRound(board))
        }
        return plays
    }

    /// A player concedes their match (a coach records it): the other side goes through.
    public func concede(match matchID: UUID, by playerID: UUID, eventID: UUID, actor: UUID?) async throws -> BracketSnapshot {
        let stamp = tick()
        let moment = now()
        _ = try await write(queueing: { [(.bracket, $0.id.text, $0.updatedAt)] }) { db in
            let snapshot = try self.bracketSnapshot(eventID: eventID, db)
            guard let match = snapshot.state.match(matchID) else { throw StoreError.notFound("Match") }
            guard playerID == match.a || playerID == match.b else {
                throw LeagueRejection.invalid(FieldErrors("playerID", "Only a player of the match can concede it."))
            }
            guard match.winner == nil else { throw LeagueRejection.conflict("That match is decided already.") }
            var bracket = snapshot.bracket
            bracket.conceded[matchID] = playerID
            bracket.updatedAt = stamp
            try BracketRecord(bracket).update(db)
            try Self.audit(.bracket, bracket.id, actor: actor, at: moment, "\(snapshot.names[playerID] ?? "a player") conceded a match", db)
            return bracket
        }
        return try await bracketSnapshot(eventID: eventID)
    }

    /// The round that plays a bracket's match: its two sides, or its sudden death once the
    /// match is level after its round. Refused while the match cannot be played.
    func matchDraft(_ matchID: UUID, _ db: Database) throws -> (event: Event, players: [UUID], suddenDeath: Bool, names: [UUID: String]) {
        guard
            let eventID = try String.fetchOne(
                db, sql: "SELECT eventID FROM brackets WHERE matchIDs LIKE ?", arguments: ["%\(matchID.text)%"]
            ).flatMap(UUID.init(text:))
        else { throw LeagueRejection.invalid(FieldErrors("matchID", "There is no such bracket match.")) }
        let snapshot = try bracketSnapshot(eventID: eventID, db)
        guard let match = snapshot.state.match(matchID) else {
            throw LeagueRejection.invalid(FieldErrors("matchID", "There is no such bracket match."))
        }
        if match.bye { throw LeagueRejection.conflict("That match is a bye: its player goes through without playing.") }
        guard let a = match.a, let b = match.b else {
            throw LeagueRejection.conflict("That match waits for the winners of the matches before it.")
        }
        guard match.winner == nil else { throw LeagueRejection.conflict("That match is decided already.") }
        if let play = match.play, !play.inSuddenDeath {
            throw LeagueRejection.conflict("That match is under way: score it in its round.")
        }
        if let last = match.roundIDs.last,
            try String.fetchOne(db, sql: "SELECT status FROM rounds WHERE id = ?", arguments: [last.text]) != "completed"
        {
            throw LeagueRejection.conflict("That match is level: complete its round, then start its sudden death.")
        }
        return (snapshot.event, [a, b], match.play?.inSuddenDeath == true, snapshot.names)
    }
}
