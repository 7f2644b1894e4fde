import Foundation
import HyzerCore
import Testing

@testable import HyzerStore

/// Who may add a player of which role, decided where players and invites are written, whatever
/// page, API call or import asks: a coach adds athletes and coaches, an admin anyone, an
/// athlete athletes; the command line (no actor) anyone.
@Suite struct CreatorRulesTests {
    struct Club {
        let stores: Stores
        let admin: Player
        let coach: Player
        let athlete: Player

        init(_ directory: URL) async throws {
            stores = try await Stores(directory: directory)
            admin = try await stores.domain.createAccount(
                PlayerDraft(displayName: "Ada", handle: "ada", role: "admin").validated(), passwordHash: "$2b$hash")
            coach = try await stores.domain.createAccount(
                PlayerDraft(displayName: "Cory", handle: "cory", role: "coach").validated(), passwordHash: "$2b$hash")
            athlete = try await stores.domain.createAccount(PlayerDraft(displayName: "Abe", handle: "abe").validated(), passwordHash: "$2b$hash")
        }
    }

    func draft(_ handle: String, _ role: String) throws -> PlayerDraft.Valid {
        try PlayerDraft(displayName: handle.capitalized, handle: handle, role: role).validated()
    }

    @Test func aPlayerIsAddedOnlyWithARoleTheirCreatorCouldGrant() async throws {
        let directory = try TemporaryDirectory()
        let club = try await Club(directory.url)
        let domain = club.stores.domain
        await #expect(throws: FieldErrors.self) { _ = try await domain.createPlayer(try draft("boss", "admin"), by: club.coach.id) }
        await #expect(throws: FieldErrors.self) { _ = try await domain.createPlayer(try draft("trainer", "coach"), by: club.athlete.id) }
        await #expect(throws: FieldErrors.self) { _ = try await domain.createPlayer(try draft("ghost", "athlete"), by: UUID()) }
        #expect(try await domain.player(handle: Handle(trusted: "boss")) == nil)
        #expect(try await domain.createPlayer(try draft("helper", "coach"), by: club.coach.id).role == .coach)
        #expect(try await domain.createPlayer(try draft("chief", "admin"), by: club.admin.id).role == .admin)
        #expect(try await domain.createPlayer(try draft("operator", "admin"), by: nil).role == .admin)
    }

    @Test func anImportWithOneRoleTheImporterCannotGrantWritesNothing() async throws {
        let directory = try TemporaryDirectory()
        let club = try await Club(directory.url)
        let domain = club.stores.domain
        do {
            _ = try await domain.importPlayers([try draft("newbie", "athlete"), try draft("boss", "admin")], actor: club.coach.id)
            Issue.record("a coach imported an admin")
        } catch let errors as FieldErrors {
            #expect(errors["csv"]?.contains("@boss") == true)
        }
        #expect(try await domain.player(handle: Handle(trusted: "newbie")) == nil)
        #expect(
            try await domain.importPlayers([try draft("newbie", "athlete"), try draft("helper", "coach")], actor: club.coach.id).created.count == 2)
    }

    @Test func anInviteIsForARoleItsMakerCouldGrant() async throws {
        let directory = try TemporaryDirectory()
        let club = try await Club(directory.url)
        let invite = { (role: Role) in OneTimeLink(kind: .invite, role: role, createdBy: club.coach.id, expiresAt: Date(timeIntervalSinceNow: 3600)) }
        await #expect(throws: FieldErrors.self) { _ = try await club.stores.operational.createLink(invite(.admin), grantedBy: .coach) }
        await #expect(throws: FieldErrors.self) { _ = try await club.stores.operational.createLink(invite(.coach), grantedBy: .athlete) }
        #expect(try await club.stores.operational.invites().isEmpty)
        _ = try await club.stores.operational.createLink(invite(.coach), grantedBy: .coach)
        _ = try await club.stores.operational.createLink(invite(.admin), grantedBy: .admin)
        #expect(try await club.stores.operational.invites().map(\.role).sorted { $0.rawValue < $1.rawValue } == [.admin, .coach])
    }
}
