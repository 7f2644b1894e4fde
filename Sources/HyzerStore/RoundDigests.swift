import Foundation
import GRDB
import HyzerCore
import Synchronization

/// What each round gives the club's ratings and its layout's hole statistics, kept per round
/// while the round's version (and the alias map it was read under) stands: after a score
/// only that round is read again, and a pass over the club's thousands of rounds neither
/// rebuilds their boards nor pushes the live rounds' boards out of the board cache.
final class RoundDigests: Sendable {
    struct Digest: Sendable {
        var version: Int
        var aliases: Int
        var courseID: UUID
        var holes: Int
        /// When it was played (started, else made) and whether it is completed, as the
        /// version read says.
        var playedAt: Date
        var completed: Bool
        /// Everyone who has scored: strokes so far, and whether they finished.
        var entries: [ClubRatings.Entry]
        var tally: HoleStatistics.Tally
        /// Each player's round as their page lists it.
        var lines: [UUID: PlayerRoundLine.Result]
    }

    private let state = Mutex<[UUID: Digest]>([:])
    /// The completed rounds rated in order, under the fingerprint of what they came from (each
    /// completed round's id, version and date, the entered ratings, the alias map): a score in
    /// a live round leaves it standing.
    private let settled = Mutex<(key: Int, value: ClubRatings.Settled)?>(nil)

    func settledRatings(_ key: Int) -> ClubRatings.Settled? {
        settled.withLock { kept in kept.flatMap { $0.key == key ? $0.value : nil } }
    }

    func keepSettled(_ value: ClubRatings.Settled, for key: Int) {
        settled.withLock { $0 = (key, value) }
    }

    func digest(_ roundID: UUID, version: Int, aliases: Int) -> Digest? {
        state.withLock { digests in
            digests[roundID].flatMap { $0.version == version && $0.aliases == aliases ? $0 : nil }
        }
    }

    func keep(_ digest: Digest, for roundID: UUID) {
        state.withLock { $0[roundID] = digest }
    }

    /// Drops the rounds a full pass no longer saw (removed ones).
    func keepOnly(_ roundIDs: Set<UUID>) {
        state.withLock { digests in digests = digests.filter { roundIDs.contains($0.key) } }
    }

    /// After the whole file's contents were replaced (a restore): versions start over.
    func removeAll() {
        state.withLock { $0 = [:] }
        settled.withLock { $0 = nil }
    }
}

extension DomainStore {
    /// The digest of each round of `rows` (id and version), read anew only where the version
    /// moved. `playerCount`: `playerChanges` read before the transaction's first statement;
    /// `keeping` false inside a write (what it reads may yet be rolled back).
    func digests(_ rows: [(id: UUID, version: Int)], playerCount: UInt64, keeping: Bool = true, _ db: Database) throws -> [UUID: RoundDigests.Digest]
    {
        let aliases = try currentAliases(playerCount: playerCount, db).hashValue
        var result: [UUID: RoundDigests.Digest] = [:]
        for row in rows {
            if let kept = roundDigests.digest(row.id, version: row.version, aliases: aliases) {
                result[row.id] = kept
                continue
            }
            let board: RoundBoard
            do { board = try passingBoard(row.id, db) } catch StoreError.notFound { continue }
            let holes = board.snapshot.course.holes.count
            let digest = RoundDigests.Digest(
                version: board.version, aliases: aliases, courseID: board.snapshot.course.id, holes: holes,
                playedAt: board.snapshot.round.startedAt ?? board.snapshot.round.createdAt, completed: board.snapshot.round.status == .completed,
                entries: board.standings.entries.filter { $0.thru > 0 }.map {
                    ClubRatings.Entry(playerID: $0.playerID, strokes: $0.strokes, finished: !$0.dnf && $0.thru == holes, dnf: $0.dnf)
                },
                tally: HoleStatistics.Tally(board), lines: PlayerRoundLine.results(board))
            if keeping { roundDigests.keep(digest, for: row.id) }
            result[row.id] = digest
        }
        return result
    }
}

/// One of a player's rounds as their page lists it, read from the round's digest.
public struct PlayerRoundLine: Sendable {
    public struct Result: Sendable {
        public var strokes: Int
        public var toPar: Int
        public var thru: Int
        public var dnf: Bool
        /// Their holes by kind (birdies, pars…).
        public var kinds: HoleStatistics.Distribution
    }

    public var roundID: UUID
    public var name: String
    public var playedAt: Date
    public var courseName: String
    public var result: Result

    static func results(_ board: RoundBoard) -> [UUID: Result] {
        let pars = Dictionary(board.snapshot.course.holes.map { ($0.number, $0.par) }, uniquingKeysWith: { first, _ in first })
        var scored: [UUID: [(strokes: Int, par: Int)]] = [:]
        for (key, state) in board.scores.holes {
            if let strokes = state.winner.score, let par = pars[key.hole] { scored[key.playerID, default: []].append((strokes, par)) }
        }
        return Dictionary(
            board.standings.entries.map { entry in
                (
                    entry.playerID,
                    Result(
                        strokes: entry.strokes, toPar: entry.toPar, thru: entry.thru, dnf: entry.dnf,
                        kinds: .of(scored[entry.playerID] ?? []))
                )
            }, uniquingKeysWith: { first, _ in first })
    }
}
