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
    }
}
