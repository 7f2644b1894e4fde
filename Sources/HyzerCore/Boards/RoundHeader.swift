import Foundation

/// A round's name, course and state as every round page's heading shows them.
public struct RoundHeader: Sendable {
    public var id: String
    public var name: String
    public var courseName: String
    public var status: String
    public var isScheduled: Bool
    public var isActive: Bool
    public var isCompleted: Bool
    public var holeCount: Int
    public var totalPar: Int
    public var started: String?
    /// "18 holes · par 54", or on a putting round "12 lies · 72 points at most"; and its par
    /// part alone.
    public var measure: String
    public var parText: String

    public init(_ snapshot: RoundSnapshot) {
        id = Format.id(snapshot.round.id)
        name = snapshot.round.name
        courseName = snapshot.course.name
        status = snapshot.round.status.rawValue
        isScheduled = snapshot.round.status == .scheduled
        isActive = snapshot.round.status == .active
        isCompleted = snapshot.round.status == .completed
        holeCount = snapshot.course.holes.count
        totalPar = snapshot.course.totalPar
        started = snapshot.round.startedAt.map { Format.date($0) }
        if let putting = snapshot.round.format == .putting ? snapshot.round.putting : nil {
            parText = "\(putting.maxPoints) points at most"
            measure = "\(putting.lies.count) lies · \(parText)"
        } else {
            parText = "par \(totalPar)"
            measure = "\(holeCount) holes · \(parText)"
        }
    }
}
