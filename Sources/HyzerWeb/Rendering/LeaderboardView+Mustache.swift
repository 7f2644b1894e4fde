import HyzerCore
import Mustache

// The leaderboard is rendered after every change, for every live stream, page and TV, and is
// the largest template by far. Without these, the template library finds each value by
// reflection: a `Mirror` of the whole value, every field boxed, per lookup (about half a
// millisecond for a 2 KB board on this machine). Names are the templates' own.

extension LeaderboardView: MustacheParent {
    public func child(named name: String) -> Any? {
        switch name {
        case "roundID": roundID
        case "roundName": roundName
        case "courseName": courseName
        case "status": status
        case "version": version
        case "rows": rows
        case "divisions": divisions
        case "hasDivisions": hasDivisions
        case "conflictCount": conflictCount
        case "hasConflicts": hasConflicts
        case "isCompleted": isCompleted
        case "hasNet": hasNet
        case "scoreHeading": scoreHeading
        case "countHeading": countHeading
        case "hasMulligans": hasMulligans
        default: nil
        }
    }
}

extension LeaderboardView.Row: MustacheParent {
    public func child(named name: String) -> Any? {
        switch name {
        case "position": position
        case "playerID": playerID
        case "displayName": displayName
        case "handle": handle
        case "toPar": toPar
        case "toParClass": toParClass
        case "thru": thru
        case "strokes": strokes
        case "dnf": dnf
        case "signed": signed
        case "link": link
        case "handleText": handleText
        case "handicap": handicap
        case "net": net
        case "netClass": netClass
        case "netPosition": netPosition
        case "mulligans": mulligans
        // The count's cell, and on a mulligan night the Mulligans cell after it, in one value:
        // each value a row looks up costs more than the rest of its rendering (a board is
        // rendered for every change), and a section per row as much again. Both texts are
        // digits, "–" and "of" made here: nothing to escape.
        case "countCells":
            mulligans.isEmpty
                ? "<td class=\"strokes\">\(strokes)</td>" : "<td class=\"strokes\">\(strokes)</td><td class=\"mulligans\">\(mulligans)</td>"
        default: nil
        }
    }
}

extension LeaderboardView.Division: MustacheParent {
    public func child(named name: String) -> Any? {
        switch name {
        case "name": self.name
        case "rows": rows
        default: nil
        }
    }
}
