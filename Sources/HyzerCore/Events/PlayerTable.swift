import Foundation

/// A player list read from a club's sheet (`ResultsTable.players`): each row's player, with
/// what else the sheet knew of them, and the columns it had that Hyzer does not keep.
public struct PlayerTable: Sendable, Hashable {
    public struct Row: Sendable, Hashable {
        public var valid: PlayerDraft.Valid
        public var pdgaNumber: Int?
        public var email: String?
        public var rating: Int?
        /// A usual division; nil when the sheet had none for them.
        public var division: String?

        public init(valid: PlayerDraft.Valid, pdgaNumber: Int? = nil, email: String? = nil, rating: Int? = nil, division: String? = nil) {
            self.valid = valid
            self.pdgaNumber = pdgaNumber
            self.email = email
            self.rating = rating
            self.division = division
        }
    }

    public var rows: [Row]
    /// Header names of columns that were not read (named in a warning, not refused).
    public var ignored: [String]

    public init(rows: [Row], ignored: [String] = []) {
        self.rows = rows
        self.ignored = ignored
    }

    // Header names as `ResultsTable.normalized` makes them (lower case, no spaces).
    static let nameColumns = ["name", "displayname", "playername", "fullname"]
    static let handleColumns = ["handle", "username", "user"]
    static let pdgaColumns = ["pdga", "pdganumber", "pdga#", "pdgano", "pdgano.", "pdganum", "pdgaid"]
    static let emailColumns = ["email", "e-mail", "emailaddress", "mail"]
    static let ratingColumns = ["rating", "pdgarating", "playerrating"]
    static let divisionColumns = ["division", "div", "usualdivision"]
}
