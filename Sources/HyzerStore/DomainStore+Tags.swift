import Foundation
import GRDB
import HyzerCore

// Bag tags: pools, a coach's moves, and the holders derived from them and the tag rounds.
extension DomainStore {
    /// A new pool of `numbers` (validated by `TagPool.validated`), optionally of a season.
    public func createTagPool(name: String, numbers: [Int], seasonID: UUID?, actor: UUID?) async throws -> TagPool {
        let pool = TagPool(id: UUID(), name: name, numbers: numbers, seasonID: seasonID, createdBy: actor, createdAt: now(), updatedAt: tick())
        let moment = now()
        return try await write(queueing: { [(.tagPool, $0.id.text, $0.updatedAt)] }) { db in
            if let seasonID, try SeasonRecord.fetchOne(db, key: seasonID.text) == nil {
                throw LeagueRejection.invalid(FieldErrors("seasonID", "That season does not exist."))
            }
            try TagPoolRecord(pool).insert(db)
            try Self.audit(.tagPool, pool.id, actor: actor, at: moment, "created with \(numbers.count) tags", db)
            return pool
        }
    }

    /// Every player's display name by id, merged players included: a pool's history names
    /// whoever held a tag.
    public func playerNames() async throws -> [UUID: String] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: "SELECT id, displayName FROM players").reduce(into: [:]) { names, row in
                if let id = UUID(text: row["id"]) { names[id] = row["displayName"] }
            }
        }
    }

    public func tagPools() async throws -> [TagPool] {
        try await pool.read { db in
            try TagPoolRecord.filter(Column("archived") == false).order(Column("name")).fetchAll(db).map { try $0.domain() }
        }
    }

    /// The pool's holders, unassigned tags and history, derived now.
    public func tagLedger(_ poolID: UUID) async throws -> BagTags.Ledger {
        try await pool.read { db in try self.tagLedger(poolID, playerCount: self.playerChanges.value, db) }
    }

    /// Every pool `playerID` has a tag history in, with their record there.
    public func playerTags(_ playerID: UUID) async throws -> [(pool: TagPool, record: BagTags.PlayerRecord)] {
        try await pool.read { db in
            let playerCount = self.playerChanges.value
            let canonical = try Self.canonicalID(playerID, db)
            return try TagPoolRecord.filter(Column("archived") == false).order(Column("name")).fetchAll(db).compactMap { record in
                let ledger = try self.tagLedger(try StoredValue.uuid(record.id, "tag_pools.id"), playerCount: playerCount, db)
                return ledger.record(of: canonical).map { (ledger.pool, $0) }
            }
        }
    }

    /// Records a coach's move, checked against the holders as they stand: an assigned tag
    /// must be free and its player without one; a reclaimed tag must be held; traders must
    /// both hold a tag.
    public func recordTagMove(_ kind: TagMove.Kind, in poolID: UUID, actor: UUID?) async throws -> TagMove {
        let moment = now()
        let stamp = tick()
        return try await write(queueing: { [(.tagMove, $0.id.text, $0.recordedAt)] }) { db in
            let ledger = try self.tagLedger(poolID, playerCount: self.playerChanges.value, keeping: false, db)
            try Self.refuseWhileInPlay(poolID, db)
            let holders = Dictionary(ledger.holders.map { ($0.tag, $0.playerID) }, uniquingKeysWith: { first, _ in first })
            let tags = Dictionary(ledger.holders.map { ($0.playerID, $0.tag) }, uniquingKeysWith: { first, _ in first })
            func player(_ id: UUID, field: String = "playerIDs") throws -> UUID {
                guard try PlayerRecord.fetchOne(db, key: id.text) != nil else {
                    throw LeagueRejection.invalid(FieldErrors(field, "That player does not exist."))
                }
                return try Self.canonicalID(id, db)
            }
            var canonical = kind
            switch kind {
            case .assign(let tag, let id):
                let who = try player(id, field: "playerID")
                guard ledger.pool.numbers.contains(tag) else {
                    throw LeagueRejection.invalid(FieldErrors("tag", "Tag \(tag) is not in \(ledger.pool.name)."))
                }
                if holders[tag] != nil { throw LeagueRejection.conflict("Tag \(tag) is held: reclaim it first.") }
                if let held = tags[who] { throw LeagueRejection.conflict("That player holds tag \(held): reclaim it first.") }
                canonical = .assign(tag: tag, player: who)
            case .reclaim(let tag):
                guard ledger.pool.numbers.contains(tag) else {
                    throw LeagueRejection.invalid(FieldErrors("tag", "Tag \(tag) is not in \(ledger.pool.name)."))
                }
                if holders[tag] == nil { throw LeagueRejection.conflict("Tag \(tag) is not held by anyone.") }
            case .trade(let a, let b):
                let (first, second) = (try player(a), try player(b))
                guard first != second else { throw LeagueRejection.invalid(FieldErrors("playerIDs", "A trade needs two different players.")) }
                guard tags[first] != nil, tags[second] != nil else {
                    throw LeagueRejection.conflict("Both players must hold a tag of \(ledger.pool.name) to trade.")
                }
                canonical = .trade(first, second)
            }
            let move = TagMove(id: UUID(), poolID: poolID, kind: canonical, recordedBy: actor, recordedAt: stamp)
            try TagMoveRecord(move).insert(db)
            try Self.audit(.tagMove, move.id, actor: actor, at: moment, "\(canonical.name) in \(ledger.pool.name)", db)
            try Self.touchTagRounds(poolID, db)
            return move
        }
    }

    /// Renames a round and makes it a tag round of a pool (`.some(nil)`: no longer one), in
    /// one transaction: what is refused leaves the rest unwritten.
    public func editRound(_ roundID: UUID, name: String?, tagsID poolID: UUID??, actor: UUID?) async throws -> RoundSnapshot {
        try await changeRound(roundID, actor: actor) { round, _, db in
            var lines: [String] = []
            if let name, name != round.name {
                lines.append("name “\(round.name)” → “\(name)”")
                round.name = name
            }
            if let poolID, poolID != round.tagsID {
                if let poolID, try TagPoolRecord.fetchOne(db, key: poolID.text) == nil {
                    throw LeagueRejection.invalid(FieldErrors("tagsID", "That bag-tag pool does not exist."))
                }
                round.tagsID = poolID
                lines.append(poolID.map { "tag round of pool \($0.text)" } ?? "no longer a tag round")
            }
            return lines.isEmpty ? "unchanged" : lines.joined(separator: "; ")
        }
    }

    /// A round counts from when it started: a move recorded while one of the pool's tag rounds
    /// is in play would fall after that round's swap and land on whoever the swap gave the
    /// tag, not on who holds it at the desk. Moves wait until the round is completed.
    static func refuseWhileInPlay(_ poolID: UUID, _ db: Database) throws {
        if let name = try String.fetchOne(
            db, sql: "SELECT name FROM rounds WHERE tagsID = ? AND status = 'active' AND archived = 0 LIMIT 1", arguments: [poolID.text])
        {
            throw LeagueRejection.conflict("\(name) is a tag round of this pool in play: record moves once it is completed.")
        }
    }

    /// The pool's completed tag rounds show the exchange, which any move or pool change can
    /// shift: their boards are read again.
    static func touchTagRounds(_ poolID: UUID, _ db: Database) throws {
        try db.execute(sql: "UPDATE rounds SET version = version + 1 WHERE tagsID = ?", arguments: [poolID.text])
    }

    func tagLedger(_ poolID: UUID, playerCount: UInt64, keeping: Bool = true, _ db: Database) throws -> BagTags.Ledger {
        guard let pool = try TagPoolRecord.fetchOne(db, key: poolID.text)?.domain() else { throw StoreError.notFound("Bag-tag pool") }
        let moves = try TagMoveRecord.filter(Column("poolID") == poolID.text).fetchAll(db).map { record in
            var move = try record.domain()
            switch move.kind {
            case .assign(let tag, let player): move.kind = .assign(tag: tag, player: try Self.canonicalID(player, db))
            case .trade(let a, let b): move.kind = .trade(try Self.canonicalID(a, db), try Self.canonicalID(b, db))
            case .reclaim: break
            }
            return move
        }
        let rows = try Row.fetchAll(
            db, sql: "SELECT id, version FROM rounds WHERE tagsID = ? AND archived = 0 AND status = 'completed'", arguments: [poolID.text])
        let listed = rows.compactMap { row in UUID(text: row["id"]).map { (id: $0, version: row["version"] as Int) } }
        let digests = try digests(listed, playerCount: playerCount, keeping: keeping, db)
        let challenges = try TagChallengeRecord.filter(Column("poolID") == poolID.text).fetchAll(db).map { try $0.domain() }
        let rounds = digests.map { id, digest in
            BagTags.Round(
                id: id, startedAt: digest.playedAt,
                finishers: digest.entries.filter(\.finished).map { BagTags.Finisher(playerID: $0.playerID, strokes: $0.strokes) })
        }
        return BagTags.derive(pool: pool, moves: moves, rounds: rounds, challenges: challenges)
    }
}
