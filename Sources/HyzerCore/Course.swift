import Foundation

public struct Hole: Hashable, Sendable, Codable {
    public var number: Int
    public var par: Int
    /// Metres from tee to basket, when the club has measured it.
    public var distance: Int?

    public init(number: Int, par: Int, distance: Int? = nil) {
        self.number = number
        self.par = par
        self.distance = distance
    }
}

public struct Course: Identifiable, Hashable, Sendable {
    public var id: UUID
    public var name: String
    public var holes: [Hole]
    public var createdAt: Date
    public var updatedAt: HLC
    /// Removed while rounds were played on it: those keep it, new rounds cannot choose it.
    public var archived = false

    public static let holeCountRange = 1...36
    public static let parRange = 2...8
    public static let distanceRange = 1...2000

    public init(id: UUID, name: String, holes: [Hole], createdAt: Date, updatedAt: HLC) {
        self.id = id
        self.name = name
        self.holes = holes
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    public var totalPar: Int { holes.reduce(0) { $0 + $1.par } }

    public func hole(_ number: Int) -> Hole? {
        holes.first { $0.number == number }
    }
}

/// The course forms: a name, a hole count, and either pars / distances as lists such as
/// "3 3 4 3" or "3,3,4,3" (blank pars mean par 3 everywhere, the common case: the new-course
/// form) or one par and one distance per hole (the edit page's table and the API, where a
/// blank distance is a hole not measured).
public struct CourseDraft: Sendable, Hashable {
    public var name: String?
    public var holeCount: String?
    public var pars: String?
    public var distances: String?
    public var holePars: [String]?
    public var holeDistances: [String]?

    public init(
        name: String? = nil, holeCount: String? = nil, pars: String? = nil, distances: String? = nil, holePars: [String]? = nil,
        holeDistances: [String]? = nil
    ) {
        self.name = name
        self.holeCount = holeCount
        self.pars = pars
        self.distances = distances
        self.holePars = holePars
        self.holeDistances = holeDistances
    }

    public struct Valid: Sendable, Hashable {
        public var name: String
        public var holes: [Hole]

        public init(name: String, holes: [Hole]) {
            self.name = name
            self.holes = holes
        }
    }

    public func validated() throws(FieldErrors) -> Valid {
        var errors = FieldErrors()
        let name = TextRules.name(self.name, field: "name", label: "Course name", maxLength: 80, into: &errors)

        let perHole = !(holePars ?? []).isEmpty
        let parList = perHole ? (holePars ?? []).map { TextRules.wholeNumber(TextRules.cleaned($0)) } : Self.numbers(pars)
        let typedDistances = perHole ? (holeDistances ?? []).map { TextRules.cleaned($0) } : []
        if let bad = typedDistances.firstIndex(where: { !$0.isEmpty && TextRules.wholeNumber($0).map(Course.distanceRange.contains) != true }) {
            errors.add(
                "distances",
                "Distance for hole \(bad + 1) must be a number of metres from \(Course.distanceRange.lowerBound) to \(Course.distanceRange.upperBound), or blank."
            )
        }
        let distanceList = perHole ? [] : Self.numbers(distances)
        let countText = TextRules.cleaned(holeCount)
        var count: Int
        if countText.isEmpty {
            count = parList.isEmpty ? 18 : parList.count
        } else if let parsed = TextRules.wholeNumber(countText) {
            count = parsed
        } else {
            errors.add("holeCount", "Number of holes must be a whole number.")
            count = 0
        }
        if !countText.isEmpty, Int(countText) != nil, !Course.holeCountRange.contains(count) {
            errors.add("holeCount", "A course has \(Course.holeCountRange.lowerBound) to \(Course.holeCountRange.upperBound) holes.")
        }

        var holes: [Hole] = []
        if Course.holeCountRange.contains(count) {
            if perHole {
                // A table of the old layout: a changed hole count adds par-3 holes or drops the last.
                if let bad = parList.prefix(count).firstIndex(where: { $0.map(Course.parRange.contains) != true }) {
                    errors.add(
                        "pars", "Par for hole \(bad + 1) must be a number from \(Course.parRange.lowerBound) to \(Course.parRange.upperBound).")
                }
            } else if !parList.isEmpty && parList.count != count {
                errors.add("pars", "Give one par per hole: \(count) expected, \(parList.count) given.")
            } else if let bad = parList.firstIndex(where: { $0.flatMap { Course.parRange.contains($0) ? $0 : nil } == nil }) {
                errors.add("pars", "Par for hole \(bad + 1) must be a number from \(Course.parRange.lowerBound) to \(Course.parRange.upperBound).")
            }
            if !distanceList.isEmpty && distanceList.count != count {
                errors.add("distances", "Give one distance per hole: \(count) expected, \(distanceList.count) given.")
            } else if let bad = distanceList.firstIndex(where: { $0.flatMap { Course.distanceRange.contains($0) ? $0 : nil } == nil }) {
                errors.add(
                    "distances",
                    "Distance for hole \(bad + 1) must be a number of metres from \(Course.distanceRange.lowerBound) to \(Course.distanceRange.upperBound)."
                )
            }
            try errors.throwIfAny()
            holes = (1...count).map { number in
                guard !perHole else {
                    let typed = number <= typedDistances.count ? typedDistances[number - 1] : ""
                    return Hole(number: number, par: number <= parList.count ? (parList[number - 1] ?? 3) : 3, distance: TextRules.wholeNumber(typed))
                }
                let par = parList.isEmpty ? 3 : (parList[number - 1] ?? 3)
                let distance = distanceList.isEmpty ? nil : distanceList[number - 1]
                return Hole(number: number, par: par, distance: distance)
            }
        }
        try errors.throwIfAny()
        return Valid(name: name, holes: holes)
    }

    /// Splits on commas and whitespace; an entry that is not a number stays as nil so the
    /// message can name its hole.
    static func numbers(_ text: String?) -> [Int?] {
        TextRules.cleaned(text)
            .split(whereSeparator: { $0 == "," || $0 == ";" || $0.isWhitespace })
            .map { TextRules.wholeNumber($0) }
    }
}
