import Foundation

// The HTML forms' fields, decoded by Hummingbird's URLEncodedFormDecoder. Every field is
// optional text: the domain's drafts check the values, so a missing or odd field is shown
// again beside the form (422), never a decoding error.

struct ScoreForm: Decodable, Sendable {
    var id: String?
    var playerID: String?
    var hole: String?
    var strokes: String?
    var supersedes: String?
    var penalties: String?

    var values: [String: String] {
        ["playerID": playerID ?? "", "hole": hole ?? "", "strokes": strokes ?? "", "penalties": penalties ?? ""]
    }
}

struct CourseForm: Decodable, Sendable {
    var name: String?
    var holeCount: String?
    var pars: String?
    var distances: String?

    var values: [String: String] {
        ["name": name ?? "", "holeCount": holeCount ?? "", "pars": pars ?? "", "distances": distances ?? ""]
    }
}

struct PlayerForm: Decodable, Sendable {
    var displayName: String?
    var handle: String?
    var role: String?

    var values: [String: String] {
        ["displayName": displayName ?? "", "handle": handle ?? "", "role": role ?? ""]
    }
}

struct RoundForm: Decodable, Sendable {
    var name: String?
    var courseID: String?
    /// Checkboxes named `playerIDs[]`.
    var playerIDs: [String]?
    /// A checkbox: present when ticked.
    var startNow: String?
    var eventID: String?
    /// `divisions[PLAYER_ID]`: each player's division in an event with divisions.
    var divisions: [String: String]?

    var values: [String: String] {
        ["name": name ?? "", "courseID": courseID ?? "", "eventID": eventID ?? ""]
    }
}

struct RetryForm: Decodable, Sendable {
    var type: String?
    var id: String?
}

struct SignInForm: Decodable, Sendable {
    var handle: String?
    var password: String?
    var next: String?
}

/// Setup, join and claim: who the new account is and its password.
struct AccountForm: Decodable, Sendable {
    var token: String?
    var invite: String?
    var displayName: String?
    var handle: String?
    var password: String?

    var values: [String: String] {
        ["displayName": displayName ?? "", "handle": handle ?? ""]
    }
}

struct InviteForm: Decodable, Sendable {
    var role: String?
    var playerID: String?
}

struct RoleForm: Decodable, Sendable {
    var role: String?
}

struct SettingsForm: Decodable, Sendable {
    var clubName: String?
    var tvPageSeconds: String?
    var publicLeaderboards: String?
    var openSignUp: String?
}

/// A card's hole: `strokes[PLAYER_ID]` and `penalties[PLAYER_ID]` for each player of the card.
struct CardHoleForm: Decodable, Sendable {
    var strokes: [String: String]?
    var penalties: [String: String]?
}

struct SignForm: Decodable, Sendable {
    var playerID: String?
    var cardID: String?
}

struct EventForm: Decodable, Sendable {
    var name: String?
    /// "MPO, FPO, MA1" or one per line.
    var divisions: String?

    var values: [String: String] {
        ["name": name ?? "", "divisions": divisions ?? ""]
    }
}

struct PlayoffForm: Decodable, Sendable {
    var division: String?
    var winner: String?
}

struct CardPlanForm: Decodable, Sendable {
    /// A checkbox: present for a shotgun start, absent for tee times from the first hole.
    var shotgun: String?
}

/// The card editor: `card[PLAYER_ID]` = the card number of each player (blank: no card),
/// `start[card-N]` = card N's starting hole (a numeric key would read as an array index).
struct CardEditForm: Decodable, Sendable {
    var card: [String: String]?
    var start: [String: String]?
}
