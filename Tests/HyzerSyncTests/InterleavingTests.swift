import Foundation
import HyzerCore
import HyzerStore
import PropertyBased
import Testing

@testable import HyzerSync

/// Three devices on one embedded cloud, driven through seeded random interleavings of
/// scores, concurrent corrections of the same holes, role and settings changes, pushes,
/// pulls and restarts — one device's clock ten minutes off. Once everyone has synced, every
/// device shows the same records, standings and conflicts.
///
/// `HYZER_PROPERTY_SEEDS` sets how many interleavings (50 in `make test`, 500 in `make
/// soak`). A failure names the failing steps and the seed to replay it with
/// (`@Test(.fixedSeed("…"))` on this test).
@Suite struct InterleavingTests {
    static let interleavings = ProcessInfo.processInfo.environment["HYZER_PROPERTY_SEEDS"].flatMap(Int.init) ?? 50

    enum Step: CustomStringConvertible, Sendable {
        case score(device: Int, player: Int, hole: Int, strokes: Int)
        case role(device: Int, player: Int, Role)
        case settings(device: Int, clubName: String)
        case push(device: Int)
        case pull(device: Int)
        case restart(device: Int)

        /// Every step from one number, so the generator (and its shrinking) works on plain
        /// integers. Three players on three holes: devices collide on the same holes often.
        init(_ number: Int) {
            var rest = number
            func take(_ choices: Int) -> Int {
                defer { rest /= choices }
                return rest % choices
            }
            let device = take(3)
            switch take(10) {
            case 0...3: self = .score(device: device, player: take(3), hole: 1 + take(3), strokes: 1 + take(6))
            case 4: self = .role(device: device, player: take(3), take(2) == 0 ? .athlete : .coach)
            case 5: self = .settings(device: device, clubName: ["Pine Club", "Oak Club", "Elm Club"][take(3)])
            case 6, 7: self = .push(device: device)
            case 8: self = .pull(device: device)
            default: self = .restart(device: device)
            }
        }

        var description: String {
            switch self {
            case .score(let device, let player, let hole, let strokes): "\(device): player \(player) hole \(hole) → \(strokes)"
            case .role(let device, let player, let role): "\(device): player \(player) role → \(role.rawValue)"
            case .settings(let device, let name): "\(device): club name → \(name)"
            case .push(let device): "\(device): push"
            case .pull(let device): "\(device): pull"
            case .restart(let device): "\(device): restart"
            }
        }
    }

    @Test func threeDevicesConvergeWhateverTheInterleaving() async {
        let steps = Gen.int(in: 0...Int(Int32.max)).array(of: 5...40)
        await propertyCheck(count: Self.interleavings, input: steps, Gen.bool) { numbers, skewAhead in
            do {
                try await Self.run(numbers.map(Step.init), skew: skewAhead ? 600 : -600)
            } catch {
                Issue.record("the interleaving threw: \(error)")
            }
        }
    }

    static func run(_ steps: [Step], skew: TimeInterval) async throws {
        let scratch = try Scratch()
        let cloud = EmbeddedCloud(path: scratch.url.appendingPathComponent("cloud.sqlite").path)
        let names = ["a", "b", "c"]
        func open(_ index: Int) async throws -> Device {
            try await Device(names[index], cloud: cloud, root: scratch.url, clockOffset: index == 2 ? skew : 0)
        }
        var devices = [try await open(0), try await open(1), try await open(2)]
        let (round, players) = try await devices[0].setUpRound()
        for device in devices { await device.sync() }
        for device in devices { await device.sync() }

        for step in steps {
            switch step {
            case .score(let index, let player, let hole, let strokes):
                // Score the hole, or correct what this device sees as its current score.
                let device = devices[index]
                let current = try await device.domain.snapshot(of: round).board.scores[players[player], hole]?.winner
                try await device.score(round, players[player], hole: hole, strokes, correcting: current?.id)
            case .role(let index, let player, let role):
                _ = try await devices[index].domain.changeRole(of: players[player], to: role, actor: nil)
            case .settings(let index, let name):
                _ = try await devices[index].domain.updateClubSettings(clubName: name)
            case .push(let index):
                await devices[index].engine.resolveAccount()
                await devices[index].engine.pushPending()
            case .pull(let index):
                await devices[index].engine.resolveAccount()
                await devices[index].engine.pullChanges()
            case .restart(let index):
                devices[index] = try await open(index)
                try await devices[index].stores.reconcile()
            }
        }

        for _ in 0..<2 {
            for device in devices { await device.sync() }
        }
        let expected = try await devices[0].view(round)
        let expectedSettings = try await devices[0].domain.clubSettings()
        let expectedRoles = try await Self.roles(devices[0], players)
        for device in devices.dropFirst() {
            let view = try await device.view(round)
            #expect(view.events == expected.events, "\(device.name) has the same score events; steps: \(steps)")
            #expect(view.standings == expected.standings, "\(device.name) shows the same standings; steps: \(steps)")
            #expect(view.conflicts == expected.conflicts, "\(device.name) shows the same conflicts; steps: \(steps)")
            #expect(try await device.domain.clubSettings() == expectedSettings, "\(device.name) has the same settings; steps: \(steps)")
            #expect(try await Self.roles(device, players) == expectedRoles, "\(device.name) gives everyone the same role; steps: \(steps)")
        }
        for device in devices {
            #expect(try await device.stores.outbox.counts().pending == 0, "\(device.name) sent everything")
        }
        #expect(try await cloud.changeCount(zone: "club", after: 0) >= expected.events.count)
    }

    static func roles(_ device: Device, _ players: [UUID]) async throws -> [Role?] {
        var roles: [Role?] = []
        for player in players { roles.append(try await device.domain.player(player)?.role) }
        return roles
    }

    // MARK: Clock skew

    /// A device whose clock is ten minutes ahead changes something; another whose clock is
    /// ten minutes behind changes it after seeing that change. The later change wins
    /// everywhere: last-writer-wins follows what happened, not the wall clocks.
    @Test(arguments: [600.0, -600.0])
    func aLaterChangeWinsWhateverTheClocks(skew: TimeInterval) async throws {
        let scratch = try Scratch()
        let cloud = EmbeddedCloud(path: scratch.url.appendingPathComponent("cloud.sqlite").path)
        let skewed = try await Device("skewed", cloud: cloud, root: scratch.url, clockOffset: skew)
        let other = try await Device("other", cloud: cloud, root: scratch.url, clockOffset: -skew)
        let (round, players) = try await skewed.setUpRound()
        await skewed.sync()
        await other.sync()

        var last: (name: String, role: Role) = ("", .athlete)
        for (turn, name) in ["Pine Club", "Oak Club", "Elm Club", "Ash Club"].enumerated() {
            let (writer, reader) = turn % 2 == 0 ? (skewed, other) : (other, skewed)
            let role: Role = turn % 2 == 0 ? .coach : .athlete
            _ = try await writer.domain.updateClubSettings(clubName: name)
            _ = try await writer.domain.changeRole(of: players[0], to: role, actor: nil)
            try await writer.score(
                round, players[1], hole: 1, 2 + turn,
                correcting: try await writer.domain.snapshot(of: round).board.scores[players[1], 1]?.winner.id)
            await writer.sync()
            await reader.sync()
            last = (name, role)
            for device in [skewed, other] {
                #expect(try await device.domain.clubSettings().clubName.value == name, "\(device.name) after turn \(turn)")
                #expect(try await device.domain.player(players[0])?.role == role, "\(device.name) after turn \(turn)")
                #expect(try await device.standings(round).entries.first { $0.playerID == players[1] }?.strokes == 2 + turn)
            }
        }
        #expect(last.name == "Ash Club")
    }
}
