import Foundation
import Testing

@testable import HyzerCore

/// Failed sign-ins slow the guesser, never the owner.
@Suite struct SignInGuardTests {
    let start = Date(timeIntervalSince1970: 1_000_000)

    func fail(_ guardian: inout SignInGuard, _ handle: String, from address: String, times: Int, at: Date? = nil) -> [SignInGuard.Verdict] {
        (0..<times).map { _ in guardian.attempt(handle: handle, stamp: "s1", address: address, now: at ?? start) }
    }

    @Test func strangersFailuresNeverRefuseTheOwnersRightPasswordFromElsewhere() {
        var guardian = SignInGuard()
        _ = fail(&guardian, "boss", from: "203.0.113.9", times: 5)
        #expect(guardian.attempt(handle: "boss", stamp: "s1", address: "203.0.113.9", now: start) != .proceed(delayOnFailure: 0))
        if case .refuse = guardian.attempt(handle: "boss", stamp: "s1", address: "203.0.113.9", now: start) {
        } else {
            Issue.record("the guessing address is refused for that handle")
        }
        // The owner, at home: checked at once, and a right password goes in.
        guard case .proceed = guardian.attempt(handle: "boss", stamp: "s1", address: "198.51.100.7", now: start) else {
            Issue.record("an address that has not failed is never refused")
            return
        }
    }

    @Test func aGuesserMovingBetweenAddressesIsSlowedMoreAndMore() {
        var guardian = SignInGuard()
        var delays: [Double] = []
        for index in 0..<12 {
            if case .proceed(let delay) = guardian.attempt(handle: "boss", stamp: "s1", address: "10.0.0.\(index)", now: start) {
                delays.append(delay)
            }
        }
        #expect(delays.count == 12, "no single address failed often enough to be refused")
        #expect(delays.prefix(5).allSatisfy { $0 == 0 })
        #expect(delays[5] > 0)
        #expect(zip(delays.dropFirst(5), delays.dropFirst(6)).allSatisfy { $0 <= $1 })
        #expect(delays.last == guardian.maxDelay)
    }

    @Test func oneAddressTryingManyHandlesIsRefusedEverywhere() {
        var guardian = SignInGuard()
        for index in 0..<guardian.addressLimit {
            _ = guardian.attempt(handle: "user\(index)", stamp: "", address: "203.0.113.9", now: start)
        }
        guard case .refuse(let wait) = guardian.attempt(handle: "another", stamp: "", address: "203.0.113.9", now: start) else {
            Issue.record("an address spraying handles is refused")
            return
        }
        #expect(wait == 15 * 60)
        // Once its failures age out, it may try again.
        if case .refuse = guardian.attempt(handle: "another", stamp: "", address: "203.0.113.9", now: start.addingTimeInterval(15 * 60 + 1)) {
            Issue.record("failures older than the window are forgiven")
        }
    }

    @Test func aNewPasswordStartsTheCountsOver() {
        var guardian = SignInGuard()
        _ = fail(&guardian, "boss", from: "192.0.2.1", times: 5)
        if case .proceed = guardian.attempt(handle: "boss", stamp: "s1", address: "192.0.2.1", now: start) {
            Issue.record("refused while the password is the same")
        }
        guard case .proceed(let delay) = guardian.attempt(handle: "boss", stamp: "s2", address: "192.0.2.1", now: start) else {
            Issue.record("a reset password is checked again, from the same address too")
            return
        }
        #expect(delay == 0)
    }

    @Test func succeedingForgivesThisAddressForThisHandleOnly() {
        var guardian = SignInGuard()
        _ = fail(&guardian, "boss", from: "192.0.2.1", times: 4)
        _ = guardian.attempt(handle: "boss", stamp: "s1", address: "192.0.2.1", now: start)
        guardian.succeeded(handle: "boss", stamp: "s1", address: "192.0.2.1")
        #expect(fail(&guardian, "boss", from: "192.0.2.1", times: 5).allSatisfy { if case .proceed = $0 { true } else { false } })
    }

    @Test func attemptsNeverCheckedAreTakenBack() {
        var guardian = SignInGuard()
        for _ in 0..<50 {
            _ = guardian.attempt(handle: "boss", stamp: "s1", address: "192.0.2.1", now: start)
            guardian.withdraw(handle: "boss", stamp: "s1", address: "192.0.2.1")
        }
        #expect(guardian.attempt(handle: "boss", stamp: "s1", address: "192.0.2.1", now: start) == .proceed(delayOnFailure: 0))
    }

    @Test func aWindowCountsPerKey() {
        var window = AttemptWindow(limit: 2, window: 60)
        #expect(window.attempt("a", now: start) == nil)
        #expect(window.attempt("a", now: start) == nil)
        #expect(window.attempt("a", now: start.addingTimeInterval(10)) == 50)
        #expect(window.attempt("b", now: start) == nil)
        #expect(window.attempt("a", now: start.addingTimeInterval(61)) == nil)
    }
}
