import Foundation
import GRDB
import HyzerCore

/// A season with its nights, read together: everything its table is computed from.
public struct SeasonSnapshot: Sendable {
    public var season: Season
    /// Its league nights in the order they were made, each with its rounds' boards.
    public var nights: [EventSnapshot]
    public var names: [UUID: String]

    /// The season's table: each night's final standings (or standings so far) placed by the
    /// season's rule, gross to par (net places come with handicaps).
    public var standings: SeasonStandings {
        let nights = nights.map { night in
            SeasonStandings.Night(
                eventID: night.event.id,
                results: night.standings.divisions.flatMap { division in
                    division.entries.filter { $0.holesPlayed > 0 || $0.dnf }.map { entry in
                        SeasonStandings.Result(playerID: entry.playerID, division: entry.division, score: entry.toPar, dnf: entry.dnf)
                    }
                })
        }
        return SeasonStandings.compute(nights: nights, rule: season.points, names: names, divisionOrder: season.divisions)
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

    /// Every season, the newest first.
    public func seasons() async throws -> [Season] {
        try await pool.read { db in
            try SeasonRecord.order(SeasonRecord.Columns.createdAt.desc).fetchAll(db).map { try $0.domain() }
        }
    }

    public func seasonSnapshot(_ id: UUID) async throws -> SeasonSnapshot {
        try await pool.read { db in
            guard let season = try SeasonRecord.fetchOne(db, key: id.text)?.domain() else { throw StoreError.notFound("Season") }
            let eventIDs = try String.fetchAll(
                db, sql: "SELECT id FROM events WHERE seasonID = ? AND archived = 0 ORDER BY createdAt, id", arguments: [id.text])
            let nights = try eventIDs.compactMap(UUID.init(text:)).map { try self.eventSnapshot($0, db) }
            var names: [UUID: String] = [:]
            for night in nights {
                for board in night.boards {
                    for player in board.snapshot.players { names[player.id] = player.displayName }
                }
            }
            return SeasonSnapshot(season: season, nights: nights, names: names)
        }
    }
}
