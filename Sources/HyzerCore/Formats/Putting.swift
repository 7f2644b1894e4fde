import Foundation

/// A putting league's layout: every player putts `putts` times from each distance of each
/// station, and scores the distance's points for every putt made. Each station and distance
/// is one "lie", numbered like holes (station 1's distances first), so a putting round's
/// scores are ordinary score events: the lie as the hole, the putts made as the count.
public struct PuttingSetup: Codable, Hashable, Sendable {
    public struct Distance: Codable, Hashable, Sendable {
        public var feet: Int
        public var points: Int

        public init(feet: Int, points: Int) {
            self.feet = feet
            self.points = points
        }
    }

    /// One station at one distance: what a putting round has in place of a hole.
    public struct Lie: Hashable, Sendable, Encodable {
        public var number: Int
        public var station: Int
        public var feet: Int
        public var points: Int

        public var label: String { "Station \(station) · \(feet) ft" }
    }

    public var stations: Int
    public var distances: [Distance]
    public var putts: Int

    public static let stationRange = 1...18
    public static let distanceCount = 1...6
    public static let feetRange = 3...99
    public static let pointsRange = 1...10
    public static let puttRange = 1...10
    public static let maxLies = 36

    public init(stations: Int, distances: [Distance], putts: Int) {
        self.stations = stations
        self.distances = distances
        self.putts = putts
    }

    public var lies: [Lie] {
        (1...max(1, stations)).flatMap { station in
            distances.enumerated().map { offset, distance in
                Lie(number: (station - 1) * distances.count + offset + 1, station: station, feet: distance.feet, points: distance.points)
            }
        }
    }

    /// A layout as a form types it: "4", "15:1, 25:2, 33:3" (feet:points; feet alone is one
    /// point), "3". What does not read is kept as 0, for `validated` to name.
    public init(text: (stations: String, distances: String, putts: String)) {
        stations = TextRules.wholeNumber(TextRules.cleaned(text.stations)) ?? 0
        putts = TextRules.wholeNumber(TextRules.cleaned(text.putts)) ?? 0
        distances = text.distances.split(separator: ",").map { item in
            let parts = item.split(separator: ":", omittingEmptySubsequences: false).map { TextRules.wholeNumber(TextRules.cleaned(String($0))) }
            return Distance(feet: parts.first.flatMap { $0 } ?? 0, points: parts.count == 1 ? 1 : (parts.count == 2 ? parts[1] ?? 0 : 0))
        }
    }

    public func lie(_ number: Int) -> Lie? {
        guard !distances.isEmpty, number >= 1, number <= stations * distances.count else { return nil }
        let distance = distances[(number - 1) % distances.count]
        return Lie(number: number, station: (number - 1) / distances.count + 1, feet: distance.feet, points: distance.points)
    }

    /// The most a player can score: every putt made.
    public var maxPoints: Int { stations * putts * distances.reduce(0) { $0 + $1.points } }

    /// The lies as the holes of a course, so score entry, cards and boards find them.
    public func course(named name: String, id: UUID, createdAt: Date, updatedAt: HLC) -> Course {
        Course(id: id, name: name, holes: lies.map { Hole(number: $0.number, par: 0, distance: $0.feet) }, createdAt: createdAt, updatedAt: updatedAt)
    }

    /// Points for `made` putts at lie `number`; nil when the lie is not in the layout.
    public func points(made: Int, at number: Int) -> Int? {
        lie(number).map { made * $0.points }
    }

    /// Checks a layout sent by a client: every reason at once, under `putting.*` fields.
    public static func validated(_ draft: PuttingSetup?) throws(FieldErrors) -> PuttingSetup {
        var errors = FieldErrors()
        guard let draft else {
            throw FieldErrors(
                "putting", "A putting round needs its layout: \"putting\": {\"stations\", \"distances\": [{\"feet\", \"points\"}], \"putts\"}.")
        }
        if !stationRange.contains(draft.stations) {
            errors.add("putting.stations", "Stations must be from \(stationRange.lowerBound) to \(stationRange.upperBound).")
        }
        if !puttRange.contains(draft.putts) {
            errors.add("putting.putts", "Putts from each distance must be from \(puttRange.lowerBound) to \(puttRange.upperBound).")
        }
        if !distanceCount.contains(draft.distances.count) {
            errors.add("putting.distances", "Give from \(distanceCount.lowerBound) to \(distanceCount.upperBound) distances.")
        }
        if draft.distances.contains(where: { !feetRange.contains($0.feet) }) {
            errors.add("putting.distances", "Each distance must be from \(feetRange.lowerBound) to \(feetRange.upperBound) feet.")
        }
        if draft.distances.contains(where: { !pointsRange.contains($0.points) }) {
            errors.add("putting.distances", "Each distance's points must be from \(pointsRange.lowerBound) to \(pointsRange.upperBound).")
        }
        if draft.stations * draft.distances.count > maxLies {
            errors.add("putting.stations", "A putting round has at most \(maxLies) lies (stations × distances), as a course has holes.")
        }
        if Set(draft.distances.map(\.feet)).count != draft.distances.count {
            errors.add("putting.distances", "Each distance is given once.")
        }
        if !errors.isEmpty { throw errors }
        return draft
    }
}
