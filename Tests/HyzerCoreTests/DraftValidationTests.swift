import Foundation
import Testing

@testable import HyzerCore

@Suite struct DraftValidationTests {
    @Test func handlesAreNormalized() throws {
        #expect(try Handle.parse("  @Ann.Lee ").get().value == "ann.lee")
        #expect(throws: FieldErrors.self) { try Handle.parse("a").get() }
        #expect(throws: FieldErrors.self) { try Handle.parse("ann lee").get() }
        #expect(throws: FieldErrors.self) { try Handle.parse("").get() }
    }

    @Test func playerDraftReportsEveryProblemByField() {
        do {
            _ = try PlayerDraft(displayName: "  ", handle: "x y", role: "captain").validated()
            Issue.record("expected errors")
        } catch {
            #expect(error["displayName"] == "Name is required.")
            #expect(error["handle"] != nil)
            #expect(error["role"] == "Role must be athlete, coach or admin.")
        }
    }

    @Test func courseDraftDefaultsToEighteenParThrees() throws {
        let course = try CourseDraft(name: "Maple Hill").validated()
        #expect(course.holes.count == 18)
        #expect(course.holes.allSatisfy { $0.par == 3 })
        #expect(course.holes.map(\.number) == Array(1...18))
    }

    @Test func courseDraftReadsParsAndDistances() throws {
        let course = try CourseDraft(name: "Short", holeCount: "4", pars: "3, 4 3;5", distances: "80 120 95 210").validated()
        #expect(course.holes.map(\.par) == [3, 4, 3, 5])
        #expect(course.holes.map(\.distance) == [80, 120, 95, 210])
    }

    @Test(arguments: [
        (CourseDraft(name: "", holeCount: "9"), "name"),
        (CourseDraft(name: "X", holeCount: "37"), "holeCount"),
        (CourseDraft(name: "X", holeCount: "0"), "holeCount"),
        (CourseDraft(name: "X", holeCount: "nine"), "holeCount"),
        (CourseDraft(name: "X", holeCount: "3", pars: "3 3"), "pars"),
        (CourseDraft(name: "X", holeCount: "3", pars: "3 9 3"), "pars"),
        (CourseDraft(name: "X", holeCount: "3", pars: "3 1 3"), "pars"),
        (CourseDraft(name: "X", holeCount: "2", distances: "50 abc"), "distances"),
    ])
    func courseDraftRejects(draft: CourseDraft, field: String) {
        #expect(throws: FieldErrors.self) { try draft.validated() }
        do { _ = try draft.validated() } catch { #expect(error[field] != nil, "\(error.entries)") }
    }

    @Test func roundDraftChecksCourseAndPlayers() {
        let course = UUID()
        let player = UUID()
        let draft = RoundDraft(name: "", courseID: UUID().uuidString, playerIDs: [UUID().uuidString])
        do {
            _ = try draft.validated(knownCourses: [course], knownPlayers: [player]) { _, _ in "x" }
            Issue.record("expected errors")
        } catch {
            #expect(error["courseID"] == "That course does not exist.")
            #expect(error["playerIDs"] == "One of the chosen players does not exist.")
        }
        do {
            _ = try RoundDraft(courseID: course.uuidString).validated(knownCourses: [course], knownPlayers: [player]) { _, _ in "x" }
            Issue.record("expected errors")
        } catch {
            #expect(error["playerIDs"] == "Choose at least one player.")
        }
    }

    @Test func roundDraftNamesTheRoundAndDropsRepeatedPlayers() throws {
        let course = UUID()
        let player = UUID()
        let valid = try RoundDraft(courseID: course.uuidString, playerIDs: [player.uuidString, player.uuidString])
            .validated(knownCourses: [course], knownPlayers: [player]) { _, _ in "Maple Hill — Tuesday" }
        #expect(valid.name == "Maple Hill — Tuesday")
        #expect(valid.playerIDs == [player])
    }

    @Test func strokesParse() throws {
        #expect(try Strokes.parse("4").get() == .count(4))
        #expect(try Strokes.parse("dnf").get() == .dnf)
        #expect(try Strokes.parse("WD").get() == .dnf)
        // Whole numbers are digits only: nothing is guessed from spaces, signs or fractions.
        for bad in ["0", "100", "-1", "four", "", " 4 ", "+4", "4.0", "4e0", "٤"] {
            #expect(throws: FieldErrors.self) { try Strokes.parse(bad).get() }
        }
    }
}
