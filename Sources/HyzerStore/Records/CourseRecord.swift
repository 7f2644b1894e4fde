import Foundation
import GRDB
import HyzerCore

struct CourseRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "courses"
    var id: String
    var name: String
    var createdAt: Date
    var updatedAt: String
    var archived = false
}

extension CourseRecord {
    enum Columns {
        static let id = Column(CodingKeys.id)
        static let name = Column(CodingKeys.name)
        static let createdAt = Column(CodingKeys.createdAt)
        static let updatedAt = Column(CodingKeys.updatedAt)
        static let archived = Column(CodingKeys.archived)
    }
}

struct HoleRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "course_holes"
    var courseID: String
    var number: Int
    var par: Int
    var distance: Int?
}

extension HoleRecord {
    enum Columns {
        static let courseID = Column(CodingKeys.courseID)
        static let number = Column(CodingKeys.number)
        static let par = Column(CodingKeys.par)
        static let distance = Column(CodingKeys.distance)
    }
}

extension Course: StoredRecord {
    static let table = "courses"
    static let versionColumn = "updatedAt"

    static func stored(_ id: String, _ db: Database) throws -> Course? {
        try CourseRecord.fetchOne(db, key: id).map { try DomainStore.course($0, db) }
    }

    func apply(_ db: Database, into result: inout RemoteApplyResult) throws -> Bool {
        let id = recordID
        if try Self.isNotNewer(updatedAt, than: CourseRecord.fetchOne(db, key: id)?.updatedAt, db, id: id) { return false }
        try DomainStore.saveCourse(self, db)
        // Its rounds' boards show its holes and pars.
        try result.addRounds(where: RoundRecord.Columns.courseID == id, db)
        return true
    }
}
