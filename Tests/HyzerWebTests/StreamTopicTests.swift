import Foundation
import Testing

@testable import HyzerWeb

@Suite struct StreamTopicTests {
    static let id = UUID()

    @Test func streamTargetsNameTheirTopics() {
        let id = Self.id
        #expect(StreamTopic(target: "/rounds/\(id.uuidString)/events") == .round(id, scorecard: false))
        #expect(StreamTopic(target: "/rounds/\(id.uuidString.lowercased())/events?scorecard=1") == .round(id, scorecard: true))
        #expect(StreamTopic(target: "/rounds/\(id.uuidString)/events?lastEventId=x&scorecard=0") == .round(id, scorecard: false))
        #expect(StreamTopic(target: "/tv/events") == .tv)
        #expect(StreamTopic(target: "/tv/events?lastEventId=12") == .tv)
        #expect(StreamTopic(target: "/sync/events") == .sync)
    }

    /// Everything else goes on to the router, which answers it (404 for a bad round id).
    @Test(arguments: [
        "/", "/tv", "/rounds/nope/events", "/rounds//events", "/rounds/\(id.uuidString)/events/more",
        "/rounds/\(id.uuidString)", "/tv/events/x", "/api/v1/rounds/\(id.uuidString)/events", "/sync",
    ])
    func otherTargetsAreNotStreams(target: String) {
        #expect(StreamTopic(target: target) == nil)
    }
}
