import Foundation

/// Results as tables (rows of text), for CSV out and in. The CSV format itself is the web
/// layer's (a CSV library); what the columns mean and how a row is read are rules, here.
public enum ResultsTable {
    /// The rows under the header that are not blank, each with its line in the file (blank
    /// rows count: an error names the line a spreadsheet shows).
    static func rows(of table: [[String]]) -> [(line: Int, row: [String])] {
        table.enumerated().dropFirst().filter { !$0.element.allSatisfy { $0.trimmingCharacters(in: .whitespaces).isEmpty } }
            .map { (line: $0.offset + 1, row: $0.element) }
    }

    // MARK: Out

    /// A round: position, name, handle, division, every hole, total, to par, holes played, and
    /// the round rating and player rating when ratings are given (blank where there is none).
    public static func round(_ board: RoundBoard, ratings: (round: [UUID: Int], players: [UUID: Int])? = nil) -> [[String]] {
        let holes = board.snapshot.course.holes
        // A putting round's lies are its holes; its total is the putts made, ranked by points.
        let putting = board.snapshot.round.format == .putting
        var rows = [
            ["Position", "Name", "Handle", "Division"] + holes.map { String($0.number) } + ["Total", putting ? "Points" : "To par", "Thru"]
                + (ratings == nil ? [] : ["Round rating", "Player rating"])
        ]
        // With divisions, each division in turn with its own positions, as the boards show them.
        let entries =
            board.standings.divisions.isEmpty
            ? board.standings.entries
            : board.standings.divisions.flatMap(\.entries) + board.standings.entries.filter(\.division.isEmpty)
        for entry in entries {
            let cells = holes.map { hole in board.scores[entry.playerID, hole.number].map { $0.winner.score.map(String.init) ?? "DNF" } ?? "" }
            rows.append(
                [entry.position, entry.displayName, entry.handle, entry.division] + cells
                    + [
                        entry.thru == 0 ? "" : String(entry.strokes),
                        entry.dnf ? "DNF" : (entry.thru == 0 ? "" : entry.points.map(String.init) ?? ScoreFormat.toPar(entry.toPar)),
                        String(entry.thru),
                    ]
                    + (ratings.map { [$0.round[entry.playerID].map(String.init) ?? "", $0.players[entry.playerID].map(String.init) ?? ""] } ?? []))
        }
        return rows
    }

    /// An event: each division's players in order, with every round's strokes.
    public static func event(_ standings: EventStandings, roundNames: [String]) -> [[String]] {
        var rows = [["Position", "Name", "Handle", "Division"] + roundNames + ["Total", "To par", "Playoff"]]
        for division in standings.divisions {
            for entry in division.entries {
                let rounds = entry.rounds.map { result -> String in
                    guard let result, result.thru > 0 else { return "" }
                    return result.dnf ? "DNF" : String(result.strokes)
                }
                rows.append(
                    [entry.position, entry.displayName, entry.handle, entry.division] + rounds
                        + [
                            entry.holesPlayed == 0 ? "" : String(entry.total),
                            entry.dnf ? "DNF" : (entry.holesPlayed == 0 ? "" : ScoreFormat.toPar(entry.toPar)),
                            entry.playoff?.rawValue ?? "",
                        ])
            }
        }
        return rows
    }

    /// A season's table: one row per player and division, each night's points ("" where they
    /// did not play, in brackets where the night does not count), then the total.
    public static func season(_ standings: SeasonStandings, nights: [(id: UUID, name: String)]) -> [[String]] {
        var rows = [["Position", "Name", "Division"] + nights.map(\.name) + ["Points", "Nights counted"]]
        for division in standings.divisions {
            for entry in division.entries {
                let byNight = Dictionary(uniqueKeysWithValues: entry.nights.map { ($0.eventID, $0) })
                let cells = nights.map { night -> String in
                    guard let played = byNight[night.id] else { return "" }
                    return played.counted ? String(played.points) : "(\(played.points))"
                }
                rows.append([entry.position, entry.displayName, division.name] + cells + [String(entry.points), String(entry.nightsCounted)])
            }
        }
        return rows
    }

    // MARK: In

    public static let maxRows = 500

    /// A player list: a header naming `name` and `handle` (and optionally `role`, a PDGA
    /// number, an email, a rating and a usual division, under the names clubs' sheets use, in
    /// any case), one player per row. Other columns are named in `ignored`, not refused. Every
    /// row is checked; nothing is valid unless all are.
    public static func players(_ table: [[String]]) throws(FieldErrors) -> PlayerTable {
        var errors = FieldErrors()
        guard let header = table.first?.map(normalized) else {
            throw FieldErrors("csv", "The file is empty: send a header row (name,handle) and one player per row.")
        }
        func column(_ names: [String]) -> Int? { header.firstIndex(where: names.contains) }
        guard let name = column(PlayerTable.nameColumns), let handle = column(PlayerTable.handleColumns) else {
            throw FieldErrors(
                "csv", "The header row must name the columns name and handle (and optionally role, pdga number, email, rating, division).")
        }
        let role = column(["role"])
        let pdga = column(PlayerTable.pdgaColumns)
        let email = column(PlayerTable.emailColumns)
        let rating = column(PlayerTable.ratingColumns)
        let division = column(PlayerTable.divisionColumns)
        let known = Set([name, handle, role, pdga, email, rating, division].compactMap { $0 })
        let ignored = table[0].enumerated().filter { !known.contains($0.offset) && !normalized($0.element).isEmpty }.map {
            $0.element.trimmingCharacters(in: .whitespaces)
        }
        let body = rows(of: table)
        if body.count > maxRows { throw FieldErrors("csv", "At most \(maxRows) players at once.") }
        var result: [PlayerTable.Row] = []
        var handles: Set<String> = []
        for (line, row) in body {
            func cell(_ index: Int?) -> String? { index.flatMap { $0 < row.count ? row[$0] : nil } }
            var lineErrors = FieldErrors()
            var imported: PlayerTable.Row?
            do {
                let valid = try PlayerDraft(
                    displayName: cell(name), handle: cell(handle), role: cell(role).flatMap { $0.isEmpty ? nil : $0 } ?? Role.athlete.rawValue
                ).validated()
                imported = PlayerTable.Row(valid: valid)
            } catch { lineErrors.merge(error) }
            do { imported?.pdgaNumber = try Player.validPDGANumber(text: cell(pdga)) } catch { lineErrors.merge(error) }
            do { imported?.email = try Player.validEmail(text: cell(email)) } catch { lineErrors.merge(error) }
            do { imported?.rating = try Player.validRating(text: cell(rating)) } catch { lineErrors.merge(error) }
            do {
                let usual = try Division.usual(cell(division))
                imported?.division = usual.isEmpty ? nil : usual
            } catch { lineErrors.merge(error) }
            for entry in lineErrors.entries { errors.add("csv", "Line \(line): \(entry.message)") }
            guard lineErrors.isEmpty, let imported else { continue }
            if !handles.insert(imported.valid.handle.value).inserted {
                errors.add("csv", "Line \(line): @\(imported.valid.handle.value) is listed twice.")
            }
            result.append(imported)
        }
        if result.isEmpty && errors.isEmpty { errors.add("csv", "The file has a header but no players.") }
        try errors.throwIfAny()
        return PlayerTable(rows: result, ignored: ignored)
    }

    /// A round's hole-by-hole results: a header with a player column (`handle`, `name` or
    /// `playerID`) and one column per hole number; other columns (position, total…) are
    /// ignored. A cell is the hole's score, `DNF`, or blank (not played).
    public static func results(_ table: [[String]], round: Round, course: Course, players: [Player]) throws(FieldErrors) -> [ScoreSubmission] {
        var errors = FieldErrors()
        guard let header = table.first?.map(normalized) else {
            throw FieldErrors("csv", "The file is empty: send a header row and one player per row.")
        }
        guard let key = ["playerid", "handle", "name"].compactMap({ header.firstIndex(of: $0).map { (column: $0, kind: header[$0]) } }).first else {
            throw FieldErrors("csv", "The header row must have a column playerID, handle or name to say whose scores each row holds.")
        }
        let numbered = header.enumerated().compactMap { index, title in Int(title).map { (index, $0) } }
        let offCourse = numbered.map(\.1).filter { course.hole($0) == nil }
        if !offCourse.isEmpty {
            errors.add(
                "csv",
                "Column\(offCourse.count == 1 ? "" : "s") \(offCourse.map(String.init).joined(separator: ", ")) \(offCourse.count == 1 ? "is not a hole" : "are not holes") of \(course.name) (1–\(course.holes.count)): nothing would be imported from \(offCourse.count == 1 ? "it" : "them")."
            )
        }
        let repeated = Dictionary(grouping: numbered.map(\.1), by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
        if !repeated.isEmpty { errors.add("csv", "Hole \(repeated.map(String.init).joined(separator: ", ")) has more than one column.") }
        let holeColumns = numbered.filter { course.hole($0.1) != nil }
        if holeColumns.isEmpty { throw FieldErrors("csv", "No column is a hole of \(course.name) (1–\(course.holes.count)).") }
        let inRound = players.filter { round.playerIDs.contains($0.id) }
        var submissions: [ScoreSubmission] = []
        var seen: Set<UUID> = []
        let body = rows(of: table)
        if body.count > maxRows { throw FieldErrors("csv", "At most \(maxRows) rows at once.") }
        for (line, row) in body {
            let who = key.column < row.count ? TextRules.cleaned(row[key.column]) : ""
            let matches = inRound.filter { player in
                switch key.kind {
                case "playerid": player.id.lowercasedText == who.lowercased()
                case "handle": player.handle.value == who.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "@"))
                default: player.displayName.caseInsensitiveCompare(who) == .orderedSame
                }
            }
            guard matches.count == 1, let player = matches.first else {
                errors.add(
                    "csv",
                    "Line \(line): \(who.isEmpty ? "no player named" : "\"\(who.prefix(60))\" is \(matches.isEmpty ? "not a player of this round" : "more than one player of this round")")."
                )
                continue
            }
            if !seen.insert(player.id).inserted { errors.add("csv", "Line \(line): \(player.displayName) has a second row.") }
            for (column, hole) in holeColumns where column < row.count {
                let text = TextRules.cleaned(row[column])
                if text.isEmpty { continue }
                switch Strokes.parse(text) {
                case .success(let strokes): submissions.append(ScoreSubmission(playerID: player.id, hole: hole, strokes: strokes))
                case .failure(let problem): errors.add("csv", "Line \(line), hole \(hole): \(problem.summary)")
                }
            }
        }
        try errors.throwIfAny()
        return submissions
    }

    static func normalized(_ title: String) -> String {
        // A spreadsheet's "CSV UTF-8" starts with a byte-order mark.
        title.replacingOccurrences(of: "\u{FEFF}", with: "").trimmingCharacters(in: .whitespacesAndNewlines).lowercased().replacingOccurrences(
            of: " ", with: "")
    }
}
