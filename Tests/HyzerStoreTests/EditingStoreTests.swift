import Foundation
import HyzerCore
import Testing
@testable import HyzerStore

/// The rules an edit or a removal obeys where it is written, each from a mistake a director
/// would make on league night.
@Suite struct EditingStoreTests {
    typealias Fixture = DomainStoreTests.Fixture

    @Test func parsCanBeCorrectedAfterScoringButTheHoleCountCannot() async throws {
        let directory = try TemporaryDirectory()
        let club = try await Fixture(directory: directory.url)
        _ = try await club.store.recordScore(ScoreSubmission(playerID: club.players[0].id, hole: 2, strokes: .count(3)), in: club.round.id)
        var holes = club.course.holes
        holes[1].par = 4
        let edited = try await club.store.editCourse(club.course.id, name: "Pine Loop Long", holes: holes, actor: nil)
        #expect(edited.holes[1].par == 4 && edited.name == "Pine Loop Long")
        let board = try await club.store.board(of: club.round.id)
        #expect(board.standings.entries.first { $0.playerID == club.players[0].id }?.toPar == -1, "the board reads the corrected par")

        await #expect(throws: LeagueRejection.self) {
            _ = try await club.store.editCourse(club.course.id, name: nil, holes: Array(holes.prefix(6)), actor: nil)
        }
        #expect(try await club.store.course(club.course.id).holes.count == 9, "nothing half-written")
        let log = try await club.store.changeLog()
        #expect(log.first?.change.contains("hole 2 par 3 → 4") == true)
    }

    @Test func aLateArrivalNeedsADivisionOfTheEventAndAnOpenRound() async throws {
        let directory = try TemporaryDirectory()
        let stores = try await Stores(directory: directory.url)
        let store = stores.domain
        let course = try await store.createCourse(CourseDraft(name: "Pine Loop", holeCount: "9").validated())
        let event = try await store.createEvent(EventDraft(name: "League Night", divisions: ["MPO", "FPO"]).validated())
        let ann = try await store.createPlayer(PlayerDraft(displayName: "Ann", handle: "ann").validated())
        let late = try await store.createPlayer(PlayerDraft(displayName: "Late", handle: "late").validated())
        let round = try await store.createRound(RoundDraft.Valid(name: "R1", courseID: course.id, playerIDs: [ann.id], startNow: true, eventID: event.id, divisions: [ann.id: "MPO"]))

        await #expect(throws: LeagueRejection.invalid(FieldErrors("division", "Choose Late's division: MPO, FPO."))) {
            _ = try await store.addPlayer(late.id, division: nil, card: nil, to: round.id, actor: nil)
        }
        await #expect(throws: LeagueRejection.self) { _ = try await store.addPlayer(late.id, division: "MA1", card: nil, to: round.id, actor: nil) }
        let added = try await store.addPlayer(late.id, division: "FPO", card: nil, to: round.id, actor: nil)
        #expect(added.round.divisions[late.id] == "FPO")
        await #expect(throws: LeagueRejection.conflict("Late is already in R1.")) {
            _ = try await store.addPlayer(late.id, division: "FPO", card: nil, to: round.id, actor: nil)
        }
        // A division in use cannot be taken from the event.
        await #expect(throws: LeagueRejection.self) { _ = try await store.editEvent(event.id, name: nil, divisions: ["MPO"], actor: nil) }

        _ = try await store.setStatus(of: round.id, to: .completed)
        let other = try await store.createPlayer(PlayerDraft(displayName: "Other", handle: "other").validated())
        await #expect(throws: LeagueRejection.conflict("R1 is completed: reopen it to add a player.")) {
            _ = try await store.addPlayer(other.id, division: "MPO", card: nil, to: round.id, actor: nil)
        }
    }

    @Test func completingMakesUnfinishedPlayersDNFAndReopeningBringsThemBack() async throws {
        let directory = try TemporaryDirectory()
        let club = try await Fixture(directory: directory.url)
        for player in club.players.prefix(2) {
            for hole in 1...9 { _ = try await club.store.recordScore(ScoreSubmission(playerID: player.id, hole: hole, strokes: .count(3)), in: club.round.id) }
        }
        _ = try await club.store.recordScore(ScoreSubmission(playerID: club.players[2].id, hole: 1, strokes: .count(3)), in: club.round.id)
        let completed = try await club.store.setStatus(of: club.round.id, to: .completed)
        #expect(completed.board.standings.entries.filter(\.dnf).map(\.playerID) == [club.players[2].id])
        let reopened = try await club.store.reopen(club.round.id, actor: nil)
        #expect(reopened.round.status == .active && reopened.round.completedAt == nil)
        #expect(reopened.board.standings.entries.allSatisfy { !$0.dnf })
        await #expect(throws: LeagueRejection.self) { _ = try await club.store.reopen(club.round.id, actor: nil) }
    }

    @Test func theLastAdminCannotBeRemovedAndAnArchivedPlayerCannotSignIn() async throws {
        let directory = try TemporaryDirectory()
        let stores = try await Stores(directory: directory.url)
        let admin = try await stores.domain.createAccount(PlayerDraft(displayName: "Ada", handle: "ada", role: "admin").validated(), passwordHash: "$2b$hash")
        await #expect(throws: AccountError.lastAdmin) { _ = try await stores.domain.remove(.player, admin.id, actor: nil) }
        let coach = try await stores.domain.createAccount(PlayerDraft(displayName: "Cory", handle: "cory", role: "coach").validated(), passwordHash: "$2b$hash")
        #expect(try await stores.domain.identity(of: coach.id) != nil)
        #expect(try await stores.domain.remove(.player, coach.id, actor: admin.id) == .deleted)
        #expect(try await stores.domain.identity(of: coach.id) == nil)
        #expect(try await stores.domain.player(handle: Handle(trusted: "cory")) == nil)
    }
}
