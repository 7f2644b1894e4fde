import Foundation
import HTTPTypes
import Testing

@testable import HyzerWeb

@Suite struct StreamTopicTests {
    static let id = UUID()

    /// Streams are decided again by what says who is asking, nothing more: browsers that
    /// differ only in other cookies share one decision, and a token too long to be Hyzer's
    /// stays a wrong token (which never falls back to the session).
    @Test func streamCredentialsKeepOnlyWhoIsAsking() {
        func head(_ fields: HTTPFields) -> HTTPRequest {
            HTTPRequest(method: .get, scheme: nil, authority: "club", path: "/tv/events", headerFields: fields)
        }
        let one = StreamCredentials(.viewer, head([.cookie: "hyzer_csrf=aaaa; hyzer_session=s1"]))
        let two = StreamCredentials(.viewer, head([.cookie: "hyzer_session=s1; hyzer_csrf=bbbb; theme=dark"]))
        #expect(one == two)
        #expect(one.session == "s1" && one.bearer == nil)
        #expect(one.head.headerFields[.cookie] == "hyzer_session=s1")
        #expect(StreamCredentials(.viewer, head([.cookie: "hyzer_csrf=aaaa"])) == StreamCredentials(.viewer, head([:])))

        let long = StreamCredentials(.viewer, head([.authorization: "Bearer " + String(repeating: "x", count: 5000), .cookie: "hyzer_session=s1"]))
        #expect(long.bearer == "-")
        #expect(long.head.headerFields[.authorization] == "Bearer -")
        let huge = StreamCredentials(.viewer, head([.cookie: "hyzer_session=" + String(repeating: "y", count: 5000)]))
        #expect(huge.session == nil)
    }

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
