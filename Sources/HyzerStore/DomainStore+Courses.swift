import Foundation
import GRDB
import HyzerCore

// Courses: creating, reading and editing them.
extension DomainStore {
    public func createCourse(_ valid: CourseDraft.Valid) async throws -> Course {
        let course = Course(id: UUID(), name: valid.name, holes: valid.holes, createdAt: now(), updatedAt: tick())
        return try await write(queueing: { [(.course, $0.id.text, $0.updatedAt)] }) { db in
            try Self.saveCourse(course, db)
            return course
        }
    }

    public func courses() async throws -> [Course] {
        try await pool.read { db in
            try CourseRecord.filter(CourseRecord.Columns.archived == false).order(
                CourseRecord.Columns.name.collating(.localizedCaseInsensitiveCompare)
            ).fetchAll(db).map {
                try Self.course($0, db)
            }
        }
    }

    /// One course, archived or not.
    public func course(_ id: UUID) async throws -> Course {
        try await pool.read { db in
            guard let record = try CourseRecord.fetchOne(db, key: id.text) else { throw StoreError.notFound("Course") }
            return try Self.course(record, db)
        }
    }

    static func course(_ record: CourseRecord, _ db: Database) throws -> Course {
        let holes = try HoleRecord.filter(HoleRecord.Columns.courseID == record.id).order(HoleRecord.Columns.number).fetchAll(db)
        var course = Course(
            id: try StoredValue.uuid(record.id, "courses.id"), name: record.name,
            holes: holes.map { Hole(number: $0.number, par: $0.par, distance: $0.distance) },
            createdAt: record.createdAt, updatedAt: try StoredValue.hlc(record.updatedAt, "courses.updatedAt")
        )
        course.archived = record.archived
        return course
    }

    /// Changes a course's name, pars or distances. A corrected par or distance applies to every
    /// round played on the course (it was a mistake, not a new layout); the number of holes can
    /// change only while no round on the course has a score (otherwise make a new course).
    public func editCourse(_ id: UUID, name: String?, holes: [Hole]?, actor: UUID?) async throws -> Course {
        let stamp = tick()
        let moment = now()
        return try await write(queueing: { [(.course, $0.id.text, $0.updatedAt)] }) { db in
            guard let record = try CourseRecord.fetchOne(db, key: id.text), !record.archived else { throw StoreError.notFound("Course") }
            var course = try Self.course(record, db)
            var changes: [String] = []
            if let name, name != course.name {
                changes.append("name “\(course.name)” → “\(name)”")
                course.name = name
            }
            if let holes, holes != course.holes {
                if holes.map(\.number) != course.holes.map(\.number) {
                    let scored =
                        try Int.fetchOne(
                            db,
                            sql: """
                                SELECT COUNT(*) FROM score_events WHERE roundID IN (SELECT id FROM rounds WHERE courseID = ?)
                                """, arguments: [id.text]) ?? 0
                    if scored > 0 {
                        throw LeagueRejection.conflict(
                            """
                            Rounds on \(course.name) have scores for its \(course.holes.count) holes: its pars and distances can be corrected, \
                            but not its number of holes. Make a new course for the new layout.
                            """)
                    }
                    let numbers = Set(holes.map(\.number))
                    let cards = try Row.fetchAll(db, sql: "SELECT id, cards FROM rounds WHERE courseID = ?", arguments: [id.text])
                        .flatMap { try StoredValue.json($0["cards"], [Card].self, "rounds.cards", of: $0["id"]) }
                    if let card = cards.first(where: { !numbers.contains($0.startingHole) }) {
                        throw LeagueRejection.conflict(
                            "\(card.name) of a round on \(course.name) starts on hole \(card.startingHole): change its cards before the number of holes."
                        )
                    }
                    changes.append("\(course.holes.count) → \(holes.count) holes")
                }
                let parChanges = zip(course.holes, holes).filter { $0.par != $1.par }.map { "hole \($0.number) par \($0.par) → \($1.par)" }
                changes += parChanges
                if parChanges.isEmpty && holes.count == course.holes.count && zip(course.holes, holes).contains(where: { $0.distance != $1.distance })
                {
                    changes.append("distances")
                }
                course.holes = holes
            }
            course.updatedAt = stamp
            try Self.saveCourse(course, db)
            // Every board on the course shows the corrected pars.
            try db.execute(sql: "UPDATE rounds SET version = version + 1 WHERE courseID = ?", arguments: [id.text])
            if !changes.isEmpty { try Self.audit(.course, id, actor: actor, at: moment, changes.joined(separator: ", "), db) }
            return course
        }
    }

    static func saveCourse(_ course: Course, _ db: Database) throws {
        let id = course.id.text
        try CourseRecord(id: id, name: course.name, createdAt: course.createdAt, updatedAt: course.updatedAt.description, archived: course.archived)
            .save(db)
        try db.execute(sql: "DELETE FROM course_holes WHERE courseID = ?", arguments: [id])
        for hole in course.holes {
            try HoleRecord(courseID: id, number: hole.number, par: hole.par, distance: hole.distance).insert(db)
        }
    }
}
