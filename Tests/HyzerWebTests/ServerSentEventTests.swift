import HyzerCore
import Testing

@testable import HyzerWeb

/// Live frames as the EventSource format reads them: every line break of the data starts a
/// `data:` line (a client joins them back with newlines), and a rendered fragment loses its
/// indentation and blank lines, nothing else.
@Suite struct ServerSentEventTests {
    @Test func eachLineOfTheDataIsADataLine() {
        #expect(
            ServerSentEvent.encode(event: "standings", id: "7", data: "<p>one</p>\n<p>two</p>")
                == "event: standings\nid: 7\ndata: <p>one</p>\ndata: <p>two</p>\n\n")
        #expect(ServerSentEvent.encode(event: "tv", id: "1", data: "") == "event: tv\nid: 1\ndata: \n\n")
        // A trailing break is an empty last line, as a client would read it.
        #expect(ServerSentEvent.encode(event: "tv", id: "1", data: "a\n") == "event: tv\nid: 1\ndata: a\ndata: \n\n")
    }

    @Test func carriageReturnsEndLinesTooAndNeverReachTheStream() {
        // CR LF and a lone CR end a line in the EventSource format: left inside a data line,
        // the client would read the rest as a field of its own.
        let frame = ServerSentEvent.encode(event: "e", id: "2", data: "a\r\nb\rc\n\nd")
        #expect(frame == "event: e\nid: 2\ndata: a\ndata: b\ndata: c\ndata: \ndata: d\n\n")
        #expect(!frame.utf8.contains(UInt8(ascii: "\r")))
    }

    @Test func textBeyondASCIIPassesUnchanged() {
        let data = "Åsa Öberg — 3 ↓\nJosé"
        #expect(ServerSentEvent.encode(event: "e", id: "3", data: data) == "event: e\nid: 3\ndata: Åsa Öberg — 3 ↓\ndata: José\n\n")
        #expect(ServerSentEvent.compactHTML("  <td>Åsa — 3</td>\n") == "<td>Åsa — 3</td>")
    }

    @Test func aFragmentLosesItsIndentationAndBlankLinesOnly() {
        let html = "<table>\n    <tr>\n\t\t<td>a  b</td>\n\n   \n  </tr>\r\n</table>\n"
        #expect(ServerSentEvent.compactHTML(html) == "<table>\n<tr>\n<td>a  b</td>\n</tr>\n</table>")
        #expect(ServerSentEvent.compactHTML("") == "")
        #expect(ServerSentEvent.compactHTML("\n \n\t\n") == "")
        #expect(ServerSentEvent.compactHTML("one") == "one")
    }
}
