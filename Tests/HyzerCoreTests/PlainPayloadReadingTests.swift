import Foundation
import Testing

@testable import HyzerCore

/// The score-event payload read without `JSONDecoder` must never read anything differently
/// from it: what it accepts decodes to the same payload, and what it declines goes to
/// `JSONDecoder`, so a bad record is still skipped rather than half-read.
@Suite struct PlainPayloadReadingTests {
    static func payload(_ generator: inout SeededGenerator) -> ScoreEventPayload {
        func id() -> UUID { UUID(uuid: withUnsafeBytes(of: (generator.next(), generator.next())) { $0.load(as: uuid_t.self) }) }
        let dnf = Int.random(in: 0..<8, using: &generator) == 0
        let event = ScoreEvent(
            id: id(), roundID: id(), playerID: id(), hole: Int.random(in: 1...27, using: &generator),
            strokes: dnf ? .dnf : .count(Int.random(in: 1...12, using: &generator)),
            reportedBy: Bool.random(using: &generator) ? id() : nil, deviceID: id(),
            supersedes: Bool.random(using: &generator) ? id() : nil,
            resolves: (0..<Int.random(in: 0...3, using: &generator)).map { _ in id() },
            recordedAt: HLC(wallMillis: 1, counter: 0, deviceID: id()), penalties: Int.random(in: 0...2, using: &generator),
            mulligans: dnf ? 0 : Int.random(in: 0...2, using: &generator))
        return ScoreEventPayload(event)
    }

    /// What `JSONDecoder` makes of the bytes, nil when it throws.
    static func foundation(_ data: Data) -> ScoreEventPayload? { try? RecordCoding.decode(ScoreEventPayload.self, data) }

    @Test func readsEverythingTheEncoderWritesAsJSONDecoderDoes() throws {
        var generator = SeededGenerator(state: 7)
        for _ in 0..<2_000 {
            let payload = Self.payload(&generator)
            let data = try RecordCoding.encode(payload)
            let plain = try #require(ScoreEventPayload(plainJSON: data), "\(String(decoding: data, as: UTF8.self))")
            #expect(plain == payload)
            #expect(plain == Self.foundation(data))
        }
    }

    @Test func readsOtherSpellingsOfTheSameJSONAlikeOrDeclinesThem() throws {
        var generator = SeededGenerator(state: 11)
        let payload = Self.payload(&generator)
        let pretty = JSONEncoder()
        pretty.outputFormatting = [.prettyPrinted]
        for data in [try pretty.encode(payload), Data(#"{"unknown":"x","other":[],"#.utf8) + (try RecordCoding.encode(payload)).dropFirst()] {
            #expect(ScoreEventPayload(plainJSON: data) == payload)
        }
    }

    @Test func declinesWhatItDoesNotReadItself() throws {
        let id = "1B4E28BA-2FA1-11D2-883F-0016D3CCA427"
        let plain = #""dnf":false,"hole":4,"id":"\#(id)","playerID":"\#(id)","resolves":[],"roundID":"\#(id)","deviceID":"\#(id)""#
        #expect(ScoreEventPayload(plainJSON: Data("{\(plain)}".utf8)) != nil)
        let declined = [
            "{\(plain),\"hole\":5}",  // a key twice: which one wins is JSONDecoder's call
            "{\(plain)".replacingOccurrences(of: "\"hole\":4", with: "\"hole\":4.0") + "}",
            "{\(plain)".replacingOccurrences(of: "\"hole\":4", with: "\"hole\":04") + "}",
            "{\(plain)".replacingOccurrences(of: "\"hole\":4", with: "\"hole\":-0") + "}",
            "{\(plain)".replacingOccurrences(of: "\"hole\":4", with: "\"hole\":4e0") + "}",
            "{\(plain)".replacingOccurrences(of: "\"hole\":4", with: "\"hole\":99999999999999999999") + "}",
            "{\(plain)".replacingOccurrences(of: "\"hole\":4", with: "\"hole\":null") + "}",
            "{\(plain)".replacingOccurrences(of: "\"dnf\":false", with: "\"dnf\":0") + "}",
            "{\(plain)".replacingOccurrences(of: "\"resolves\":[]", with: "\"resolves\":null") + "}",
            "{\(plain)".replacingOccurrences(of: "\"id\"", with: "\"\\u0069d\"") + "}",
            "{\(plain),\"note\":\"caf\u{E9}\"}",
            "{\(plain),\"note\":{}}",
            "{\(plain),}",
            "{\(plain)} x",
            "[{\(plain)}]",
        ]
        for text in declined {
            #expect(ScoreEventPayload(plainJSON: Data(text.utf8)) == nil, "\(text)")
        }
    }

    @Test func agreesWithJSONDecoderOnNullsCaseAndExtremes() throws {
        let upper = "1B4E28BA-2FA1-11D2-883F-0016D3CCA427"
        let lower = upper.lowercased()
        let cases = [
            #"{"dnf":true,"strokes":null,"reportedBy":null,"supersedes":null,"penalties":null,"hole":3,"id":"\#(lower)","playerID":"\#(lower)","resolves":["\#(lower)"],"roundID":"\#(upper)","deviceID":"\#(lower)"}"#,
            #"{"dnf":false,"strokes":4,"hole":9223372036854775807,"id":"\#(upper)","playerID":"\#(upper)","resolves":[],"roundID":"\#(upper)","deviceID":"\#(upper)"}"#,
            #"{"dnf":false,"strokes":-4,"hole":-1,"id":"\#(upper)","playerID":"\#(upper)","resolves":[],"roundID":"\#(upper)","deviceID":"\#(upper)"}"#,
        ]
        for text in cases {
            let data = Data(text.utf8)
            let plain = try #require(ScoreEventPayload(plainJSON: data), "\(text)")
            #expect(plain == Self.foundation(data), "\(text)")
        }
        #expect(ScoreEventPayload(plainJSON: Data("{}".utf8)) == nil)
        #expect(ScoreEventPayload(plainJSON: Data(" ".utf8)) == nil)
        #expect(ScoreEventPayload(plainJSON: Data()) == nil)
    }

    /// Bytes cut, repeated or changed at random: the plain reading is either the one
    /// `JSONDecoder` makes or none at all, never another payload and never one where
    /// `JSONDecoder` finds none.
    @Test func neverDisagreesWithJSONDecoderOnDamagedBytes() throws {
        var generator = SeededGenerator(state: 23)
        let alphabet = Array(#"{}[]":,.-+0123456789eE truefalsenul\"#.utf8) + [0x0A, 0x09, 0xC3, 0xA9, 0x00, 0x7F]
        var accepted = 0
        for _ in 0..<20_000 {
            var bytes = Array(try RecordCoding.encode(Self.payload(&generator)))
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                let at = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<4, using: &generator) {
                case 0: bytes.remove(at: at)
                case 1: bytes.insert(alphabet.randomElement(using: &generator) ?? 0, at: at)
                case 2: bytes[at] = alphabet.randomElement(using: &generator) ?? 0
                default:
                    let end = min(bytes.count, at + Int.random(in: 1...12, using: &generator))
                    bytes.insert(contentsOf: bytes[at..<end], at: at)
                }
                if bytes.isEmpty { bytes = [0x7B] }
            }
            let data = Data(bytes)
            guard let plain = ScoreEventPayload(plainJSON: data) else { continue }
            accepted += 1
            #expect(plain == Self.foundation(data), "\(String(decoding: data, as: UTF8.self))")
        }
        // Enough damage is harmless (a changed digit, added whitespace) to exercise acceptance.
        #expect(accepted > 500)
    }
}
