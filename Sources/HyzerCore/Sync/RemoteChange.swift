import Foundation

/// A cloud record decoded into the domain value it carries. Decoding is pure, so a pull
/// decodes the next page while the store writes the current one.
public enum RemoteChange: Sendable {
    case player(Player)
    case course(Course)
    case round(Round)
    case scoreEvent(ScoreEvent)
    case clubSettings(ClubSettingsPayload)
    case event(Event)
    case signature(Signature)
    case season(Season)
    case checkIn(CheckIn)
    case frozenHandicap(FrozenHandicap)
    case feePayment(FeePayment)
    /// A player, course, event or round deleted on another device (`RemovalPayload`).
    case removed(RecordType, id: String, hlc: HLC)

    /// The value, or why it cannot be had: the payload is malformed, breaks the domain's
    /// rules, or names another id than its record. Such a record is never half-applied.
    public static func read(_ record: CloudRecord) throws(RecordUnreadable) -> RemoteChange {
        if Removals.removable(record.type), RemovalPayload.isRemoval(record.payload) {
            guard let id = UUID(text: record.id) else { throw .otherID(record.id) }
            return .removed(record.type, id: id.lowercasedText, hlc: record.hlc)
        }
        /// The payload decoded, the rules of its conversion met, and its own id.
        func value<Payload: Decodable, Value>(
            _ type: Payload.Type, _ convert: (Payload) -> Value?, id: (Value) -> String
        ) throws(RecordUnreadable) -> Value {
            let payload: Payload
            do { payload = try RecordCoding.decode(type, record.payload) } catch { throw .decoding(error) }
            guard let value = convert(payload) else { throw .rules }
            guard id(value) == record.id else { throw .otherID(record.id) }
            return value
        }
        switch record.type {
        case .scoreEvent:
            if let payload = ScoreEventPayload(plainJSON: record.payload) {
                // The fast reader's answer; anything it does not take is read the slow way.
                guard let event = payload.event(recordedAt: record.hlc) else { throw .rules }
                guard event.id.lowercasedText == record.id else { throw .otherID(record.id) }
                return .scoreEvent(event)
            }
            return .scoreEvent(try value(ScoreEventPayload.self, { $0.event(recordedAt: record.hlc) }, id: \.id.lowercasedText))
        case .player:
            return .player(try value(PlayerPayload.self, { $0.player(updatedAt: record.hlc) }, id: \.id.lowercasedText))
        case .course:
            let course = try value(CoursePayload.self, { $0.course(updatedAt: record.hlc) }, id: \.id.lowercasedText)
            guard Course.holeCountRange.contains(course.holes.count), course.holes.allSatisfy({ Course.parRange.contains($0.par) }) else {
                throw .rules
            }
            return .course(course)
        case .round:
            return .round(try value(RoundPayload.self, { $0.round(updatedAt: record.hlc) }, id: \.id.lowercasedText))
        case .clubSettings:
            guard record.id == ClubSettingsPayload.sentinelID else { throw .otherID(record.id) }
            return .clubSettings(try value(ClubSettingsPayload.self, { $0 }, id: { _ in record.id }))
        case .event:
            return .event(try value(EventPayload.self, { $0.event(updatedAt: record.hlc) }, id: \.id.lowercasedText))
        case .signature:
            return .signature(try value(SignaturePayload.self, { $0.signature(signedAt: record.hlc) }, id: \.id.lowercasedText))
        case .season:
            return .season(try value(SeasonPayload.self, { $0.season(updatedAt: record.hlc) }, id: \.id.lowercasedText))
        case .checkIn:
            return .checkIn(try value(CheckInPayload.self, { $0.checkIn(updatedAt: record.hlc) }, id: \.recordID))
        case .frozenHandicap:
            return .frozenHandicap(try value(FrozenHandicapPayload.self, { $0.frozen(at: record.hlc) }, id: \.recordID))
        case .feePayment:
            return .feePayment(try value(FeePaymentPayload.self, { $0.payment(recordedAt: record.hlc) }, id: \.id.lowercasedText))
        }
    }

    public var type: RecordType {
        switch self {
        case .player: .player
        case .course: .course
        case .round: .round
        case .scoreEvent: .scoreEvent
        case .clubSettings: .clubSettings
        case .event: .event
        case .signature: .signature
        case .season: .season
        case .checkIn: .checkIn
        case .frozenHandicap: .frozenHandicap
        case .feePayment: .feePayment
        case .removed(let type, _, _): type
        }
    }

    /// The id of the cloud record it came from.
    public var recordID: String {
        switch self {
        case .player(let player): player.id.lowercasedText
        case .course(let course): course.id.lowercasedText
        case .round(let round): round.id.lowercasedText
        case .scoreEvent(let event): event.id.lowercasedText
        case .clubSettings: ClubSettingsPayload.sentinelID
        case .event(let event): event.id.lowercasedText
        case .signature(let signature): signature.id.lowercasedText
        case .season(let season): season.id.lowercasedText
        case .checkIn(let checkIn): checkIn.recordID
        case .frozenHandicap(let frozen): frozen.recordID
        case .feePayment(let payment): payment.id.lowercasedText
        case .removed(_, let id, _): id
        }
    }

    public var hlc: HLC {
        switch self {
        case .player(let player): player.updatedAt
        case .course(let course): course.updatedAt
        case .round(let round): round.updatedAt
        case .scoreEvent(let event): event.recordedAt
        case .clubSettings(let settings): settings.newest
        case .event(let event): event.updatedAt
        case .signature(let signature): signature.signedAt
        case .season(let season): season.updatedAt
        case .checkIn(let checkIn): checkIn.updatedAt
        case .frozenHandicap(let frozen): frozen.frozenAt
        case .feePayment(let payment): payment.recordedAt
        case .removed(_, _, let hlc): hlc
        }
    }
}

/// Which records can be removed. Score events and signatures are append-only everywhere;
/// the club settings always exist.
public enum Removals {
    public static func removable(_ type: RecordType) -> Bool {
        switch type {
        case .player, .course, .event, .round, .season: true
        case .scoreEvent, .signature, .clubSettings, .checkIn, .frozenHandicap, .feePayment: false
        }
    }
}
