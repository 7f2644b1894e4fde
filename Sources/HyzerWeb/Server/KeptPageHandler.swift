import Foundation
import HTTPTypes
import HyzerStore
import NIOCore
import NIOHTTPTypes

/// The last handler before the connection's request task: a plain GET of a kept page
/// (`KeptPageLane`) is answered here, on the event loop, and never reaches the task.
///
/// Every handler ahead of it has passed the request (the front door's checks, the live
/// streams, the connection's idle and keep-alive state) and sees the answer go out, as for
/// any other. A request is taken only while nothing sent before it on the connection is still
/// being answered by the task, so answers keep the order of their requests, and only while
/// the connection is writable, so a client that sends and never reads meets the task's
/// backpressure, not a growing pile of answers.
final class KeptPageHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let pages: PageCache
    private let stores: Stores
    /// Requests passed on to the task whose answers have not ended.
    private var withTask = 0
    /// The answer to the request being read, written once its end has come.
    private var answering: KeptPageLane.Answer?
    private var date = HTTPDateText()

    init(pages: PageCache, stores: Stores) {
        self.pages = pages
        self.stores = stores
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            let lane = pages.lane
            // While the client does not read what it is sent, the task answers: it waits for
            // the socket to drain, and reads no further meanwhile.
            if withTask == 0, context.channel.isWritable, let plain = lane.plain(head),
                let answer = lane.answer(head, plain, pages: pages, stores: stores, date: date.now())
            {
                answering = answer
                return
            }
            withTask += 1
        case .body:
            if answering != nil { return }
        case .end:
            if let answer = answering {
                answering = nil
                context.write(wrapOutboundOut(.head(answer.head)), promise: nil)
                if answer.body.readableBytes > 0 { context.write(wrapOutboundOut(.body(answer.body)), promise: nil) }
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
                return
            }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { withTask = max(0, withTask - 1) }
        context.write(data, promise: promise)
    }
}

/// The `Date` header's text (RFC 9110's IMF-fixdate), formatted again only when the second
/// has changed.
struct HTTPDateText {
    private var second = -1
    private var text = ""

    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    mutating func now() -> String {
        var now = time(nil)
        guard now != second else { return text }
        second = now
        var parts = tm()
        gmtime_r(&now, &parts)
        // Formatted by hand: strftime's names follow the process's locale.
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        text =
            "\(Self.days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(Self.months[Int(parts.tm_mon)]) \(1900 + parts.tm_year) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
        return text
    }
}
