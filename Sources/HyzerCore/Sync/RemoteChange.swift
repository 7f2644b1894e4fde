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

    /// The value, or nil when the payload is malformed, breaks the domain's rules, or names
    /// another id than its record: such a record is skipped, never half-applied.
    public static func decode(_ record: CloudRecord) -> RemoteChange? {
        if Removals.removable(record.type), RemovalPayload.isRemoval(record.payload) {
            return UUID(text: record.id).map { .removed(record.type, id: $0.lowercasedText, hlc: record.hlc) }
        }
        do {
            switch record.type {
            case .scoreEvent:
                let payload = try ScoreEventPayload(plainJSON: record.payload) ?? RecordCoding.decode(ScoreEventPayload.self, record.payload)
                let event = payload.event(recordedAt: record.hlc)
                guard let event, event.id.lowercasedText == record.id else { return nil }
                return .scoreEvent(event)
            case .player:
                let player = try RecordCoding.decode(PlayerPayload.self, record.payload).player(updatedAt: record.hlc)
                guard let player, player.id.lowercasedText == record.id else { return nil }
                return .player(player)
            case .course:
                let course = try RecordCoding.decode(CoursePayload.self, record.payload).course(updatedAt: record.hlc)
                guard course.id.lowercasedText == record.id, Course.holeCountRange.contains(course.holes.count),
                    course.holes.allSatisfy({ Course.parRange.contains($0.par) })
                else { return nil }
                return .course(course)
            case .round:
                let round = try RecordCoding.decode(RoundPayload.self, record.payload).round(updatedAt: record.hlc)
                guard round.id.lowercasedText == record.id else { return nil }
                return .round(round)
            case .clubSettings:
                guard record.id == ClubSettingsPayload.sentinelID else { return nil }
                return .clubSettings(try RecordCoding.decode(ClubSettingsPayload.self, record.payload))
            case .event:
                let event = try RecordCoding.decode(EventPayload.self, record.payload).event(updatedAt: record.hlc)
                guard let event, event.id.lowercasedText == record.id else { return nil }
                return .event(event)
            case .signature:
                let signature = try RecordCoding.decode(SignaturePayload.self, record.payload).signature(signedAt: record.hlc)
                guard signature.id.lowercasedText == record.id else { return nil }
                return .signature(signature)
            case .season:
                let season = try RecordCoding.decode(SeasonPayload.self, record.payload).season(updatedAt: record.hlc)
                guard let season, season.id.lowercasedText == record.id else { return nil }
                return .season(season)
            case .checkIn:
                let checkIn = try RecordCoding.decode(CheckInPayload.self, record.payload).checkIn(updatedAt: record.hlc)
                guard let checkIn, checkIn.recordID == record.id else { return nil }
                return .checkIn(checkIn)
            case .frozenHandicap:
                let frozen = try RecordCoding.decode(FrozenHandicapPayload.self, record.payload).frozen(at: record.hlc)
                guard let frozen, frozen.recordID == record.id else { return nil }
                return .frozenHandicap(frozen)
            case .feePayment:
                let payment = try RecordCoding.decode(FeePaymentPayload.self, record.payload).payment(recordedAt: record.hlc)
                guard payment.id.lowercasedText == record.id else { return nil }
                return .feePayment(payment)
            }
        } catch {
            return nil
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
