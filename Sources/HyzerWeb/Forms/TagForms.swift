import Foundation
import HyzerCore

/// The new-pool form: `tags` is a count or the numbers.
struct TagPoolForm: Decodable, Sendable {
    var name: String?
    var tags: String?
    var seasonID: String?

    var values: [String: String] { ["name": name ?? "", "tags": tags ?? "", "seasonID": seasonID ?? ""] }

    /// "20" is a count; "1, 2, 5" (commas or spaces) lists the numbers.
    func numbers() throws(FieldErrors) -> (count: Int?, listed: [Int]?) {
        let parts = (tags ?? "").split { $0 == "," || $0 == " " }
        guard !parts.isEmpty else { throw FieldErrors("tags", "Give the number of tags, or their numbers.") }
        var numbers: [Int] = []
        for part in parts {
            guard let number = Int(part) else { throw FieldErrors("tags", "“\(part.prefix(20))” is not a whole number.") }
            numbers.append(number)
        }
        return numbers.count == 1 ? (numbers[0], nil) : (nil, numbers)
    }
}

struct TagMoveForm: Decodable, Sendable {
    var kind: String?
    var tag: String?
    var playerID: String?
    var playerA: String?
    var playerB: String?

    func move() throws(FieldErrors) -> TagMove.Kind {
        if let tag, !tag.isEmpty, Int(tag) == nil { throw FieldErrors("tag", "The tag is a number, like 7.") }
        let body = TagMoveBody(
            kind: kind ?? "", tag: tag.flatMap { Int($0) }, playerID: playerID,
            playerIDs: kind == "trade" ? [playerA ?? "", playerB ?? ""] : nil)
        return try body.move()
    }
}

/// A challenge issued from the pool's page: a coach names the challenger, a holder is one.
struct TagChallengeForm: Decodable, Sendable {
    var challengerID: String?
    var challengedID: String?
    var days: String?
}

/// Accept (on a course), decline or withdraw.
struct TagAnswerForm: Decodable, Sendable {
    var answer: String?
    var courseID: String?
}
