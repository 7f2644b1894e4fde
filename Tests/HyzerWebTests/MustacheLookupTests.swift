import Foundation
import HyzerStore
import Mustache
import Testing

@testable import HyzerCore
@testable import HyzerWeb

@Suite struct MustacheLookupTests {
    /// The leaderboard models answer the templates' lookups by hand (`MustacheParent`), not by
    /// reflection. A stored field left off that list would read as missing, and a template
    /// would then silently take a value of the same name from around it.
    @Test func everyFieldOfTheLeaderboardModelsIsAnswered() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-mustache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let stores = try await Stores(directory: directory)
        let roundID = try #require(try await stores.domain.seedDemoIfEmpty())
        let board = try await stores.domain.board(of: roundID).leaderboard
        let row = try #require(board.rows.first)
        let division = LeaderboardView.Division(name: "Open", rows: [row])
        let models: [(value: Any, parent: any MustacheParent)] = [(board, board), (row, row), (division, division)]
        for (value, parent) in models {
            let labels = Mirror(reflecting: value).children.compactMap(\.label)
            #expect(!labels.isEmpty)
            for label in labels {
                #expect(parent.child(named: label) != nil, "\(type(of: value)).\(label) is not answered")
            }
        }
    }
}
