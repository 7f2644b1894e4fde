import Foundation
import Testing

@testable import HyzerCore

@Suite struct AccessPolicyTests {
    static func identity(_ role: Role) -> Identity {
        Identity(playerID: UUID(), handle: role.rawValue, displayName: role.rawValue, role: role)
    }

    @Test func eachAudienceAdmitsWhomItShould() {
        let people: [Identity?] = [nil, Self.identity(.athlete), Self.identity(.coach), Self.identity(.admin)]
        let expected: [Audience: [AccessDecision]] = [
            .everyone: [.allowed, .allowed, .allowed, .allowed],
            .viewer: [.allowed, .allowed, .allowed, .allowed],
            .member: [.signInRequired, .allowed, .allowed, .allowed],
            .scorer: [.signInRequired, .allowed, .allowed, .allowed],
            .coach: [.signInRequired, .forbidden(needs: .coach), .allowed, .allowed],
            .admin: [.signInRequired, .forbidden(needs: .admin), .forbidden(needs: .admin), .allowed],
        ]
        for audience in Audience.allCases {
            #expect(people.map { AccessPolicy.decide(audience, identity: $0, publicLeaderboards: true) } == expected[audience], "\(audience)")
        }
        // Private leaderboards: viewers must sign in; anyone signed in may view.
        #expect(AccessPolicy.decide(.viewer, identity: nil, publicLeaderboards: false) == .signInRequired)
        #expect(AccessPolicy.decide(.viewer, identity: Self.identity(.athlete), publicLeaderboards: false) == .allowed)
    }

    @Test func rolesGrantOnlyWhatTheyOutrankOrEqual() {
        #expect(Role.athlete.grantable.isEmpty)
        #expect(Role.coach.grantable == [.athlete, .coach])
        #expect(Role.admin.grantable == [.athlete, .coach, .admin])
    }

    @Test func aProfileIsClaimableOnlyUnclaimedAndWithinTheInvitesRole() {
        let stamp = HLC(wallMillis: 1, counter: 0, deviceID: UUID())
        let coach = Player(id: UUID(), displayName: "C", handle: Handle(trusted: "c"), role: .coach, createdAt: Date(), updatedAt: stamp)
        #expect(coach.isClaimable(through: .coach) && coach.isClaimable(through: .admin))
        #expect(!coach.isClaimable(through: .athlete))
        var claimed = coach
        claimed.passwordHash = "$2b$04$…"
        #expect(!claimed.isClaimable(through: .admin))
    }

    @Test func athletesScoreOnlyThemselves() {
        let athlete = Self.identity(.athlete)
        #expect(ScorePermission.allows(athlete, toScore: athlete.playerID))
        #expect(!ScorePermission.allows(athlete, toScore: UUID()))
        #expect(ScorePermission.allows(Self.identity(.coach), toScore: UUID()))
    }

    @Test func accountsNeedANameAHandleAndALongEnoughPasswordAllReportedAtOnce() throws {
        #expect(throws: FieldErrors.self) { try AccountDraft(displayName: "", handle: "a b", password: "short").validated() }
        do {
            _ = try AccountDraft(displayName: "", handle: "a b", password: "short").validated()
        } catch {
            #expect(Set(error.entries.map(\.field)) == ["displayName", "handle", "password"])
        }
        #expect(throws: FieldErrors.self) { try PasswordRules.validate(String(repeating: "é", count: 40)) }
        let valid = try AccountDraft(displayName: " Ann Lee ", handle: "@Ann.Lee", role: .coach, password: "long enough pw").validated()
        #expect(valid.player.handle.value == "ann.lee" && valid.player.role == .coach && valid.password == "long enough pw")
    }

    @Test func clubSettingsAreChecked() throws {
        #expect(
            try ClubSettingsDraft(clubName: " Pine Loop DGC ", tvPageSeconds: "12").validated() == .init(clubName: "Pine Loop DGC", tvPageSeconds: 12)
        )
        for seconds in ["2", "601", "ten", "", "4.5"] {
            #expect(throws: FieldErrors.self, "\(seconds)") { try ClubSettingsDraft(clubName: "Club", tvPageSeconds: seconds).validated() }
        }
        #expect(throws: FieldErrors.self) { try ClubSettingsDraft(clubName: "  ", tvPageSeconds: "10").validated() }
    }
}
