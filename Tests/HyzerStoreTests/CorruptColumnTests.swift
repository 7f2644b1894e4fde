import Foundation
import GRDB
import HyzerCore
import Testing

@testable import HyzerStore

/// A value changed outside Hyzer is an error that names the record, never a default: an
/// unknown role is not read as "athlete", unreadable cards are not an empty list.
@Suite struct CorruptColumnTests {
    @Test func anUnknownRoleOrUnreadableCardsNameTheirRecord() async throws {
        let directory = try TemporaryDirectory()
        let fixture = try await DomainStoreTests.Fixture(directory: directory.url)
        let ann = fixture.players[0]
        // As another program could leave the file: past the table's own checks.
        try await fixture.store.pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
            try db.execute(sql: "UPDATE players SET role = 'wizard' WHERE id = ?", arguments: [ann.id.text])
            try db.execute(sql: "UPDATE rounds SET cards = '[{\"broken\"' WHERE id = ?", arguments: [fixture.round.id.text])
            try db.execute(sql: "PRAGMA ignore_check_constraints = OFF")
        }
        do {
            _ = try await fixture.store.players()
            Issue.record("an unknown role was read")
        } catch StoreError.corrupt(let message) {
            #expect(message.contains("players.role") && message.contains(ann.id.text) && message.contains("wizard"))
        }
        try await fixture.store.pool.write { db in
            try db.execute(sql: "UPDATE players SET role = 'athlete' WHERE id = ?", arguments: [ann.id.text])
        }
        do {
            _ = try await fixture.store.snapshot(of: fixture.round.id)
            Issue.record("unreadable cards were read")
        } catch StoreError.corrupt(let message) {
            #expect(message.contains("rounds.cards") && message.contains(fixture.round.id.text))
        }
    }
}
