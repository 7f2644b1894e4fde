import Foundation
import Testing

@testable import HyzerCore

/// A club's player sheet (#37, item 11): PDGA numbers, emails, ratings and divisions under the
/// headers clubs use, in any case; unknown columns named, not refused; bad cells named by line.
@Suite struct PlayerTableTests {
    @Test func readsTheColumnsClubsUseInAnyCase() throws {
        let table = try ResultsTable.players([
            ["Name", "Handle", "PDGA Number", "E-mail", "Rating", "Div", "Phone", "Shirt size"],
            ["Ann Lee", "ann.lee", "#123456", "ann@example.org", "912", "FPO", "555-0100", "M"],
            ["Ben Ortiz", "ben", "", "", "", "", "", ""],
        ])
        #expect(table.rows.count == 2)
        #expect(table.rows[0].pdgaNumber == 123_456 && table.rows[0].email == "ann@example.org")
        #expect(table.rows[0].rating == 912 && table.rows[0].division == "FPO")
        #expect(table.rows[1].pdgaNumber == nil && table.rows[1].email == nil && table.rows[1].rating == nil && table.rows[1].division == nil)
        #expect(table.ignored == ["Phone", "Shirt size"])
        for header in ["pdga", "PDGA #", "pdga number", "Pdga No"] {
            let read = try ResultsTable.players([["name", "handle", header], ["Cy", "cy", "42"]])
            #expect(read.rows.first?.pdgaNumber == 42, "\(header)")
        }
    }

    @Test func namesEveryBadCellByLineAndReadsNothing() {
        #expect(throws: FieldErrors.self) {
            try ResultsTable.players([["name", "handle", "pdga", "email", "rating"], ["Ann", "ann", "x12", "ann@", "99999"]])
        }
        do {
            _ = try ResultsTable.players([["name", "handle", "pdga", "email", "rating"], ["Ann", "ann", "x12", "ann@", "99999"]])
        } catch {
            let messages = error.entries.map(\.message)
            #expect(messages.count == 3 && messages.allSatisfy { $0.hasPrefix("Line 2: ") }, "\(messages)")
        }
    }

    /// Blank rows are skipped but counted: the line named is the one a spreadsheet shows.
    @Test func aBadRowAfterBlankRowsIsNamedByItsLineInTheFile() {
        do {
            _ = try ResultsTable.players([["name", "handle"], ["", ""], ["", ""], ["Bad", "Bad Handle!!"]])
            Issue.record("a bad handle was read")
        } catch {
            #expect(error.entries.map(\.message).allSatisfy { $0.hasPrefix("Line 4: ") }, "\(error.entries)")
        }
    }
}
