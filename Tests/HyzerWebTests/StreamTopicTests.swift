import Foundation
import HTTPTypes
import Hummingbird
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
        "/rounds/\(id.uuidString)", "/tv/events/x", "/api/v1/rounds/\(id.uuidString)/events", "/sync", "/tv?x=/events", "events",
    ])
    func otherTargetsAreNotStreams(target: String) {
        #expect(StreamTopic(target: target) == nil)
    }

    /// The front door refuses a path that decodes to a control character; its query is not
    /// its path, and a broken escape is left as typed.
    @Test func controlCharactersAreFoundInThePathOnly() {
        for target in ["/a%00", "/a%0a/b", "/a%7F", "/a%1F", "/\u{7}", "/x%0D?y=1"] {
            #expect(RequestTarget.hasControlCharacters(target), "\(target)")
        }
        for target in ["/", "/rounds/abc?q=%00", "/a%20b", "/a%zz", "/a%", "/a%2", "/caf%C3%A9", "/é?%01"] {
            #expect(!RequestTarget.hasControlCharacters(target), "\(target)")
        }
        #expect(RequestTarget.path("/tv/events?x=1", endsWith: "/events"))
        #expect(!RequestTarget.path("/tv?next=/events", endsWith: "/events"))
        #expect(!RequestTarget.path("nts", endsWith: "/events"))
    }

    /// A cookie is read from the header's bytes as Hummingbird's parser reads it.
    @Test func aCookieIsFoundAsHummingbirdFindsIt() {
        let headers = [
            "hyzer_csrf=abc; hyzer_session=s1", "a=1;hyzer_session=s2;hyzer_session=s3", "  hyzer_session=x=y ; other=1",
            "xhyzer_session=no; hyzer_sessionx=no", "hyzer_session", "hyzer_session=", "; ;hyzer_session=é✓",
        ]
        for header in headers {
            let theirs = Cookies(from: [header])["hyzer_session"].map { String($0.value) }
            #expect(RequestCookie.value("hyzer_session", inHeader: header) == theirs, "\(header)")
        }
    }
}
