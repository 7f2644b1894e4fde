import Foundation
import Hummingbird
import HyzerCore
import HyzerStore
import HyzerSync
import Logging
import NIOCore

/// Turns errors into pages: unknown ids and paths are 404s; anything unexpected is logged
/// and shown as a 500 without internals. The API group answers its own errors with
/// `ProblemMiddleware`; a client that asks for JSON only gets a problem document here too.
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    let renderer: TemplateRenderer

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            let problem = Problem(error)
            problem.log(error, request, context)
            let accept = request.headers[.accept] ?? ""
            if accept.contains("json"), !accept.contains("html") {
                return try problem.response(from: request, context: context)
            }
            let page = MessagePage(title: problem.title, message: problem.detail)
            let template = problem.status == .notFound ? "not-found" : "error"
            var response = try renderer.page(page, template, status: problem.status).response(from: request, context: context)
            if let wait = problem.retryAfter { response.headers[.retryAfter] = String(wait) }
            return response
        }
    }
}

/// The JSON API's errors as problem documents, whatever the path looks like.
struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            let problem = Problem(error)
            problem.log(error, request, context)
            return try problem.response(from: request, context: context)
        }
    }
}

/// An RFC 9457 problem document: the JSON API's error format.
struct Problem: Error, ResponseGenerator, Encodable {
    struct FieldProblem: Encodable {
        var field: String
        var message: String
    }

    var type: String
    var title: String
    var status: HTTPResponse.Status
    var detail: String
    var errors: [FieldProblem]?
    /// A score conflict: the hole's current event, which a correction must name in `supersedes`.
    var currentEventID: String?
    /// Seconds to wait before asking again (429, 503): sent as `Retry-After`.
    var retryAfter: Int?

    enum CodingKeys: String, CodingKey { case type, title, status, detail, errors, currentEventID }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
        try container.encode(title, forKey: .title)
        try container.encode(status.code, forKey: .status)
        try container.encode(detail, forKey: .detail)
        try container.encodeIfPresent(errors, forKey: .errors)
        try container.encodeIfPresent(currentEventID, forKey: .currentEventID)
    }

    init(status: HTTPResponse.Status, title: String, detail: String, type: String = "about:blank", errors: [FieldProblem]? = nil) {
        self.status = status
        self.title = title
        self.detail = detail
        self.type = type
        self.errors = errors
    }

    init(_ error: any Error) {
        switch error {
        case let problem as Problem:
            self = problem
        case let errors as FieldErrors:
            self = Problem(invalid: errors)
        case ScoreRejection.invalid(let errors):
            self = Problem(invalid: errors)
        case ScoreRejection.conflict(let field, let message, let current):
            self.init(
                status: .conflict, title: "Conflict", detail: message, type: "/problems/conflict",
                errors: [FieldProblem(field: field, message: message)])
            currentEventID = current.map(\.lowercasedText)
        case ScoreRejection.notYours:
            self.init(status: .forbidden, title: "Not allowed", detail: ScoreRejection.notYours.message, type: "/problems/forbidden")
        case ScoreRejection.signed(let name):
            self.init(status: .conflict, title: "Card signed", detail: ScoreRejection.signed(name).message, type: "/problems/signed")
        case DomainStore.CardBatchRejection.notTheAuthor(let author):
            self.init(
                status: .conflict, title: "Made by someone else",
                detail: "These entries were made by \(author). Sign in as \(author) to send them; they are never sent as another person's.",
                type: "/problems/not-the-author")
        case LeagueRejection.invalid(let errors):
            self = Problem(invalid: errors)
        case LeagueRejection.conflict(let message):
            self.init(status: .conflict, title: "Conflict", detail: message, type: "/problems/conflict")
        case LeagueRejection.forbidden(let message):
            self.init(status: .forbidden, title: "Not allowed", detail: message, type: "/problems/forbidden")
        case let error as AccountError:
            if case .notYourRole = error {
                self.init(status: .forbidden, title: "Not allowed", detail: error.description, type: "/problems/forbidden")
            } else {
                self.init(status: .conflict, title: "Not allowed", detail: error.description, type: "/problems/conflict")
            }
        case StoreError.notFound(let what):
            self.init(status: .notFound, title: "Not found", detail: "\(what) was not found. It may have been removed, or the link is wrong.")
        case CloudError.unreachable:
            // A cluster's sessions and tokens live in its database: a sign-in, sign-out or
            // revocation waits for it.
            self.init(
                status: .serviceUnavailable, title: "Try again",
                detail: "The cluster's database cannot be reached just now, so this could not be done. Try again in a moment.")
            retryAfter = 5
        case let busy as PasswordWork.Busy:
            self.init(status: .serviceUnavailable, title: "Busy", detail: "Too many sign-ins and sign-ups at once. Try again in a few seconds.")
            retryAfter = busy.retryAfter
        case is NIOTooManyBytesError:
            self.init(
                status: .contentTooLarge, title: "Too large",
                detail: "The body is larger than this address accepts (\(AppRequestContext.maxBodyBytes / 1024) KB).")
        case let error as URLEncodedFormError:
            self.init(status: .badRequest, title: "Malformed form", detail: "The form could not be read: \(error).")
        case let http as HTTPError where http.status == .notFound:
            self.init(status: .notFound, title: "Not found", detail: "There is no page at this address.")
        case let http as HTTPError:
            self.init(status: http.status, title: http.status.reasonPhrase, detail: http.body ?? http.status.reasonPhrase)
        default:
            self.init(
                status: .internalServerError, title: "Something went wrong", detail: "The server could not complete the request. It has been logged.")
        }
    }

    func log(_ error: any Error, _ request: Request, _ context: some RequestContext) {
        if status == .internalServerError {
            context.logger.error("Request failed", metadata: ["path": "\(request.uri.path)", "error": "\(error)"])
        }
    }

    init(invalid errors: FieldErrors) {
        self.init(
            status: .unprocessableContent, title: "Invalid input", detail: errors.summary, type: "/problems/validation",
            errors: errors.entries.map { FieldProblem(field: $0.field, message: $0.message) }
        )
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        try response()
    }

    func response() throws -> Response {
        let data = try JSONCoding.encoder.encode(self)
        var response = Response(
            status: status,
            headers: [.contentType: "application/problem+json"],
            body: .init(byteBuffer: ByteBuffer(bytes: data))
        )
        if let retryAfter { response.headers[.retryAfter] = String(retryAfter) }
        return response
    }
}
