import Foundation
import HyzerCore
import HyzerStore
import Testing

@testable import HyzerSync

/// Edits and removals travel like every other change: a corrected par, a late arrival, a
/// withdrawal and a reopened round reach the other device; a deleted record is deleted there
/// and stays deleted when an older copy arrives; an archived one stays in the results.
@Suite struct EditingSyncTests {
    @Test func editsLateArrivalsWithdrawalsAndReopeningReachTheOtherDevice() async throws {
        let scratch = try Scratch()
        let cloud = EmbeddedCloud(path: scratch.url.appendingPathComponent("cloud.sqlite").path)
        let a = try await Device("a", cloud: cloud, root: scratch.url)
        let b = try await Device("b", cloud: cloud, root: scratch.url)
        let (round, players) = try await a.setUpRound()
        try await a.score(round, players[0], hole: 1, 3)
        try await a.score(round, players[1], hole: 1, 4)
        let late = try await a.domain.createPlayer(PlayerDraft(displayName: "Dana Late", handle: "dana").validated(), by: nil)
        for device in [a, b] { await device.settle() }

        let course = try await a.domain.snapshot(of: round).course
        var holes = course.holes
        holes[0].par = 4
        _ = try await a.domain.editCourse(course.id, name: nil, holes: holes, actor: nil)
        _ = try await a.domain.editPlayer(players[0], displayName: "Ann Corrected", handle: nil, division: "FPO", actor: nil)
        _ = try await a.domain.addPlayer(late.id, division: nil, card: nil, to: round, actor: nil)
        _ = try await a.domain.withdraw(players[1], from: round, actor: nil)
        _ = try await a.domain.withdraw(players[2], from: round, actor: nil)
        _ = try await a.domain.setStatus(of: round, to: .completed)
        _ = try await a.domain.reopen(round, actor: nil)
        for device in [a, b] { await device.settle() }

        let onB = try await b.domain.snapshot(of: round)
        #expect(onB.course.holes[0].par == 4)
        #expect(onB.round.playerIDs == [players[0], players[1], late.id], "cleo (no scores) left the round, dana joined it")
        #expect(onB.round.withdrawn == [players[1]])
        #expect(onB.round.status == .active)
        let entries = onB.board.standings.entries
        #expect(entries.first { $0.playerID == players[0] }?.displayName == "Ann Corrected")
        #expect(entries.first { $0.playerID == players[0] }?.toPar == -1, "par 4 corrected: a 3 is a birdie")
        #expect(entries.first { $0.playerID == players[1] }?.dnf == true, "withdrawn after scoring: did not finish")
        #expect(entries.first { $0.playerID == late.id }?.dnf == false, "reopened: nobody is DNF for holes left")
        #expect(try await a.standings(round) == b.standings(round))
        #expect(try await b.domain.player(players[0])?.division == "FPO", "the usual division travels with the player")
    }

    @Test func aDeletedRecordIsDeletedEverywhereAndAnOlderCopyDoesNotBringItBack() async throws {
        let scratch = try Scratch()
        let cloud = EmbeddedCloud(path: scratch.url.appendingPathComponent("cloud.sqlite").path)
        let a = try await Device("a", cloud: cloud, root: scratch.url)
        let b = try await Device("b", cloud: cloud, root: scratch.url)
        let (round, players) = try await a.setUpRound()
        try await a.score(round, players[0], hole: 1, 3)
        let spare = try await a.domain.createPlayer(PlayerDraft(displayName: "Spare", handle: "spare").validated(), by: nil)
        let empty = try await a.domain.createCourse(CourseDraft(name: "Never Played", holeCount: "9").validated())
        for device in [a, b] { await device.settle() }
        #expect(try await b.domain.players().contains { $0.id == spare.id })

        // B renames the spare while A deletes it; A's deletion is newer.
        let renamed = try await b.domain.editPlayer(spare.id, displayName: "Spare Renamed", handle: nil, actor: nil)
        try await waitForTheClock(toPass: renamed.updatedAt)
        #expect(try await a.domain.remove(.player, spare.id, actor: nil) == .deleted)
        #expect(try await a.domain.remove(.course, empty.id, actor: nil) == .deleted)
        let courseOfRound = try await a.domain.snapshot(of: round).course.id
        #expect(try await a.domain.remove(.course, courseOfRound, actor: nil) == .archived, "a round was played on it")
        #expect(try await a.domain.remove(.round, round, actor: nil) == .archived, "it has scores")
        #expect(try await a.domain.remove(.player, players[0], actor: nil) == .archived)
        for device in [b, a, b, a] { await device.settle() }

        for device in [a, b] {
            #expect(try await device.domain.player(spare.id) == nil, "\(device.name): deleted, the older rename did not bring it back")
            #expect(try await !device.domain.players().contains { $0.id == players[0] }, "\(device.name): archived players are not offered")
            #expect(try await device.domain.courses().isEmpty, "\(device.name): one course deleted, one archived")
            #expect(try await device.domain.roundSummaries().isEmpty, "\(device.name): the archived round is off the lists")
            let kept = try await device.domain.snapshot(of: round)
            #expect(kept.round.archived && kept.events.count == 1, "\(device.name): the archived round keeps its scores")
            #expect(kept.board.standings.entries.first?.displayName == "Ann", "\(device.name): results still name the archived player")
        }
        // A copy older than the deletion, pushed again (a device that was offline), is refused.
        let stale = Player(
            id: spare.id, displayName: "Stale", handle: Handle(trusted: "spare"), role: .athlete, createdAt: Date(),
            updatedAt: HLC(wallMillis: 1, counter: 0, deviceID: b.domain.deviceID))
        #expect(try await b.domain.applyRemote([.record(stale)]).applied == 0)
        #expect(try await b.domain.player(spare.id) == nil)
    }

    @Test func theDemoDataGoesInOneActionAndOnlyIt() async throws {
        let scratch = try Scratch()
        let cloud = EmbeddedCloud(path: scratch.url.appendingPathComponent("cloud.sqlite").path)
        let a = try await Device("a", cloud: cloud, root: scratch.url)
        let b = try await Device("b", cloud: cloud, root: scratch.url)
        let demo = try #require(try await a.domain.seedDemoIfEmpty())
        let (own, _) = try await a.setUpRound(handles: ["zoe"])
        // The club's own round on the demo course, even with the demo's name, is not the demo's.
        let demoCourse = try await a.domain.snapshot(of: demo).course.id
        let ben = try #require(try await a.domain.player(handle: Handle(trusted: "ben")))
        let clubs = try await a.domain.createRound(
            RoundDraft.Valid(name: "Tuesday League", courseID: demoCourse, playerIDs: [ben.id], startNow: true), createdBy: UUID())
        #expect(try await a.domain.hasDemoData())
        for device in [a, b] { await device.settle() }

        #expect(try await a.domain.removeDemoData(actor: nil) == 6, "the round and five players: the course and Ben play in the club's own round")
        #expect(try await !a.domain.hasDemoData())
        for device in [a, b] { await device.settle() }
        for device in [a, b] {
            #expect(Set(try await device.domain.roundSummaries().map(\.id)) == [own, clubs.id], "\(device.name)")
            #expect(Set(try await device.domain.courses().map(\.name)) == ["Pine Loop", "Maple Hill DGC"], "\(device.name)")
            #expect(try await device.domain.players().map(\.handle.value) == ["ben", "zoe"], "\(device.name)")
            #expect(try await device.domain.snapshot(of: demo).events.count == 37, "\(device.name): history kept")
        }
    }
}
