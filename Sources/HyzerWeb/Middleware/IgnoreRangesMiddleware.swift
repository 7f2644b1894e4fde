import HTTPTypes
import Hummingbird

/// Static files are answered whole: `Range` is ignored, as RFC 9110 allows, and
/// `Accept-Ranges: none` says so. Hummingbird's file middleware reads `bytes=-5` as the first
/// six bytes and answers a range past the end 206 with an impossible `Content-Range`; Hyzer's
/// files are a few kilobytes, so a partial answer saves nothing worth a wrong one.
struct IgnoreRangesMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var forwarded = request
        if request.headers[.range] != nil || request.headers[.ifRange] != nil {
            var head = request.head
            head.headerFields[.range] = nil
            head.headerFields[.ifRange] = nil
            forwarded = Request(head: head, body: request.body)
        }
        var response = try await next(forwarded, context)
        if response.headers[.acceptRanges] != nil { response.headers[.acceptRanges] = "none" }
        return response
    }
}
