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
        let ann = try await store.createPlayer(PlayerDraft(displayName: "Ann", handle: "ann").validated(), by: nil)
        let late = try await store.createPlayer(PlayerDraft(displayName: "Late", handle: "late").validated(), by: nil)
        let round = try await store.createRound(
            RoundDraft.Valid(name: "R1", courseID: course.id, playerIDs: [ann.id], startNow: true, eventID: event.id, divisions: [ann.id: "MPO"]))

        await #expect(throws: LeagueRejection.invalid(FieldErrors("division", "Choose Late's division: MPO, FPO."))) {
            _ = try await store.addPlayer(late.id, division: nil, card: nil, to: round.id, actor: nil)
        }
        await #expect(throws: LeagueRejection.self) { _ = try await store.addPlayer(late.id, division: "MA1", card: nil, to: round.id, actor: nil) }
        let added = try await store.addPlayer(late.id, division: "FPO", card: nil, to: round.id, actor: nil)
        #expect(added.round.divisions[late.id] == "FPO")
        // A player with a usual division the event has joins in it without being asked.
        let usual = try await store.createPlayer(PlayerDraft(displayName: "Usual", handle: "usual").validated(), by: nil)
        #expect(try await store.editPlayer(usual.id, displayName: nil, handle: nil, division: "MPO", actor: nil).division == "MPO")
        #expect(try await store.addPlayer(usual.id, division: nil, card: nil, to: round.id, actor: nil).round.divisions[usual.id] == "MPO")
        await #expect(throws: LeagueRejection.conflict("Late is already in R1.")) {
            _ = try await store.addPlayer(late.id, division: "FPO", card: nil, to: round.id, actor: nil)
        }
        // A division in use cannot be taken from the event.
        await #expect(throws: LeagueRejection.self) { _ = try await store.editEvent(event.id, name: nil, divisions: ["MPO"], actor: nil) }

        _ = try await store.setStatus(of: round.id, to: .completed)
        let other = try await store.createPlayer(PlayerDraft(displayName: "Other", handle: "other").validated(), by: nil)
        await #expect(throws: LeagueRejection.conflict("R1 is completed: reopen it to add a player.")) {
            _ = try await store.addPlayer(other.id, division: "MPO", card: nil, to: round.id, actor: nil)
        }
    }

    @Test func completingMakesUnfinishedPlayersDNFAndReopeningBringsThemBack() async throws {
        let directory = try TemporaryDirectory()
        let club = try await Fixture(directory: directory.url)
        for player in club.players.prefix(2) {
            for hole in 1...9 {
                _ = try await club.store.recordScore(ScoreSubmission(playerID: player.id, hole: hole, strokes: .count(3)), in: club.round.id)
            }
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
        let admin = try await stores.domain.createAccount(
            PlayerDraft(displayName: "Ada", handle: "ada", role: "admin").validated(), passwordHash: "$2b$hash")
        await #expect(throws: AccountError.lastAdmin) { _ = try await stores.domain.remove(.player, admin.id, actor: nil) }
        let coach = try await stores.domain.createAccount(
            PlayerDraft(displayName: "Cory", handle: "cory", role: "coach").validated(), passwordHash: "$2b$hash")
        #expect(try await stores.domain.identity(of: coach.id) != nil)
        #expect(try await stores.domain.remove(.player, coach.id, actor: admin.id) == .deleted)
        #expect(try await stores.domain.identity(of: coach.id) == nil)
        #expect(try await stores.domain.player(handle: Handle(trusted: "cory")) == nil)
    }

    @Test func aCoachManagesAthletesAndCoachesButNeitherAdminsNorThemselves() async throws {
        let directory = try TemporaryDirectory()
        let stores = try await Stores(directory: directory.url)
        let domain = stores.domain
        let ada = try await domain.createAccount(PlayerDraft(displayName: "Ada", handle: "ada", role: "admin").validated(), passwordHash: "$2b$hash")
        let zed = try await domain.createAccount(PlayerDraft(displayName: "Zed", handle: "zed", role: "admin").validated(), passwordHash: "$2b$hash")
        let cory = try await domain.createAccount(
            PlayerDraft(displayName: "Cory", handle: "cory", role: "coach").validated(), passwordHash: "$2b$hash")
        let abe = try await domain.createPlayer(PlayerDraft(displayName: "Abe", handle: "abe").validated(), by: nil)
        await #expect(throws: AccountError.notYourRole(actor: .coach, player: "Zed (admin)")) {
            _ = try await domain.remove(.player, zed.id, actor: cory.id)
        }
        await #expect(throws: AccountError.self) {
            _ = try await domain.editPlayer(ada.id, displayName: nil, handle: Handle(trusted: "ada2"), actor: cory.id)
        }
        await #expect(throws: AccountError.yourself) { _ = try await domain.remove(.player, cory.id, actor: cory.id) }
        #expect(try await domain.player(handle: Handle(trusted: "ada"))?.id == ada.id, "nothing changed")
        _ = try await domain.editPlayer(abe.id, displayName: "Abe Lincoln", handle: nil, actor: cory.id)
        #expect(try await domain.remove(.player, zed.id, actor: ada.id) == .deleted, "an admin may")

        // A re-import may neither rename an admin as a coach nor bring a removed player back.
        await #expect(throws: FieldErrors.self) {
            _ = try await domain.importPlayers([try PlayerDraft(displayName: "Someone", handle: "ada").validated()], actor: cory.id)
        }
        let (round, _) = (
            try await domain.createRound(
                RoundDraft.Valid(
                    name: "R", courseID: try await domain.createCourse(CourseDraft(name: "C", holeCount: "3").validated()).id,
                    playerIDs: [abe.id], startNow: true)), ()
        )
        _ = try await domain.recordScore(ScoreSubmission(playerID: abe.id, hole: 1, strokes: .count(3)), in: round.id)
        #expect(try await domain.remove(.player, abe.id, actor: cory.id) == .archived)
        await #expect(throws: FieldErrors("csv", "@abe belongs to a removed player: choose another handle.")) {
            _ = try await domain.importPlayers([try PlayerDraft(displayName: "Abe Again", handle: "abe").validated()], actor: cory.id)
        }
        #expect(try await domain.player(abe.id)?.archived == true)
    }

    @Test func withdrawnPlayersAndRemovedRoundsTakeNoScoresAndCardsKeepTheirHoles() async throws {
        let directory = try TemporaryDirectory()
        let club = try await Fixture(directory: directory.url)
        let (ann, ben) = (club.players[0].id, club.players[1].id)
        _ = try await club.store.recordScore(ScoreSubmission(playerID: ann, hole: 1, strokes: .count(3)), in: club.round.id)
        _ = try await club.store.withdraw(ann, from: club.round.id, actor: nil)
        await #expect(throws: ScoreRejection.self) {
            _ = try await club.store.recordScore(ScoreSubmission(playerID: ann, hole: 2, strokes: .count(3)), in: club.round.id)
        }
        _ = try await club.store.addPlayer(ann, division: nil, card: nil, to: club.round.id, actor: nil)
        _ = try await club.store.recordScore(ScoreSubmission(playerID: ann, hole: 2, strokes: .count(3)), in: club.round.id)
        #expect(try await club.store.remove(.round, club.round.id, actor: nil) == .archived)
        await #expect(throws: ScoreRejection.self) {
            _ = try await club.store.recordScore(ScoreSubmission(playerID: ben, hole: 1, strokes: .count(3)), in: club.round.id)
        }
        await #expect(throws: StoreError.self) { _ = try await club.store.renameRound(club.round.id, to: "Back", actor: nil) }

        // On a course nobody has scored yet, a card that starts past the new last hole refuses it.
        let course = try await club.store.createCourse(CourseDraft(name: "Long", holeCount: "18").validated())
        let round = try await club.store.createRound(RoundDraft.Valid(name: "L", courseID: course.id, playerIDs: [ben], startNow: false))
        _ = try await club.store.setCards([Card(id: UUID(), name: "A", startingHole: 18, playerIDs: [ben])], of: round.id)
        await #expect(throws: LeagueRejection.self) {
            _ = try await club.store.editCourse(course.id, name: nil, holes: Array(course.holes.prefix(9)), actor: nil)
        }
    }
}
