import Foundation
import GRDB
import HyzerCore
import Testing

@testable import HyzerStore

/// Every synced record type is declared once (`RecordType.declaration`, `RecordType.stored`)
/// and goes through the cloud and back whole. A type added without a sample here, a table,
/// a version column or a round trip fails.
@Suite struct RecordRegistryTests {
    @Test func everyTypeIsDeclaredOnceWithItsTableAndVersionColumn() async throws {
        let directory = try TemporaryDirectory()
        let stores = try await Stores(directory: directory.url)
        for type in RecordType.allCases {
            #expect(type.declaration.recordType == type, "\(type)'s declaration names another type")
            guard type.declaration is any StoredRecord.Type else {
                Issue.record("\(type.declaration) is not a StoredRecord: add its conformance in Sources/HyzerStore/Records")
                continue
            }
            let columns = try await stores.domain.pool.read { db in try db.columns(in: type.stored.table).map(\.name) }
            #expect(columns.contains("id") && columns.contains(type.stored.versionColumn), "\(type): \(type.stored.table) \(columns)")
        }
        #expect(Set(RecordType.allCases.map(\.applyOrder)).count == RecordType.allCases.count, "one place in a batch per type")
    }

    /// A club with at least one record of every type, written through the store.
    static func clubOfEveryType(_ store: DomainStore) async throws {
        _ = try await store.updateClubSettings(clubName: "Pine Loop DGC")
        let course = try await store.createCourse(CourseDraft(name: "Pine Loop", holeCount: "9").validated())
        let ann = try await store.createPlayer(PlayerDraft(displayName: "Ann", handle: "ann").validated(), by: nil)
        let season = try await store.createSeason(SeasonDraft(name: "Summer", startsOn: "2026-05-05", divisions: ["MPO"]).validated(), createdBy: nil)
        let night = try await store.createEvent(EventDraft(name: "Week 1", divisions: ["MPO"], seasonID: season.id.lowercasedText).validated())
        let ace = try await store.createPot(name: "Ace pot", kind: "ace", seasonID: season.id, capCents: 5_000, overflowPotID: nil, actor: nil)
        let plan = FeePlan(
            entry: ["*": 1_000], split: [.init(fund: Fund.pot(ace.id).text, cents: 100), .init(fund: "purse", percent: 100)],
            payout: .init(percentages: [100]))
        _ = try await store.setSeasonFees(season.id, plan, actor: nil)
        _ = try await store.checkIn(.player(ann.id), division: "MPO", paid: true, at: night.id, by: nil)
        _ = try await store.contribute(to: ace.id, cents: 250, eventID: night.id, note: "sponsor", actor: nil)
        let round = try await store.createRound(
            RoundDraft.Valid(name: "Week 1", courseID: course.id, playerIDs: [ann.id], startNow: true, eventID: night.id, divisions: [ann.id: "MPO"]))
        for hole in 1...9 {
            _ = try await store.recordScore(ScoreSubmission(playerID: ann.id, hole: hole, strokes: .count(3)), in: round.id)
        }
        _ = try await store.sign(playerID: ann.id, in: round.id, by: nil)
        let frozen = FrozenHandicap(eventID: night.id, playerID: ann.id, handicap: nil, frozenAt: store.tick())
        _ = try await store.applyRemote([.record(frozen)])
        let tags = try await store.createTagPool(name: "Club tags", numbers: [1, 2, 3], seasonID: season.id, actor: nil)
        _ = try await store.recordTagMove(.assign(tag: 1, player: ann.id), in: tags.id, actor: nil)
        let bo = try await store.createPlayer(PlayerDraft(displayName: "Bo", handle: "bo").validated(), by: nil)
        _ = try await store.recordTagMove(.assign(tag: 2, player: bo.id), in: tags.id, actor: nil)
        _ = try await store.issueTagChallenge(in: tags.id, challenger: bo.id, challenged: [ann.id], days: 7, by: bo.id, coach: false)
        _ = try await store.editRound(round.id, name: nil, tagsID: .some(tags.id), actor: nil)
        _ = try await store.payPot(ace.id, eventID: night.id, playerIDs: [ann.id], rolloverTo: nil, actor: nil)
        _ = try await store.recordPursePayout(
            eventID: night.id, playerID: ann.id, cents: nil, method: .cash, division: nil, place: nil, note: nil, actor: nil)
        let cup = try await store.createEvent(EventDraft(name: "Club cup", divisions: []).validated())
        let cal = try await store.createPlayer(PlayerDraft(displayName: "Cal", handle: "cal").validated(), by: nil)
        let bracket = try await store.createBracket(
            eventID: cup.id, seeds: [ann.id, bo.id, cal.id], deadlines: [Date(timeIntervalSince1970: 1_800_000_000)], actor: nil)
        _ = try await store.concede(match: bracket.bracket.matchIDs[1][0], by: ann.id, eventID: cup.id, actor: nil)
        // On a course of its own: a pulled change to the night's course names only its round.
        let green = try await store.createCourse(CourseDraft(name: "Practice green", holeCount: "9").validated())
        var mulliganNight = RoundDraft.Valid(name: "Mulligan night", courseID: green.id, playerIDs: [ann.id, bo.id], startNow: true)
        mulliganNight.mulligans = MulliganRule(given: 1, forSale: 2, priceCents: 100)
        let mulligans = try await store.createRound(mulliganNight)
        _ = try await store.sellMulligans(2, cents: nil, to: bo.id, in: mulligans.id, by: nil)
        var used = ScoreSubmission(playerID: bo.id, hole: 1, strokes: .count(3))
        used.mulligans = 3
        _ = try await store.recordScore(used, in: mulligans.id)
    }

    @Test func everyTypeGoesThroughTheCloudAndBackWhole() async throws {
        let first = try TemporaryDirectory()
        let second = try TemporaryDirectory()
        let a = try await Stores(directory: first.url).domain
        let b = try await Stores(directory: second.url).domain
        try await Self.clubOfEveryType(a)

        let sent: [CloudRecord] = try await a.pool.read { db in
            var records: [CloudRecord] = []
            for (type, table, _) in VersionedTables.all {
                let ids = try String.fetchAll(db, sql: "SELECT id FROM \(table)")
                #expect(!ids.isEmpty, "no \(type) in the sample club: add one to clubOfEveryType")
                for id in ids {
                    records.append(try #require(try DomainStore.cloudRecord(type, id, db), "\(type) \(id) has no cloud form"))
                }
            }
            return records
        }
        // What B holds first (its own club settings): each record must come back as the
        // cloud's merge of the two says, which for every other type is the record itself.
        let before = try await b.pool.read { db in try sent.map { try DomainStore.cloudRecord($0.type, $0.id, db) } }
        _ = try await b.applyRemote(sent.map { try RemoteChange.read($0) })
        for (record, held) in zip(sent, before) {
            let expected = CloudMerge.merge(existing: held, incoming: record) ?? held
            let back = try await b.pool.read { db in try DomainStore.cloudRecord(record.type, record.id, db) }
            #expect(back == expected, "\(record.type) \(record.id) came back otherwise")
        }
    }

    /// A pulled change to what a round's board shows names that round, so its kept board and
    /// live pages follow: the course, the night, the night's season, a frozen handicap.
    @Test func aPulledChangeNamesTheRoundsWhoseBoardsShowIt() async throws {
        let directory = try TemporaryDirectory()
        let store = try await Stores(directory: directory.url).domain
        try await Self.clubOfEveryType(store)
        let round = try #require(try await store.roundSummaries().first { $0.name == "Week 1" }).id
        let snapshot = try await store.snapshot(of: round)
        let night = try #require(snapshot.event)
        let season = try #require(try await store.seasons().first)
        var course = snapshot.course
        course.name = "Pine Loop (new tees)"
        course.updatedAt = store.tick()
        var event = night
        event.name = "Week 1 (rain)"
        event.updatedAt = store.tick()
        var renamed = season
        renamed.name = "Summer 2026"
        renamed.updatedAt = store.tick()
        let player = try #require(snapshot.round.playerIDs.first)
        let earlier = FrozenHandicap(eventID: night.id, playerID: player, handicap: nil, frozenAt: HLC(wallMillis: 1, counter: 0, deviceID: UUID()))
        for change in [RemoteChange.record(course), .record(event), .record(renamed), .record(earlier)] {
            let result = try await store.applyRemote([change])
            #expect(result.applied == 1 && result.rounds == [round], "\(change.type) did not name its round")
        }
    }
}
