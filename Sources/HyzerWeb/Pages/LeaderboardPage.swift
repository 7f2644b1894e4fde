import Foundation
import HyzerCore
import HyzerStore

struct LeaderboardPage: Sendable {
    var title: String
    var round: RoundHeader
    var leaderboard: LeaderboardView

    var division: String
    var filters: [Option]
    var hasFilters: Bool
    /// A tag round's tags in play, or exchanged once it is completed.
    var tags: TagRoundView?

    /// `division` shows one division alone (the live stream keeps to it too).
    init(board: RoundBoard, division: String? = nil) {
        title = "Leaderboard · \(board.snapshot.round.name)"
        round = board.header
        let whole = board.leaderboard
        let chosen = whole.divisions.contains { $0.name == division } ? division ?? "" : ""
        self.division = chosen
        leaderboard = chosen.isEmpty ? whole : whole.only(chosen)
        filters =
            [Option(value: "", label: "All", selected: chosen.isEmpty)]
            + whole.divisions.map { Option(value: Self.query($0.name), label: $0.name, selected: $0.name == chosen) }
        hasFilters = whole.hasDivisions
    }

    /// A division name as a query value ("Am+2" must not read as "Am 2").
    static func query(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
