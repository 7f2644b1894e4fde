import Foundation

// What each record type carries through the cloud. Domain values stay free of Codable;
// these are the wire form, versioned by the record's HLC.

public struct PlayerPayload: Codable, Hashable, Sendable {
    public var id: UUID
    public var displayName: String
    public var handle: String
    public var role: String
    public var cloudRecordName: String?
    public var createdAt: Date
    // Account fields, absent from records written before accounts existed. Passwords travel
    // only as bcrypt hashes; sessions and API tokens never leave their device.
    public var passwordHash: String?
    public var disabled: Bool?
    public var originDeviceID: UUID?
    /// Absent unless archived, here and in every payload: records keep the bytes they had.
    public var archived: Bool?
    /// Absent when the player has no usual division.
    public var division: String?
    /// Absent unless a coach entered a rating.
    public var enteredRating: Int?
    /// Absent unless known.
    public var pdgaNumber: Int?
    public var email: String?

    public init(_ player: Player) {
        enteredRating = player.enteredRating
        pdgaNumber = player.pdgaNumber
        email = player.email
        archived = player.archived ? true : nil
        division = player.division.isEmpty ? nil : player.division
        id = player.id
        displayName = player.displayName
        handle = player.handle.value
        role = player.role.rawValue
        cloudRecordName = player.cloudRecordName
        createdAt = player.createdAt
        passwordHash = player.passwordHash
        disabled = player.disabled ? true : nil
        originDeviceID = player.originDeviceID
    }

    public func player(updatedAt: HLC) -> Player? {
        guard case .success(let handle) = Handle.parse(handle) else { return nil }
        // A role a newer Hyzer names is read as the least one: a device never grants rights it
        // does not know.
        var player = Player(
            id: id, displayName: displayName, handle: handle, role: Role(rawValue: role) ?? .athlete,
            cloudRecordName: cloudRecordName, createdAt: createdAt, updatedAt: updatedAt,
            passwordHash: passwordHash, disabled: disabled ?? false, originDeviceID: originDeviceID)
        player.archived = archived ?? false
        player.division = division.flatMap(Division.validated) ?? ""
        player.enteredRating = enteredRating.flatMap { Player.ratingRange.contains($0) ? $0 : nil }
        player.pdgaNumber = pdgaNumber.flatMap { Player.pdgaNumberRange.contains($0) ? $0 : nil }
        player.email = email.flatMap { try? Player.validEmail(text: $0) }
        return player
    }
}

public struct CoursePayload: Codable, Hashable, Sendable {
    public var id: UUID
    public var name: String
    public var holes: [Hole]
    public var createdAt: Date
    public var archived: Bool?

    public init(_ course: Course) {
        archived = course.archived ? true : nil
        id = course.id
        name = course.name
        holes = course.holes
        createdAt = course.createdAt
    }

    public func course(updatedAt: HLC) -> Course {
        var course = Course(id: id, name: name, holes: holes, createdAt: createdAt, updatedAt: updatedAt)
        course.archived = archived ?? false
        return course
    }
}

public struct RoundPayload: Codable, Hashable, Sendable {
    public var id: UUID
    public var name: String
    public var courseID: UUID
    public var playerIDs: [UUID]
    public var status: RoundStatus
    public var startedAt: Date?
    public var completedAt: Date?
    public var createdBy: UUID?
    public var createdAt: Date
    // League fields, absent from rounds written before events and divisions existed.
    public var eventID: UUID?
    /// Player id (upper-case text, as every id in payloads) → division name.
    public var divisions: [String: String]?
    public var cards: [Card]?
    public var archived: Bool?
    /// Withdrawn players' ids, sorted (so a round always has the same bytes); absent when none.
    public var withdrawn: [String]?
    /// The bag-tag pool of a tag round; absent otherwise.
    public var tagsID: UUID?
    // Formats: absent on stroke play, so its rounds keep the bytes they always had.
    public var format: RoundFormat?
    public var teams: [Team]?
    public var caliRule: CaliRule?
    public var matchID: UUID?
    public var putting: PuttingSetup?
    public var mulligans: MulliganRule?

    public init(_ round: Round) {
        matchID = round.matchID
        putting = round.putting
        mulligans = round.mulligans
        format = round.format == .stroke ? nil : round.format
        teams = round.teams.isEmpty ? nil : round.teams
        caliRule = round.caliRule
        tagsID = round.tagsID
        archived = round.archived ? true : nil
        withdrawn = round.withdrawn.isEmpty ? nil : round.withdrawn.map(\.uppercasedText).sorted()
        eventID = round.eventID
        divisions =
            round.divisions.isEmpty
            ? nil : Dictionary(round.divisions.map { ($0.key.uppercasedText, $0.value) }, uniquingKeysWith: { first, _ in first })
        cards = round.cards.isEmpty ? nil : round.cards
        id = round.id
        name = round.name
        courseID = round.courseID
        playerIDs = round.playerIDs
        status = round.status
        startedAt = round.startedAt
        completedAt = round.completedAt
        createdBy = round.createdBy
        createdAt = round.createdAt
    }

    public func round(updatedAt: HLC) -> Round {
        let divisions = (divisions ?? [:]).reduce(into: [UUID: String]()) { result, pair in
            if let player = UUID(text: pair.key), let name = Division.validated(pair.value) { result[player] = name }
        }
        var round = Round(
            id: id, name: name, courseID: courseID, playerIDs: playerIDs, status: status, startedAt: startedAt,
            completedAt: completedAt, createdBy: createdBy, createdAt: createdAt, updatedAt: updatedAt,
            eventID: eventID, divisions: divisions, cards: cards ?? [])
        round.archived = archived ?? false
        round.withdrawn = Set((withdrawn ?? []).compactMap(UUID.init(text:))).intersection(playerIDs)
        round.tagsID = tagsID
        round.format = format ?? .stroke
        round.teams = teams ?? []
        round.caliRule = caliRule
        round.matchID = matchID
        round.putting = putting
        round.mulligans = mulligans
        return round
    }
}

public struct ScoreEventPayload: Codable, Hashable, Sendable {
    public var id: UUID
    public var roundID: UUID
    public var playerID: UUID
    public var hole: Int
    public var strokes: Int?
    public var dnf: Bool
    public var reportedBy: UUID?
    public var deviceID: UUID
    public var supersedes: UUID?
    public var resolves: [UUID]
    /// Absent when zero, so events without penalties keep the bytes they always had.
    public var penalties: Int?
    /// Absent when zero, like penalties.
    public var mulligans: Int?

    public init(_ event: ScoreEvent) {
        penalties = event.penalties > 0 ? event.penalties : nil
        mulligans = event.mulligans > 0 ? event.mulligans : nil
        id = event.id
        roundID = event.roundID
        playerID = event.playerID
        hole = event.hole
        strokes = event.strokes.count
        dnf = event.strokes == .dnf
        reportedBy = event.reportedBy
        deviceID = event.deviceID
        supersedes = event.supersedes
        resolves = event.resolves
    }

    enum CodingKeys: String, CodingKey {
        case id, roundID, playerID, hole, strokes, dnf, reportedBy, deviceID, supersedes, resolves, penalties, mulligans
    }

    // Written by hand: a first sync decodes every event, and Foundation's UUID coding goes
    // through printf and scanf on Linux. The JSON is the same as the synthesized one.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func uuid(_ key: CodingKeys) throws -> UUID {
            let text = try container.decode(String.self, forKey: key)
            guard let value = UUID(text: text) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "not a UUID: \(text)")
            }
            return value
        }
        func optionalUUID(_ key: CodingKeys) throws -> UUID? {
            try container.decodeIfPresent(String.self, forKey: key).map { text in
                guard let value = UUID(text: text) else {
                    throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "not a UUID: \(text)")
                }
                return value
            }
        }
        id = try uuid(.id)
        roundID = try uuid(.roundID)
        playerID = try uuid(.playerID)
        hole = try container.decode(Int.self, forKey: .hole)
        penalties = try container.decodeIfPresent(Int.self, forKey: .penalties)
        mulligans = try container.decodeIfPresent(Int.self, forKey: .mulligans)
        strokes = try container.decodeIfPresent(Int.self, forKey: .strokes)
        dnf = try container.decode(Bool.self, forKey: .dnf)
        reportedBy = try optionalUUID(.reportedBy)
        deviceID = try uuid(.deviceID)
        supersedes = try optionalUUID(.supersedes)
        resolves = try container.decode([String].self, forKey: .resolves).map { text in
            guard let value = UUID(text: text) else {
                throw DecodingError.dataCorruptedError(forKey: .resolves, in: container, debugDescription: "not a UUID: \(text)")
            }
            return value
        }
    }

    /// The payload read without `JSONDecoder` (see `PlainJSONObject`), or nil when it is not
    /// in the plain form that encoder writes, or a member is missing or of another type:
    /// then `JSONDecoder` decides.
    public init?(plainJSON data: Data) {
        var id: UUID?
        var roundID: UUID?
        var playerID: UUID?
        var deviceID: UUID?
        var reportedBy: UUID?
        var supersedes: UUID?
        var hole: Int?
        var strokes: Int?
        var penalties: Int?
        var mulligans: Int?
        var dnf: Bool?
        var resolves: [UUID]?
        var seen: UInt16 = 0
        let read = data.withUnsafeBytes { bytes in
            PlainJSONObject.read(bytes) { key, value in
                guard let name = String(validating: key, as: UTF8.self), let field = CodingKeys(stringValue: name) else { return true }
                let bit = UInt16(1) << Self.ordinal(field)
                guard seen & bit == 0 else { return false }
                seen |= bit
                func uuid() -> UUID?? {
                    switch value {
                    case .string(let text): UUID(hexText: text).map { .some($0) }
                    case .null: .some(nil)
                    default: nil
                    }
                }
                func integer() -> Int?? {
                    switch value {
                    case .integer(let number): .some(number)
                    case .null: .some(nil)
                    default: nil
                    }
                }
                switch field {
                case .id:
                    guard let value = uuid() else { return false }
                    id = value
                case .roundID:
                    guard let value = uuid() else { return false }
                    roundID = value
                case .playerID:
                    guard let value = uuid() else { return false }
                    playerID = value
                case .deviceID:
                    guard let value = uuid() else { return false }
                    deviceID = value
                case .reportedBy:
                    guard let value = uuid() else { return false }
                    reportedBy = value
                case .supersedes:
                    guard let value = uuid() else { return false }
                    supersedes = value
                case .hole:
                    guard let value = integer() else { return false }
                    hole = value
                case .strokes:
                    guard let value = integer() else { return false }
                    strokes = value
                case .penalties:
                    guard let value = integer() else { return false }
                    penalties = value
                case .mulligans:
                    guard let value = integer() else { return false }
                    mulligans = value
                case .dnf:
                    guard case .bool(let flag) = value else { return false }
                    dnf = flag
                case .resolves:
                    guard case .strings(let texts) = value else { return false }
                    var ids: [UUID] = []
                    ids.reserveCapacity(texts.count)
                    for text in texts {
                        guard let resolved = UUID(hexText: text) else { return false }
                        ids.append(resolved)
                    }
                    resolves = ids
                }
                return true
            }
        }
        guard read, let id, let roundID, let playerID, let deviceID, let hole, let dnf, let resolves else { return nil }
        self.id = id
        self.roundID = roundID
        self.playerID = playerID
        self.deviceID = deviceID
        self.hole = hole
        self.dnf = dnf
        self.resolves = resolves
        self.strokes = strokes
        self.penalties = penalties
        self.mulligans = mulligans
        self.reportedBy = reportedBy
        self.supersedes = supersedes
    }

    private static func ordinal(_ key: CodingKeys) -> UInt16 {
        switch key {
        case .id: 0
        case .roundID: 1
        case .playerID: 2
        case .hole: 3
        case .strokes: 4
        case .dnf: 5
        case .reportedBy: 6
        case .deviceID: 7
        case .supersedes: 8
        case .resolves: 9
        case .penalties: 10
        case .mulligans: 11
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id.uppercasedText, forKey: .id)
        try container.encode(roundID.uppercasedText, forKey: .roundID)
        try container.encode(playerID.uppercasedText, forKey: .playerID)
        try container.encode(hole, forKey: .hole)
        try container.encodeIfPresent(strokes, forKey: .strokes)
        try container.encode(dnf, forKey: .dnf)
        try container.encodeIfPresent(reportedBy?.uppercasedText, forKey: .reportedBy)
        try container.encode(deviceID.uppercasedText, forKey: .deviceID)
        try container.encodeIfPresent(supersedes?.uppercasedText, forKey: .supersedes)
        try container.encode(resolves.map(\.uppercasedText), forKey: .resolves)
        try container.encodeIfPresent(penalties, forKey: .penalties)
        try container.encodeIfPresent(mulligans, forKey: .mulligans)
    }

    /// The event, or nil when its values break the rules every local event obeys.
    public func event(recordedAt: HLC) -> ScoreEvent? {
        let value: Strokes
        if dnf { value = .dnf } else if let strokes, Strokes.storedRange.contains(strokes) { value = .count(strokes) } else { return nil }
        let penalties = penalties ?? 0
        let mulligans = mulligans ?? 0
        guard Course.holeCountRange.contains(hole), ScoreEvent.penaltyRange.contains(penalties), ScoreEvent.mulliganRange.contains(mulligans)
        else { return nil }
        return ScoreEvent(
            id: id, roundID: roundID, playerID: playerID, hole: hole, strokes: value, reportedBy: reportedBy,
            deviceID: deviceID, supersedes: supersedes, resolves: resolves, recordedAt: recordedAt, penalties: penalties, mulligans: mulligans)
    }
}

public struct EventPayload: Codable, Hashable, Sendable {
    public var id: UUID
    public var name: String
    public var divisions: [String]
    /// Division name → its playoff (ids as upper-case text, like every id in payloads).
    public var playoffs: [String: PlayoffPayload]?
    public var createdBy: UUID?
    public var createdAt: Date
    public var archived: Bool?
    /// Absent for a night of no season, so such events keep the bytes they always had.
    public var seasonID: UUID?
    /// Absent while check-in was never opened.
    public var checkInOpenedAt: Date?
    /// Absent for a night without a date (and in payloads written before nights had one).
    public var playedOn: String?

    public init(_ event: Event) {
        playedOn = event.playedOn
        seasonID = event.seasonID
        checkInOpenedAt = event.checkInOpenedAt
        archived = event.archived ? true : nil
        id = event.id
        name = event.name
        divisions = event.divisions
        playoffs =
            event.playoffs.isEmpty
            ? nil : event.playoffs.mapValues { PlayoffPayload(winner: $0.winner.uppercasedText, rounds: $0.rounds.map(\.uppercasedText)) }
        createdBy = event.createdBy
        createdAt = event.createdAt
    }

    public func event(updatedAt: HLC) -> Event? {
        let divisions = divisions.compactMap(Division.validated)
        guard divisions.count == self.divisions.count, !name.isEmpty else { return nil }
        var event = Event(
            id: id, name: name, divisions: divisions, playoffs: (playoffs ?? [:]).compactMapValues(\.playoff),
            createdBy: createdBy, createdAt: createdAt, updatedAt: updatedAt)
        event.archived = archived ?? false
        event.seasonID = seasonID
        event.checkInOpenedAt = checkInOpenedAt
        event.playedOn = playedOn
        return event
    }
}

public struct SeasonPayload: Codable, Hashable, Sendable {
    public var id: UUID
    public var name: String
    public var startsOn: String?
    public var endsOn: String?
    public var divisions: [String]
    public var points: PointsRule
    public var handicap: HandicapMethod?
    public var createdBy: UUID?
    public var createdAt: Date
    public var archived: Bool?
    /// Absent unless the season sets fees.
    public var fees: FeePlan?

    public init(_ season: Season) {
        archived = season.archived ? true : nil
        fees = season.fees
        id = season.id
        name = season.name
        startsOn = season.startsOn
        endsOn = season.endsOn
        divisions = season.divisions
        points = season.points
        handicap = season.handicap
        createdBy = season.createdBy
        createdAt = season.createdAt
    }

    /// The season, or nil when the payload breaks the rules a season is made under.
    public func season(updatedAt: HLC) -> Season? {
        let draft = SeasonDraft(name: name, startsOn: startsOn, endsOn: endsOn, divisions: divisions)
        guard let valid = try? draft.validated(), valid.divisions == divisions, !name.isEmpty else { return nil }
        var season = Season(
            id: id, name: valid.name, startsOn: startsOn, endsOn: endsOn, divisions: divisions, points: points, handicap: handicap,
            createdBy: createdBy, createdAt: createdAt, updatedAt: updatedAt)
        season.archived = archived ?? false
        season.fees = fees
        return season
    }
}

/// What a deleted player, course, event or round leaves in the cloud: a newer version of the
/// record that says it is gone, so every device removes it and an older copy stays gone.
public struct RemovalPayload: Codable, Hashable, Sendable {
    public var removed: Bool

    public init() { removed = true }

    /// True when `data` is a removal (a record's payload never has a `removed` member).
    public static func isRemoval(_ data: Data) -> Bool {
        (try? RecordCoding.decode(RemovalPayload.self, data))?.removed == true
    }
}

public struct PlayoffPayload: Codable, Hashable, Sendable {
    public var winner: String
    public var rounds: [String]

    var playoff: Playoff? {
        UUID(text: winner).map { Playoff(winner: $0, rounds: rounds.compactMap(UUID.init(text:))) }
    }
}

public struct SignaturePayload: Codable, Hashable, Sendable {
    public var id: UUID
    public var roundID: UUID
    public var playerID: UUID
    public var signedBy: UUID?

    public init(_ signature: Signature) {
        id = signature.id
        roundID = signature.roundID
        playerID = signature.playerID
        signedBy = signature.signedBy
    }

    public func signature(signedAt: HLC) -> Signature {
        Signature(id: id, roundID: roundID, playerID: playerID, signedBy: signedBy, signedAt: signedAt)
    }
}

/// One field of the club settings with its own clock, so edits made apart both survive.
public struct StampedValue<Value: Codable & Hashable & Sendable>: Codable, Hashable, Sendable {
    public var value: Value
    public var hlc: HLC

    public init(_ value: Value, hlc: HLC) {
        self.value = value
        self.hlc = hlc
    }

    func newer(_ other: StampedValue) -> StampedValue { other.hlc > hlc ? other : self }
}

/// The club settings singleton. Every device creates it on first start with clock zero, so
/// any real edit wins over a default, and two devices never end up with two settings.
public struct ClubSettingsPayload: Codable, Hashable, Sendable {
    public static let sentinelID = "club-settings"

    public var clubName: StampedValue<String>
    public var tvPageSeconds: StampedValue<Int>
    public var publicLeaderboards: StampedValue<Bool>
    /// Anyone may create an (athlete) account without an invite. Absent in settings written
    /// before accounts existed: off.
    public var openSignUp: StampedValue<Bool>?
    /// The address phones reach the club's server at ("" for none), set on /admin: check-in
    /// and invite links start with it. Absent in settings written before it existed.
    public var publicURL: StampedValue<String>?
    /// The club's currency (ISO 4217), absent before money: `Money.defaultCurrency`.
    public var currency: StampedValue<String>?
    /// Pot balances are shown to everyone (the TV, the pots' pages); absent: coaches only.
    public var publicPots: StampedValue<Bool>?

    public init(
        clubName: StampedValue<String>, tvPageSeconds: StampedValue<Int>, publicLeaderboards: StampedValue<Bool>,
        openSignUp: StampedValue<Bool>? = nil, publicURL: StampedValue<String>? = nil, currency: StampedValue<String>? = nil,
        publicPots: StampedValue<Bool>? = nil
    ) {
        self.clubName = clubName
        self.tvPageSeconds = tvPageSeconds
        self.publicLeaderboards = publicLeaderboards
        self.openSignUp = openSignUp
        self.publicURL = publicURL
        self.currency = currency
        self.publicPots = publicPots
    }

    public var currencyCode: String { currency?.value ?? Money.defaultCurrency }

    public var showsPots: Bool { publicPots?.value ?? false }

    /// The public address set on /admin, if any.
    public var publicAddress: String? { publicURL.flatMap { $0.value.isEmpty ? nil : $0.value } }

    public var allowsOpenSignUp: Bool { openSignUp?.value ?? false }

    public static func defaults(deviceID: UUID) -> ClubSettingsPayload {
        let zero = HLC(wallMillis: 0, counter: 0, deviceID: deviceID)
        return ClubSettingsPayload(
            clubName: StampedValue("Our club", hlc: zero), tvPageSeconds: StampedValue(10, hlc: zero),
            publicLeaderboards: StampedValue(true, hlc: zero))
    }

    public func merged(with other: ClubSettingsPayload) -> ClubSettingsPayload {
        ClubSettingsPayload(
            clubName: clubName.newer(other.clubName),
            tvPageSeconds: tvPageSeconds.newer(other.tvPageSeconds),
            publicLeaderboards: publicLeaderboards.newer(other.publicLeaderboards),
            openSignUp: Self.newer(openSignUp, other.openSignUp),
            publicURL: Self.newer(publicURL, other.publicURL),
            currency: Self.newer(currency, other.currency),
            publicPots: Self.newer(publicPots, other.publicPots)
        )
    }

    private static func newer<Value>(_ one: StampedValue<Value>?, _ other: StampedValue<Value>?) -> StampedValue<Value>? {
        guard let one else { return other }
        guard let other else { return one }
        return one.newer(other)
    }

    public var newest: HLC {
        [clubName.hlc, tvPageSeconds.hlc, publicLeaderboards.hlc, openSignUp?.hlc, publicURL?.hlc, currency?.hlc, publicPots?.hlc].compactMap { $0 }
            .max() ?? clubName.hlc
    }
}

// MARK: Declarations (`SyncedRecord`)

extension Player: SyncedRecord {
    public static let noun = "Player"
    public static let recordType = RecordType.player
    public static let merge = MergeRule.lastWriterWins
    public static let applyOrder = 1
    public static var removable: Bool { true }
    public var recordID: String { id.lowercasedText }
    public var recordVersion: HLC { updatedAt }
    public var recordPayload: PlayerPayload { PlayerPayload(self) }
    public static func value(_ payload: PlayerPayload, version: HLC) -> Player? { payload.player(updatedAt: version) }
}

extension Course: SyncedRecord {
    public static let noun = "Course"
    public static let recordType = RecordType.course
    public static let merge = MergeRule.lastWriterWins
    public static let applyOrder = 2
    public static var removable: Bool { true }
    public var recordID: String { id.lowercasedText }
    public var recordVersion: HLC { updatedAt }
    public var recordPayload: CoursePayload { CoursePayload(self) }
    public static func value(_ payload: CoursePayload, version: HLC) -> Course? {
        let course = payload.course(updatedAt: version)
        guard Course.holeCountRange.contains(course.holes.count), course.holes.allSatisfy({ Course.parRange.contains($0.par) }) else { return nil }
        return course
    }
}

extension Round: SyncedRecord {
    public static let noun = "Round"
    public static let recordType = RecordType.round
    public static let merge = MergeRule.lastWriterWins
    public static let applyOrder = 6
    public static var removable: Bool { true }
    public var recordID: String { id.lowercasedText }
    public var recordVersion: HLC { updatedAt }
    public var recordPayload: RoundPayload { RoundPayload(self) }
    public static func value(_ payload: RoundPayload, version: HLC) -> Round? { payload.round(updatedAt: version) }
}

extension ScoreEvent: SyncedRecord {
    public static let noun = "Score"
    public static let recordType = RecordType.scoreEvent
    public static let merge = MergeRule.insertOnly
    public static let applyOrder = 7
    public var recordID: String { id.lowercasedText }
    public var recordVersion: HLC { recordedAt }
    public var recordPayload: ScoreEventPayload { ScoreEventPayload(self) }
    public static func value(_ payload: ScoreEventPayload, version: HLC) -> ScoreEvent? { payload.event(recordedAt: version) }

    /// Nearly every record of a first sync: read by the plain-JSON reader when it can.
    public static func read(_ record: CloudRecord) throws(RecordUnreadable) -> ScoreEvent {
        guard let payload = ScoreEventPayload(plainJSON: record.payload) else { return try readDecoding(record) }
        guard let event = payload.event(recordedAt: record.hlc) else { throw .rules }
        guard event.id.lowercasedText == record.id else { throw .otherID(record.id) }
        return event
    }
}

extension Event: SyncedRecord {
    public static let noun = "Event"
    public static let recordType = RecordType.event
    public static let merge = MergeRule.lastWriterWins
    public static let applyOrder = 4
    public static var removable: Bool { true }
    public var recordID: String { id.lowercasedText }
    public var recordVersion: HLC { updatedAt }
    public var recordPayload: EventPayload { EventPayload(self) }
    public static func value(_ payload: EventPayload, version: HLC) -> Event? { payload.event(updatedAt: version) }
}

extension Season: SyncedRecord {
    public static let noun = "Season"
    public static let recordType = RecordType.season
    public static let merge = MergeRule.lastWriterWins
    public static let applyOrder = 3
    public static var removable: Bool { true }
    public var recordID: String { id.lowercasedText }
    public var recordVersion: HLC { updatedAt }
    public var recordPayload: SeasonPayload { SeasonPayload(self) }
    public static func value(_ payload: SeasonPayload, version: HLC) -> Season? { payload.season(updatedAt: version) }
}

extension Signature: SyncedRecord {
    public static let noun = "Signature"
    public static let recordType = RecordType.signature
    public static let merge = MergeRule.insertOnly
    public static let applyOrder = 8
    public var recordID: String { id.lowercasedText }
    public var recordVersion: HLC { signedAt }
    public var recordPayload: SignaturePayload { SignaturePayload(self) }
    public static func value(_ payload: SignaturePayload, version: HLC) -> Signature? { payload.signature(signedAt: version) }
}

extension ClubSettingsPayload: SyncedRecord {
    public static let noun = "Club settings"
    public static let recordType = RecordType.clubSettings
    public static let merge = MergeRule.fieldByField
    public static let applyOrder = 0
    public var recordID: String { Self.sentinelID }
    public var recordVersion: HLC { newest }
    public var recordPayload: ClubSettingsPayload { self }
    public static func value(_ payload: ClubSettingsPayload, version: HLC) -> ClubSettingsPayload? { payload }

    /// Field by field, each field's newer value: what either side set last stays.
    public static func merged(existing: CloudRecord, incoming: CloudRecord) -> CloudRecord? {
        // quiet: a side that does not decode leaves last-writer-wins on the whole record.
        guard let stored = try? RecordCoding.decode(ClubSettingsPayload.self, existing.payload),
            let offered = try? RecordCoding.decode(ClubSettingsPayload.self, incoming.payload)
        else { return incoming.hlc > existing.hlc ? incoming : nil }
        let merged = stored.merged(with: offered)
        guard merged != stored, let payload = try? RecordCoding.encode(merged) else { return nil }
        return CloudRecord(type: .clubSettings, id: incoming.id, hlc: merged.newest, payload: payload)
    }
}
