/// How scores read on every page, the TV and the API's HTML fragments.
public enum ScoreFormat {
    /// "-2", "E", "+3": golf's way of writing a score against par.
    public static func toPar(_ value: Int) -> String {
        value == 0 ? "E" : (value > 0 ? "+\(value)" : "\(value)")
    }

    /// A CSS class for colouring a to-par value.
    public static func toParClass(_ value: Int) -> String {
        value < 0 ? "under" : (value > 0 ? "over" : "even")
    }

    /// "F" once every hole is scored, "–" before the first.
    public static func thru(_ holes: Int, of total: Int) -> String {
        holes == 0 ? "–" : (holes >= total ? "F" : String(holes))
    }

    /// A CSS class for one hole's result against its par.
    public static func holeClass(_ strokes: Strokes, par: Int) -> String {
        guard let count = strokes.count else { return "dnf" }
        switch count - par {
        case ...(-2): return "eagle"
        case -1: return "birdie"
        case 0: return "par"
        case 1: return "bogey"
        default: return "double"
        }
    }
}
