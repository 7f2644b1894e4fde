import Foundation
import Testing

@testable import HyzerCore

/// A putting league: stations × distances × putts, points per made putt, ranked most first.
@Suite struct PuttingTests {
    /// 3 stations at 15 ft (1 point) and 25 ft (2 points), 3 putts from each.
    static let layout = PuttingSetup(stations: 3, distances: [.init(feet: 15, points: 1), .init(feet: 25, points: 2)], putts: 3)

    func puttingWorld(players: Int = 4) -> World {
        var world = World(playerCount: players)
        world.round.format = .putting
        world.round.putting = Self.layout
        return world
    }

    func putt(_ player: UUID, lie: Int, made: Int) -> ScoreSubmission {
        var submission = ScoreSubmission(playerID: player, hole: lie, strokes: .count(made))
        submission.isPutt = true
        return submission
    }

    @Test func liesNumberEachStationsDistancesInTurn() {
        let lies = Self.layout.lies
        #expect(lies.map(\.number) == Array(1...6))
        #expect(lies.map(\.station) == [1, 1, 2, 2, 3, 3])
        #expect(lies.map(\.feet) == [15, 25, 15, 25, 15, 25])
        #expect(Self.layout.lie(4)?.label == "Station 2 · 25 ft")
        #expect(Self.layout.lie(0) == nil && Self.layout.lie(7) == nil)
        #expect(Self.layout.maxPoints == 3 * 3 * (1 + 2))
        #expect(Self.layout.points(made: 2, at: 4) == 4)
    }

    @Test func aLayoutIsCheckedForEveryReasonAtOnce() {
        #expect(throws: FieldErrors.self) { try PuttingSetup.validated(nil) }
        do {
            _ = try PuttingSetup.validated(PuttingSetup(stations: 0, distances: [.init(feet: 2, points: 0), .init(feet: 2, points: 1)], putts: 11))
            Issue.record("a layout with no stations was taken")
        } catch {
            #expect(error["putting.stations"] != nil && error["putting.putts"] != nil)
            #expect(error.entries.count >= 5, "feet, points and a repeated distance are each named: \(error.summary)")
        }
        #expect((try? PuttingSetup.validated(Self.layout)) == Self.layout)
        // 18 stations of 3 distances are 54 lies: more than a round has holes.
        #expect(throws: FieldErrors.self) {
            try PuttingSetup.validated(PuttingSetup(stations: 18, distances: Self.layout.distances + [.init(feet: 33, points: 3)], putts: 3))
        }
    }

    @Test func aFormTypesTheLayoutAsText() {
        #expect(PuttingSetup(text: ("3", " 15:1, 25 : 2 ", "3")) == Self.layout)
        let feetAlone = PuttingSetup(text: ("2", "10, 20", "5"))
        #expect(feetAlone.distances == [.init(feet: 10, points: 1), .init(feet: 20, points: 1)])
        let unread = PuttingSetup(text: ("four", "15-1", ""))
        #expect(unread.stations == 0 && unread.putts == 0 && unread.distances == [.init(feet: 0, points: 1)])
        #expect(throws: FieldErrors.self) { try PuttingSetup.validated(unread) }
    }

    @Test func theBoardRanksByPointsWithTiesAndCountsMadePutts() {
        var world = puttingWorld()
        var events: [ScoreEvent] = []
        // Ann: 3 made at 15 ft, 1 at 25 ft → 3 + 2 = 5 points. Ben: 1 and 2 → 1 + 4 = 5.
        // Cleo: 0 and 3 → 6. Dev has not putted.
        for (player, made) in [(0, [3, 1]), (1, [1, 2]), (2, [0, 3])] {
            for (offset, count) in made.enumerated() { events.append(world.event(player, hole: offset + 1, .count(count))) }
        }
        let board = world.standings(events)
        let rows = Dictionary(uniqueKeysWithValues: board.entries.map { ($0.displayName, $0) })
        #expect(board.entries.map(\.displayName) == ["Cleo", "Ann", "Ben", "Dev"])
        #expect(rows["Cleo"]?.points == 6 && rows["Cleo"]?.position == "1" && rows["Cleo"]?.strokes == 3)
        #expect(rows["Ann"]?.position == "T2" && rows["Ben"]?.position == "T2")
        #expect(rows["Ann"]?.points == 5 && rows["Ann"]?.strokes == 4 && rows["Ann"]?.thru == 2)
        #expect(rows["Dev"]?.position == "–" && rows["Dev"]?.points == 0)
        #expect(board.holeCount == 6, "the lies are the holes, whatever the course has")
    }

    @Test func aCompletedPuttingRoundMarksUnputtedLiesAsNotFinished() {
        var world = puttingWorld(players: 2)
        let events = (1...6).map { world.event(0, hole: $0, .count(1)) } + [world.event(1, hole: 1, .count(3))]
        world.round.status = .completed
        let board = world.standings(events)
        #expect(board.entries.first?.points == 9 && board.entries.first?.position == "1")
        #expect(board.entries.last?.dnf == true)
    }

    @Test func aPuttIsALieOfTheLayoutAndNoMoreThanItsPutts() {
        var world = puttingWorld()
        let player = world.players[0].id
        guard case .success = world.decide(putt(player, lie: 6, made: 0), existing: []) else {
            Issue.record("no putt made was refused")
            return
        }
        for (hole, made, field) in [(7, 1, "hole"), (1, 4, "made"), (1, -1, "made")] {
            guard
                case .failure(.invalid(let errors)) = world.decide(putt(player, lie: hole, made: made), existing: [])
            else {
                Issue.record("lie \(hole) with \(made) made was taken")
                continue
            }
            #expect(errors[field] != nil, "\(errors.summary)")
        }
        // Strokes are not taken for putts: neither a count nor a DNF.
        for strokes in [Strokes.count(2), .dnf] {
            guard case .failure(.invalid(let errors)) = world.decide(ScoreSubmission(playerID: player, hole: 1, strokes: strokes), existing: [])
            else {
                Issue.record("\(strokes) was taken as putts made")
                continue
            }
            #expect(errors["made"]?.contains("send \"made\"") == true)
        }
        var stroke = World()
        var putt = ScoreSubmission(playerID: stroke.players[0].id, hole: 1, strokes: .count(2))
        putt.isPutt = true
        guard case .failure(.invalid(let errors)) = stroke.decide(putt, existing: []) else {
            Issue.record("putts made were taken on a stroke round")
            return
        }
        #expect(errors["made"] != nil)
    }

    @Test func theScoringViewPutsTheLiesInTheHolesPlace() {
        let world = puttingWorld()
        let snapshot = RoundSnapshot(round: world.round, course: world.course, players: world.players, events: [], version: 1)
        let view = snapshot.scoringView
        #expect(view.course.holes.map(\.number) == Array(1...6) && view.course.holes.allSatisfy { $0.par == 0 })
        #expect(view.course.name == world.course.name)
    }

    @Test func aDraftNeedsItsLayoutAndOnlyAPuttingRoundTakesOne() throws {
        let course = UUID()
        let player = UUID()
        var draft = RoundDraft(name: "Putting night", courseID: course.uuidString, playerIDs: [player.uuidString], startNow: true)
        draft.format = "putting"
        #expect(throws: FieldErrors.self) {
            try draft.validated(knownCourses: [course], knownPlayers: [player], defaultName: { _, _ in "" })
        }
        draft.putting = Self.layout
        let valid = try draft.validated(knownCourses: [course], knownPlayers: [player], defaultName: { _, _ in "" })
        #expect(valid.format == .putting && valid.putting == Self.layout)
        draft.format = "stroke"
        #expect(throws: FieldErrors.self) {
            try draft.validated(knownCourses: [course], knownPlayers: [player], defaultName: { _, _ in "" })
        }
    }
}
