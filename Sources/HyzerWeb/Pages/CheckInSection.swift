import Foundation
import HyzerCore
import HyzerStore

/// A league night's check-in: the list, the night's fee count, and the forms.
struct CheckInSection: Sendable {
    struct Entry: Sendable {
        var playerID: String
        var displayName: String
        var handle: String
        var division: String
        var paid: Bool
        /// Their bag tag in the night's pools ("#3", or "#3 Club tags" with several), so the
        /// desk can confirm it.
        var tag: String?
        /// A coach may mark the fee and take anyone off; a player only themselves, before the night starts.
        var canUndo = false
        var canMarkFee = false
    }

    var eventID: String
    var summary: String
    var entries: [Entry]
    var hasEntries: Bool
    var divisions: [Option]
    /// The viewer's own form: their division chosen when known.
    var selfDivisions: [Option]
    var hasDivisions: Bool
    var canCheckInSelf: Bool
    var selfID: String
    var selfLabel: String
    var isCoach: Bool
    /// The club's players not checked in, for a coach to tick many at once.
    var players: [Choice]
    var hasPlayers: Bool
    /// The viewer's own division is not known: they choose it (no division is assumed).
    var selfDivisionUnknown: Bool
    /// "You're checked in", after a player's own check-in, while the list still has them.
    var checkedInNotice: String?

    /// A player a coach may tick: their division shown when known, asked for when not.
    struct Choice: Sendable {
        var id: String
        var name: String
        var known: String?
        var divisions: [Option]
        var chosen: Bool
        var paid: Bool
    }

    /// The night's check-in link works (a coach opened it, the night is not over): the page
    /// shows it with its QR code.
    var isOpen = false
    var canOpen = false
    var link = ""
    /// The link names this machine's own address (no --public-url): phones cannot open it.
    var linkWarning = false
    var signInLink: String?

    /// The night is over: nobody checks in any more (a coach still settles fees).
    var isOver = false
    /// The fee ledger, for coaches: "18:42 Cory Coach: Ann paid".
    var fees: [String] = []
    var hasFees = false

    init(
        event: Event, entries: [DomainStore.CheckInEntry], viewer: Identity?, players: [Player], known: [UUID: String] = [:], started: Bool = false,
        over: Bool = false, form: FormState = FormState()
    ) {
        isOver = over
        eventID = Format.id(event.id)
        let coach = viewer?.role.includes(.coach) == true
        self.entries = entries.map {
            var entry = Entry(
                playerID: Format.id($0.checkIn.playerID), displayName: $0.displayName, handle: $0.handle, division: $0.checkIn.division,
                paid: $0.checkIn.paid && CheckIn.showsFee(of: $0.checkIn.playerID, to: viewer))
            entry.canMarkFee = coach
            entry.canUndo = coach || (!started && $0.checkIn.playerID == viewer?.playerID)
            return entry
        }
        hasEntries = !entries.isEmpty
        let paid = entries.filter(\.checkIn.paid).count
        summary = "\(entries.count) checked in · \(paid) paid the entry fee"
        let mine = viewer.flatMap { me in entries.first { $0.checkIn.playerID == me.playerID } }
        let chosen = mine?.checkIn.division ?? viewer.flatMap { known[$0.playerID] } ?? ""
        selfDivisionUnknown = !event.divisions.contains(chosen)
        divisions = event.divisions.map { Option(value: $0, label: $0, selected: false) }
        selfDivisions =
            (selfDivisionUnknown ? [Option(value: "", label: "Choose your division", selected: true)] : [])
            + event.divisions.map { Option(value: $0, label: $0, selected: $0 == chosen) }
        hasDivisions = !event.divisions.isEmpty
        // Once the night has started, a player's division is a coach's to change.
        canCheckInSelf = viewer != nil && !over && !(started && mine != nil && !coach)
        selfID = viewer.map { Format.id($0.playerID) } ?? ""
        selfLabel = mine == nil ? "Check me in" : "Change my division"
        isCoach = viewer?.role.includes(.coach) == true
        let checkedIn = Set(entries.map(\.checkIn.playerID))
        self.players =
            isCoach
            ? players.filter { !checkedIn.contains($0.id) }.map { player in
                let id = Format.id(player.id)
                let asked = form.values["division.\(id)"] ?? ""
                return Choice(
                    id: id, name: player.displayName, known: known[player.id],
                    divisions: [Option(value: "", label: "Division…", selected: asked.isEmpty)]
                        + event.divisions.map { Option(value: $0, label: $0, selected: $0 == asked) },
                    chosen: form.values["chosen.\(id)"] != nil, paid: form.values["paid.\(id)"] != nil)
            } : []
        hasPlayers = !self.players.isEmpty
    }
}
