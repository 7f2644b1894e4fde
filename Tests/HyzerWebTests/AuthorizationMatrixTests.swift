import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdTesting
import HyzerCore
import Logging
import Testing

@testable import HyzerWeb

/// Every route, API call and live stream × (anonymous, athlete, coach, admin) → the status
/// each gets, from this one table, over a real socket. A route the router has and the table
/// does not list fails the suite, so a new route cannot skip this.
@Suite struct AuthorizationMatrixTests {
    enum Body: Sendable {
        case none
        case form([(String, String)])
        case json(String)
    }

    struct Row: Sendable {
        /// The route as the router names it, or nil for a live stream (served in the pipeline).
        var route: String?
        var method: HTTPRequest.Method
        var path: String
        var body: Body
        /// Statuses for anonymous, athlete, coach, admin.
        var expected: (Int, Int, Int, Int)

        func status(for who: Who) -> Int {
            switch who {
            case .anonymous: expected.0
            case .athlete: expected.1
            case .coach: expected.2
            case .admin: expected.3
            }
        }
    }

    // Placeholders: {round} the demo round, {event} one of its scores, {player} one of its
    // players (not the athlete), {missing} an id that names nothing, {hole} a hole nobody has
    // scored (different per role, so rows never depend on one another).
    static let rows: [Row] =
        [
            // everyone
            Row(route: "GET /healthz", method: .get, path: "/healthz", body: .none, expected: (200, 200, 200, 200)),
            Row(route: "GET /manifest.webmanifest", method: .get, path: "/manifest.webmanifest", body: .none, expected: (200, 200, 200, 200)),
            Row(route: "GET /metrics", method: .get, path: "/metrics", body: .none, expected: (200, 200, 200, 200)),
            Row(route: "GET /signin", method: .get, path: "/signin", body: .none, expected: (200, 200, 200, 200)),
            Row(
                route: "POST /signin", method: .post, path: "/signin", body: .form([("handle", "nobody"), ("password", "wrong password")]),
                expected: (401, 401, 401, 401)),
            Row(route: "GET /setup", method: .get, path: "/setup?token=made-up", body: .none, expected: (403, 403, 403, 403)),
            Row(route: "POST /setup", method: .post, path: "/setup", body: .form([("token", "made-up")]), expected: (403, 403, 403, 403)),
            Row(route: "GET /join", method: .get, path: "/join", body: .none, expected: (403, 403, 403, 403)),
            Row(route: "POST /join", method: .post, path: "/join", body: .form([("handle", "x")]), expected: (403, 403, 403, 403)),
            // viewer: public while the club's leaderboards are public
            Row(route: "GET /", method: .get, path: "/", body: .none, expected: (200, 200, 200, 200)),
            Row(route: "GET /rounds/{id}", method: .get, path: "/rounds/{round}", body: .none, expected: (200, 200, 200, 200)),
            Row(
                route: "GET /rounds/{id}/leaderboard", method: .get, path: "/rounds/{round}/leaderboard", body: .none, expected: (200, 200, 200, 200)),
            Row(route: "GET /tv", method: .get, path: "/tv", body: .none, expected: (200, 200, 200, 200)),
            Row(route: "GET /api/v1/rounds", method: .get, path: "/api/v1/rounds", body: .none, expected: (200, 200, 200, 200)),
            Row(route: "GET /api/v1/rounds/{id}", method: .get, path: "/api/v1/rounds/{round}", body: .none, expected: (200, 200, 200, 200)),
            Row(
                route: "GET /api/v1/rounds/{id}/standings", method: .get, path: "/api/v1/rounds/{round}/standings", body: .none,
                expected: (200, 200, 200, 200)),
            Row(
                route: "GET /api/v1/rounds/{id}/scores", method: .get, path: "/api/v1/rounds/{round}/scores", body: .none,
                expected: (200, 200, 200, 200)),
            Row(route: "GET /api/v1/openapi.json", method: .get, path: "/api/v1/openapi.json", body: .none, expected: (200, 200, 200, 200)),
            Row(route: nil, method: .get, path: "/rounds/{round}/events", body: .none, expected: (200, 200, 200, 200)),
            Row(route: nil, method: .get, path: "/tv/events", body: .none, expected: (200, 200, 200, 200)),
            // member
            Row(route: "GET /sync", method: .get, path: "/sync", body: .none, expected: (303, 200, 200, 200)),
            Row(route: "GET /api/v1/sync", method: .get, path: "/api/v1/sync", body: .none, expected: (401, 200, 200, 200)),
            Row(route: nil, method: .get, path: "/sync/events", body: .none, expected: (401, 200, 200, 200)),
            Row(route: "POST /signout", method: .post, path: "/signout", body: .form([]), expected: (303, 303, 303, 303)),
            Row(route: "POST /signout/everywhere", method: .post, path: "/signout/everywhere", body: .form([]), expected: (303, 303, 303, 303)),
            // scorer: the athlete is not in the demo round, so a score for {player} is not theirs
            Row(
                route: "POST /rounds/{id}/scores", method: .post, path: "/rounds/{round}/scores",
                body: .form([("playerID", "{player}"), ("hole", "{hole}"), ("strokes", "3")]), expected: (303, 403, 303, 303)),
            Row(
                route: "GET /rounds/{id}/scores/{eventID}/correct", method: .get, path: "/rounds/{round}/scores/{event}/correct", body: .none,
                expected: (303, 200, 200, 200)),
            Row(
                route: "POST /api/v1/rounds/{id}/scores", method: .post, path: "/api/v1/rounds/{round}/scores",
                body: .json(#"{"playerID":"{player}","hole":{apihole},"strokes":4}"#), expected: (401, 403, 201, 201)),
            // coach (an allowed request may still be refused by the data: 404, 409, 422)
            Row(route: "GET /courses/new", method: .get, path: "/courses/new", body: .none, expected: (303, 403, 200, 200)),
            Row(route: "POST /courses", method: .post, path: "/courses", body: .form([]), expected: (303, 403, 422, 422)),
            Row(route: "GET /players/new", method: .get, path: "/players/new", body: .none, expected: (303, 403, 200, 200)),
            Row(route: "POST /players", method: .post, path: "/players", body: .form([]), expected: (303, 403, 422, 422)),
            Row(route: "GET /rounds/new", method: .get, path: "/rounds/new", body: .none, expected: (303, 403, 200, 200)),
            Row(route: "POST /rounds", method: .post, path: "/rounds", body: .form([]), expected: (303, 403, 422, 422)),
            Row(route: "POST /rounds/{id}/start", method: .post, path: "/rounds/{round}/start", body: .form([]), expected: (303, 403, 409, 409)),
            Row(
                route: "POST /rounds/{id}/complete", method: .post, path: "/rounds/{missing}/complete", body: .form([]),
                expected: (303, 403, 404, 404)),
            Row(route: "GET /invites", method: .get, path: "/invites", body: .none, expected: (303, 403, 200, 200)),
            Row(route: "POST /invites", method: .post, path: "/invites", body: .form([("role", "athlete")]), expected: (303, 403, 201, 201)),
            Row(route: "POST /invites/bulk", method: .post, path: "/invites/bulk", body: .form([]), expected: (303, 403, 422, 422)),
            Row(
                route: "POST /invites/{id}/revoke", method: .post, path: "/invites/{missing}/revoke", body: .form([]), expected: (303, 403, 404, 404)),
            Row(route: "POST /sync/now", method: .post, path: "/sync/now", body: .form([]), expected: (303, 403, 303, 303)),
            Row(route: "POST /sync/retry", method: .post, path: "/sync/retry", body: .form([]), expected: (303, 403, 303, 303)),
            Row(route: "POST /api/v1/sync/now", method: .post, path: "/api/v1/sync/now", body: .json("{}"), expected: (401, 403, 202, 202)),
            // league play and setup through the API
            Row(route: "GET /api/v1/courses", method: .get, path: "/api/v1/courses", body: .none, expected: (200, 200, 200, 200)),
            Row(route: "POST /api/v1/courses", method: .post, path: "/api/v1/courses", body: .json("{}"), expected: (401, 403, 422, 422)),
            Row(route: "GET /api/v1/players", method: .get, path: "/api/v1/players", body: .none, expected: (200, 200, 200, 200)),
            Row(route: "POST /api/v1/players", method: .post, path: "/api/v1/players", body: .json("{}"), expected: (401, 403, 422, 422)),
            Row(route: "GET /api/v1/events", method: .get, path: "/api/v1/events", body: .none, expected: (200, 200, 200, 200)),
            Row(route: "GET /api/v1/seasons", method: .get, path: "/api/v1/seasons", body: .none, expected: (200, 200, 200, 200)),
            Row(route: "POST /api/v1/seasons", method: .post, path: "/api/v1/seasons", body: .json("{}"), expected: (401, 403, 422, 422)),
            Row(route: "GET /api/v1/seasons/{id}", method: .get, path: "/api/v1/seasons/{missing}", body: .none, expected: (404, 404, 404, 404)),
            Row(
                route: "GET /api/v1/seasons/{id}/standings", method: .get, path: "/api/v1/seasons/{missing}/standings", body: .none,
                expected: (404, 404, 404, 404)),
            Row(
                route: "GET /seasons/{id}/standings.csv", method: .get, path: "/seasons/{missing}/standings.csv", body: .none,
                expected: (404, 404, 404, 404)),
            Row(route: "GET /seasons", method: .get, path: "/seasons", body: .none, expected: (200, 200, 200, 200)),
            Row(route: "GET /api/v1/tags", method: .get, path: "/api/v1/tags", body: .none, expected: (200, 200, 200, 200)),
            Row(route: "POST /api/v1/tags", method: .post, path: "/api/v1/tags", body: .json("{}"), expected: (401, 403, 422, 422)),
            Row(route: "GET /api/v1/tags/{id}", method: .get, path: "/api/v1/tags/{missing}", body: .none, expected: (404, 404, 404, 404)),
            Row(
                route: "POST /api/v1/tags/{id}/moves", method: .post, path: "/api/v1/tags/{missing}/moves",
                body: .json(#"{"kind":"reclaim","tag":1}"#),
                expected: (401, 403, 404, 404)),
            Row(
                route: "GET /api/v1/tags/{id}/history", method: .get, path: "/api/v1/tags/{missing}/history", body: .none,
                expected: (404, 404, 404, 404)),
            Row(
                route: "GET /api/v1/players/{id}/tags", method: .get, path: "/api/v1/players/{missing}/tags", body: .none,
                expected: (404, 404, 404, 404)),
            Row(route: "GET /tags", method: .get, path: "/tags", body: .none, expected: (200, 200, 200, 200)),
            Row(
                route: "GET /api/v1/tags/{id}/challenges", method: .get, path: "/api/v1/tags/{missing}/challenges", body: .none,
                expected: (404, 404, 404, 404)),
            Row(
                route: "POST /api/v1/tags/{id}/challenges", method: .post, path: "/api/v1/tags/{missing}/challenges",
                body: .json(#"{"challengedIDs":[]}"#), expected: (401, 404, 404, 404)),
            Row(
                route: "POST /api/v1/tags/{id}/challenges/{challengeID}", method: .post, path: "/api/v1/tags/{missing}/challenges/{missing}",
                body: .json(#"{"answer":"decline"}"#), expected: (401, 404, 404, 404)),
            Row(
                route: "POST /tags/{id}/challenges", method: .post, path: "/tags/{missing}/challenges", body: .form([("challengedID", "x")]),
                expected: (303, 404, 404, 404)),
            Row(
                route: "POST /tags/{id}/challenges/{challengeID}", method: .post, path: "/tags/{missing}/challenges/{missing}",
                body: .form([("answer", "decline")]), expected: (303, 404, 404, 404)),
            Row(route: "GET /tags/new", method: .get, path: "/tags/new", body: .none, expected: (303, 403, 200, 200)),
            Row(route: "POST /tags", method: .post, path: "/tags", body: .form([]), expected: (303, 403, 422, 422)),
            Row(route: "GET /tags/{id}", method: .get, path: "/tags/{missing}", body: .none, expected: (404, 404, 404, 404)),
            Row(route: "GET /tags/{id}/holders.csv", method: .get, path: "/tags/{missing}/holders.csv", body: .none, expected: (404, 404, 404, 404)),
            Row(route: "GET /tags/{id}/history.csv", method: .get, path: "/tags/{missing}/history.csv", body: .none, expected: (404, 404, 404, 404)),
            Row(
                route: "POST /tags/{id}/moves", method: .post, path: "/tags/{missing}/moves", body: .form([("kind", "reclaim"), ("tag", "1")]),
                expected: (303, 403, 404, 404)),
            // A bracket is a coach's to make and to record concessions in; everyone reads it.
            Row(
                route: "POST /api/v1/events/{id}/bracket", method: .post, path: "/api/v1/events/{missing}/bracket", body: .json("{}"),
                expected: (401, 403, 422, 422)),
            Row(
                route: "GET /api/v1/events/{id}/bracket", method: .get, path: "/api/v1/events/{missing}/bracket", body: .none,
                expected: (404, 404, 404, 404)),
            Row(
                route: "POST /api/v1/events/{id}/bracket/concessions", method: .post, path: "/api/v1/events/{missing}/bracket/concessions",
                body: .json("{}"), expected: (401, 403, 422, 422)),
            Row(route: "GET /events/{id}/bracket", method: .get, path: "/events/{missing}/bracket", body: .none, expected: (404, 404, 404, 404)),
            // Mulligans are sold by a coach (the demo round is not a mulligan night: 409).
            Row(
                route: "POST /api/v1/rounds/{id}/mulligans", method: .post, path: "/api/v1/rounds/{round}/mulligans",
                body: .json(#"{"playerID":"{player}","count":1}"#), expected: (401, 403, 409, 409)),
            Row(
                route: "POST /rounds/{id}/mulligans", method: .post, path: "/rounds/{round}/mulligans",
                body: .form([("playerID", "{player}"), ("count", "1")]), expected: (303, 403, 409, 409)),
            Row(
                route: "GET /events/{id}/bracket/new", method: .get, path: "/events/{missing}/bracket/new", body: .none,
                expected: (303, 403, 404, 404)),
            Row(
                route: "POST /events/{id}/bracket", method: .post, path: "/events/{missing}/bracket", body: .form([]), expected: (303, 403, 404, 404)),
            // Money is a coach's; pots are public only when the club says so (not in the demo).
            Row(route: "GET /api/v1/pots", method: .get, path: "/api/v1/pots", body: .none, expected: (403, 403, 200, 200)),
            Row(route: "POST /api/v1/pots", method: .post, path: "/api/v1/pots", body: .json("{}"), expected: (401, 403, 422, 422)),
            Row(route: "GET /api/v1/pots/{id}", method: .get, path: "/api/v1/pots/{missing}", body: .none, expected: (403, 403, 404, 404)),
            Row(
                route: "POST /api/v1/pots/{id}/contributions", method: .post, path: "/api/v1/pots/{missing}/contributions",
                body: .json(#"{"cents":100}"#), expected: (401, 403, 404, 404)),
            Row(
                route: "POST /api/v1/pots/{id}/payouts", method: .post, path: "/api/v1/pots/{missing}/payouts",
                body: .json(#"{"eventID":"00000000-0000-4000-8000-000000000001","playerIDs":[]}"#), expected: (401, 403, 404, 404)),
            Row(
                route: "GET /api/v1/events/{id}/money", method: .get, path: "/api/v1/events/{missing}/money", body: .none,
                expected: (401, 404, 404, 404)),
            Row(
                route: "POST /api/v1/events/{id}/payouts", method: .post, path: "/api/v1/events/{missing}/payouts",
                body: .json(#"{"playerID":"00000000-0000-4000-8000-000000000001"}"#), expected: (401, 403, 404, 404)),
            Row(route: "GET /api/v1/money/ledger", method: .get, path: "/api/v1/money/ledger", body: .none, expected: (401, 403, 200, 200)),
            Row(route: "GET /money", method: .get, path: "/money", body: .none, expected: (303, 403, 200, 200)),
            Row(route: "GET /money/ledger.csv", method: .get, path: "/money/ledger.csv", body: .none, expected: (303, 403, 200, 200)),
            Row(route: "POST /pots", method: .post, path: "/pots", body: .form([]), expected: (303, 403, 422, 422)),
            Row(route: "GET /pots/{id}", method: .get, path: "/pots/{missing}", body: .none, expected: (403, 403, 404, 404)),
            Row(
                route: "POST /pots/{id}/contributions", method: .post, path: "/pots/{missing}/contributions", body: .form([("amount", "1")]),
                expected: (303, 403, 404, 404)),
            Row(
                route: "POST /pots/{id}/payouts", method: .post, path: "/pots/{missing}/payouts",
                body: .form([("eventID", "00000000-0000-4000-8000-000000000001")]),
                expected: (303, 403, 404, 404)),
            Row(route: "GET /events/{id}/money", method: .get, path: "/events/{missing}/money", body: .none, expected: (303, 403, 404, 404)),
            Row(
                route: "POST /events/{id}/payouts", method: .post, path: "/events/{missing}/payouts",
                body: .form([("playerID", "00000000-0000-4000-8000-000000000001")]),
                expected: (303, 403, 404, 404)),
            Row(route: "GET /seasons/{id}/fees", method: .get, path: "/seasons/{missing}/fees", body: .none, expected: (303, 403, 404, 404)),
            Row(route: "POST /seasons/{id}/fees", method: .post, path: "/seasons/{missing}/fees", body: .form([]), expected: (303, 403, 404, 404)),
            Row(
                route: "POST /events/{id}/checkins", method: .post, path: "/events/{missing}/checkins", body: .form([]),
                expected: (303, 404, 404, 404)),
            Row(
                route: "GET /api/v1/events/{id}/checkins", method: .get, path: "/api/v1/events/{missing}/checkins", body: .none,
                expected: (404, 404, 404, 404)),
            Row(
                route: "POST /api/v1/events/{id}/checkins", method: .post, path: "/api/v1/events/{missing}/checkins", body: .json("{}"),
                expected: (401, 422, 422, 422)),
            // Ratings read like boards; entering one is a coach's.
            Row(route: "GET /players/{id}", method: .get, path: "/players/{player}", body: .none, expected: (200, 200, 200, 200)),
            Row(route: "GET /courses/{id}", method: .get, path: "/courses/{missing}", body: .none, expected: (404, 404, 404, 404)),
            Row(
                route: "PUT /api/v1/players/{id}/rating", method: .put, path: "/api/v1/players/{missing}/rating", body: .json(#"{"rating":900}"#),
                expected: (401, 403, 404, 404)),
            Row(
                route: "GET /api/v1/players/{id}/ratings", method: .get, path: "/api/v1/players/{missing}/ratings", body: .none,
                expected: (404, 404, 404, 404)),
            Row(
                route: "GET /api/v1/rounds/{id}/ratings", method: .get, path: "/api/v1/rounds/{round}/ratings", body: .none,
                expected: (200, 200, 200, 200)),
            Row(
                route: "GET /api/v1/courses/{id}/stats", method: .get, path: "/api/v1/courses/{missing}/stats", body: .none,
                expected: (404, 404, 404, 404)),
            // Seasons are changed and removed by coaches; a check-in is undone by the player or a coach.
            Row(route: "GET /seasons/{id}/edit", method: .get, path: "/seasons/{missing}/edit", body: .none, expected: (303, 403, 404, 404)),
            Row(route: "POST /seasons/{id}", method: .post, path: "/seasons/{missing}", body: .form([("name", "S")]), expected: (303, 403, 404, 404)),
            Row(
                route: "POST /seasons/{id}/remove", method: .post, path: "/seasons/{missing}/remove", body: .form([]), expected: (303, 403, 404, 404)),
            Row(
                route: "PATCH /api/v1/seasons/{id}", method: .patch, path: "/api/v1/seasons/{missing}", body: .json(#"{"name":"S"}"#),
                expected: (401, 403, 404, 404)),
            Row(
                route: "DELETE /api/v1/seasons/{id}", method: .delete, path: "/api/v1/seasons/{missing}", body: .none, expected: (401, 403, 404, 404)),
            Row(
                route: "GET /api/v1/events/{id}/fees", method: .get, path: "/api/v1/events/{missing}/fees", body: .none,
                expected: (401, 403, 404, 404)),
            Row(
                route: "DELETE /api/v1/events/{id}/checkins/{playerID}", method: .delete, path: "/api/v1/events/{missing}/checkins/{player}",
                body: .none, expected: (401, 404, 404, 404)),
            Row(
                route: "POST /events/{id}/checkins/{playerID}/cancel", method: .post, path: "/events/{missing}/checkins/{player}/cancel",
                body: .form([]), expected: (303, 404, 404, 404)),
            // A check-in link or code of no night is a 404 for everyone; opening check-in is a coach's.
            Row(route: "GET /c/{code}", method: .get, path: "/c/00000000", body: .none, expected: (404, 404, 404, 404)),
            Row(
                route: "GET /events/{id}/checkin.svg", method: .get, path: "/events/{missing}/checkin.svg", body: .none,
                expected: (404, 404, 404, 404)),
            Row(
                route: "POST /events/{id}/checkin-open", method: .post, path: "/events/{missing}/checkin-open", body: .form([("open", "1")]),
                expected: (303, 403, 404, 404)),
            Row(
                route: "POST /events/{id}/checkins/many", method: .post, path: "/events/{missing}/checkins/many",
                body: .form([("chosen[{player}]", "on")]), expected: (303, 403, 404, 404)),
            Row(
                route: "GET /api/v1/players/{id}/handicaps", method: .get, path: "/api/v1/players/{missing}/handicaps", body: .none,
                expected: (404, 404, 404, 404)),
            Row(route: "GET /seasons/new", method: .get, path: "/seasons/new", body: .none, expected: (303, 403, 200, 200)),
            Row(route: "POST /seasons", method: .post, path: "/seasons", body: .form([]), expected: (303, 403, 422, 422)),
            Row(route: "GET /seasons/{id}", method: .get, path: "/seasons/{missing}", body: .none, expected: (404, 404, 404, 404)),
            Row(route: "POST /api/v1/events", method: .post, path: "/api/v1/events", body: .json("{}"), expected: (401, 403, 422, 422)),
            Row(route: "GET /api/v1/events/{id}", method: .get, path: "/api/v1/events/{missing}", body: .none, expected: (404, 404, 404, 404)),
            Row(
                route: "GET /api/v1/events/{id}/standings", method: .get, path: "/api/v1/events/{missing}/standings", body: .none,
                expected: (404, 404, 404, 404)),
            Row(
                route: "POST /api/v1/events/{id}/playoff", method: .post, path: "/api/v1/events/{missing}/playoff",
                body: .json(#"{"winner":"{player}"}"#), expected: (401, 403, 404, 404)),
            Row(route: "POST /api/v1/rounds", method: .post, path: "/api/v1/rounds", body: .json("{}"), expected: (401, 403, 422, 422)),
            Row(
                route: "POST /api/v1/rounds/{id}/start", method: .post, path: "/api/v1/rounds/{round}/start", body: .json("{}"),
                expected: (401, 403, 409, 409)),
            Row(
                route: "POST /api/v1/rounds/{id}/complete", method: .post, path: "/api/v1/rounds/{missing}/complete", body: .json("{}"),
                expected: (401, 403, 404, 404)),
            Row(
                route: "GET /api/v1/rounds/{id}/cards", method: .get, path: "/api/v1/rounds/{round}/cards", body: .none,
                expected: (200, 200, 200, 200)),
            Row(
                route: "POST /api/v1/rounds/{id}/cards", method: .post, path: "/api/v1/rounds/{round}/cards", body: .json("{}"),
                expected: (401, 403, 422, 422)),
            Row(
                route: "GET /api/v1/rounds/{id}/cards/{cardID}", method: .get, path: "/api/v1/rounds/{round}/cards/{missing}", body: .none,
                expected: (404, 404, 404, 404)),
            Row(
                route: "POST /api/v1/rounds/{id}/cards/{cardID}/scores", method: .post, path: "/api/v1/rounds/{round}/cards/{missing}/scores",
                body: .json(
                    #"{"scores":[{"id":"6f1c1d1e-0000-4000-8000-000000000001","playerID":"6f1c1d1e-0000-4000-8000-000000000002","hole":1,"strokes":3}]}"#
                ), expected: (401, 404, 404, 404)),
            Row(
                route: "POST /api/v1/rounds/{id}/cards/{cardID}/holes/{hole}", method: .post, path: "/api/v1/rounds/{round}/cards/{missing}/holes/1",
                body: .json(#"{"scores":[]}"#), expected: (401, 404, 404, 404)),
            Row(
                route: "POST /api/v1/rounds/{id}/signatures", method: .post, path: "/api/v1/rounds/{missing}/signatures",
                body: .json(#"{"playerID":"{player}"}"#), expected: (401, 404, 404, 404)),
            Row(
                route: "GET /rounds/{id}/cards/{cardID}", method: .get, path: "/rounds/{round}/cards/{missing}", body: .none,
                expected: (404, 404, 404, 404)),
            Row(
                route: "POST /rounds/{id}/cards/{cardID}/holes/{hole}", method: .post, path: "/rounds/{round}/cards/{missing}/holes/1",
                body: .form([]), expected: (303, 404, 404, 404)),
            Row(
                route: "POST /rounds/{id}/signatures", method: .post, path: "/rounds/{missing}/signatures", body: .form([("playerID", "{player}")]),
                expected: (303, 404, 404, 404)),
            Row(
                route: "GET /rounds/{id}/results.csv", method: .get, path: "/rounds/{round}/results.csv", body: .none, expected: (200, 200, 200, 200)),
            Row(
                route: "GET /events/{id}/results.csv", method: .get, path: "/events/{missing}/results.csv", body: .none,
                expected: (404, 404, 404, 404)),
            Row(
                route: "POST /api/v1/players/import", method: .post, path: "/api/v1/players/import", body: .json("{}"), expected: (401, 403, 415, 415)
            ),
            Row(
                route: "POST /api/v1/rounds/{id}/results", method: .post, path: "/api/v1/rounds/{round}/results", body: .json("{}"),
                expected: (401, 403, 415, 415)),
            Row(route: "GET /events/new", method: .get, path: "/events/new", body: .none, expected: (303, 403, 200, 200)),
            Row(route: "POST /events", method: .post, path: "/events", body: .form([]), expected: (303, 403, 422, 422)),
            Row(route: "GET /events/{id}", method: .get, path: "/events/{missing}", body: .none, expected: (404, 404, 404, 404)),
            Row(
                route: "POST /events/{id}/playoff", method: .post, path: "/events/{missing}/playoff", body: .form([("winner", "{player}")]),
                expected: (303, 403, 404, 404)),
            Row(route: "GET /rounds/{id}/cards/edit", method: .get, path: "/rounds/{round}/cards/edit", body: .none, expected: (303, 403, 200, 200)),
            Row(
                route: "POST /rounds/{id}/cards/edit", method: .post, path: "/rounds/{missing}/cards/edit", body: .form([]),
                expected: (303, 403, 404, 404)),
            Row(
                route: "POST /rounds/{id}/cards/plan", method: .post, path: "/rounds/{missing}/cards/plan", body: .form([]),
                expected: (303, 403, 404, 404)),
            // the director's pages
            Row(route: "GET /courses", method: .get, path: "/courses", body: .none, expected: (303, 403, 200, 200)),
            Row(route: "GET /courses/{id}/edit", method: .get, path: "/courses/{missing}/edit", body: .none, expected: (303, 403, 404, 404)),
            Row(route: "POST /courses/{id}", method: .post, path: "/courses/{missing}", body: .form([("name", "X")]), expected: (303, 403, 404, 404)),
            Row(
                route: "POST /courses/{id}/remove", method: .post, path: "/courses/{missing}/remove", body: .form([]), expected: (303, 403, 404, 404)),
            Row(route: "GET /players", method: .get, path: "/players", body: .none, expected: (303, 403, 200, 200)),
            Row(route: "GET /players/{id}/edit", method: .get, path: "/players/{missing}/edit", body: .none, expected: (303, 403, 404, 404)),
            Row(
                route: "POST /players/{id}", method: .post, path: "/players/{missing}", body: .form([("displayName", "X")]),
                expected: (303, 403, 404, 404)),
            Row(
                route: "POST /players/{id}/remove", method: .post, path: "/players/{missing}/remove", body: .form([]), expected: (303, 403, 404, 404)),
            Row(route: "GET /players/import", method: .get, path: "/players/import", body: .none, expected: (303, 403, 200, 200)),
            Row(route: "POST /players/import", method: .post, path: "/players/import", body: .form([("csv", "")]), expected: (303, 403, 422, 422)),
            Row(route: "GET /events", method: .get, path: "/events", body: .none, expected: (200, 200, 200, 200)),
            Row(route: "GET /events/{id}/edit", method: .get, path: "/events/{missing}/edit", body: .none, expected: (303, 403, 404, 404)),
            Row(route: "POST /events/{id}", method: .post, path: "/events/{missing}", body: .form([("name", "X")]), expected: (303, 403, 404, 404)),
            Row(route: "POST /events/{id}/remove", method: .post, path: "/events/{missing}/remove", body: .form([]), expected: (303, 403, 404, 404)),
            Row(route: "GET /rounds/{id}/edit", method: .get, path: "/rounds/{round}/edit", body: .none, expected: (303, 403, 200, 200)),
            Row(route: "POST /rounds/{id}", method: .post, path: "/rounds/{missing}", body: .form([("name", "X")]), expected: (303, 403, 404, 404)),
            Row(route: "POST /rounds/{id}/remove", method: .post, path: "/rounds/{missing}/remove", body: .form([]), expected: (303, 403, 404, 404)),
            Row(
                route: "POST /rounds/{id}/players", method: .post, path: "/rounds/{missing}/players", body: .form([("playerID", "{player}")]),
                expected: (303, 403, 404, 404)),
            Row(
                route: "POST /rounds/{id}/players/{playerID}/withdraw", method: .post, path: "/rounds/{missing}/players/{player}/withdraw",
                body: .form([]), expected: (303, 403, 404, 404)),
            Row(route: "GET /rounds/{id}/complete", method: .get, path: "/rounds/{missing}/complete", body: .none, expected: (303, 403, 404, 404)),
            Row(route: "POST /rounds/{id}/reopen", method: .post, path: "/rounds/{missing}/reopen", body: .form([]), expected: (303, 403, 404, 404)),
            Row(
                route: "GET /rounds/{id}/results/import", method: .get, path: "/rounds/{missing}/results/import", body: .none,
                expected: (303, 403, 404, 404)),
            Row(
                route: "POST /rounds/{id}/results/import", method: .post, path: "/rounds/{missing}/results/import", body: .form([("csv", "")]),
                expected: (303, 403, 404, 404)),
            // editing and removing through the API
            Row(
                route: "PATCH /api/v1/players/{id}", method: .patch, path: "/api/v1/players/{missing}", body: .json(#"{"displayName":"X"}"#),
                expected: (401, 403, 404, 404)),
            Row(
                route: "DELETE /api/v1/players/{id}", method: .delete, path: "/api/v1/players/{missing}", body: .none, expected: (401, 403, 404, 404)),
            Row(
                route: "PATCH /api/v1/courses/{id}", method: .patch, path: "/api/v1/courses/{missing}", body: .json(#"{"name":"X"}"#),
                expected: (401, 403, 404, 404)),
            Row(
                route: "DELETE /api/v1/courses/{id}", method: .delete, path: "/api/v1/courses/{missing}", body: .none, expected: (401, 403, 404, 404)),
            Row(
                route: "PATCH /api/v1/events/{id}", method: .patch, path: "/api/v1/events/{missing}", body: .json(#"{"name":"X"}"#),
                expected: (401, 403, 404, 404)),
            Row(route: "DELETE /api/v1/events/{id}", method: .delete, path: "/api/v1/events/{missing}", body: .none, expected: (401, 403, 404, 404)),
            Row(
                route: "PATCH /api/v1/rounds/{id}", method: .patch, path: "/api/v1/rounds/{missing}", body: .json(#"{"name":"X"}"#),
                expected: (401, 403, 404, 404)),
            Row(route: "DELETE /api/v1/rounds/{id}", method: .delete, path: "/api/v1/rounds/{missing}", body: .none, expected: (401, 403, 404, 404)),
            Row(
                route: "POST /api/v1/rounds/{id}/players", method: .post, path: "/api/v1/rounds/{missing}/players",
                body: .json(#"{"playerID":"{player}"}"#), expected: (401, 403, 404, 404)),
            Row(
                route: "DELETE /api/v1/rounds/{id}/players/{playerID}", method: .delete, path: "/api/v1/rounds/{missing}/players/{player}",
                body: .none, expected: (401, 403, 404, 404)),
            Row(
                route: "POST /api/v1/rounds/{id}/reopen", method: .post, path: "/api/v1/rounds/{missing}/reopen", body: .json("{}"),
                expected: (401, 403, 404, 404)),
            // admin
            Row(route: "GET /admin", method: .get, path: "/admin", body: .none, expected: (303, 403, 403, 200)),
            Row(
                route: "POST /admin/users/{id}/role", method: .post, path: "/admin/users/{missing}/role", body: .form([("role", "coach")]),
                expected: (303, 403, 403, 404)),
            Row(
                route: "POST /admin/users/{id}/disable", method: .post, path: "/admin/users/{missing}/disable", body: .form([]),
                expected: (303, 403, 403, 404)),
            Row(
                route: "POST /admin/users/{id}/enable", method: .post, path: "/admin/users/{missing}/enable", body: .form([]),
                expected: (303, 403, 403, 404)),
            Row(
                route: "POST /admin/tokens/{id}/revoke", method: .post, path: "/admin/tokens/{missing}/revoke", body: .form([]),
                expected: (303, 403, 403, 303)),
            Row(route: "POST /admin/settings", method: .post, path: "/admin/settings", body: .form([]), expected: (303, 403, 403, 422)),
            Row(
                route: "POST /admin/quarantine/dismiss", method: .post, path: "/admin/quarantine/dismiss",
                body: .form([("key", "999999")]), expected: (303, 403, 403, 404)),
            Row(route: "POST /admin/backups", method: .post, path: "/admin/backups", body: .form([]), expected: (303, 403, 403, 303)),
            Row(route: "POST /admin/backups/upload", method: .post, path: "/admin/backups/upload", body: .form([]), expected: (303, 403, 403, 415)),
            Row(
                route: "GET /admin/backups/{name}", method: .get, path: "/admin/backups/hyzer-missing.tar.gz", body: .none,
                expected: (303, 403, 403, 404)),
            Row(
                route: "GET /admin/backups/{name}/restore", method: .get, path: "/admin/backups/hyzer-missing.tar.gz/restore", body: .none,
                expected: (303, 403, 403, 404)),
            Row(
                route: "POST /admin/backups/{name}/restore", method: .post, path: "/admin/backups/hyzer-missing.tar.gz/restore", body: .form([]),
                expected: (303, 403, 403, 404)),
            // Last: it takes the demo round (archived) that rows above use.
            Row(route: "POST /admin/demo/remove", method: .post, path: "/admin/demo/remove", body: .form([]), expected: (303, 403, 403, 303)),
        ]
        + ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE"].map {
            // The API's catch-all: anything else under /api/v1 is a 404 problem for everyone.
            Row(
                route: "\($0) /api/v1/**", method: HTTPRequest.Method(rawValue: $0) ?? .get, path: "/api/v1/nothing", body: .none,
                expected: (404, 404, 404, 404))
        }

    @Test func everyRouteIsInTheTable() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-routes-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (web, _, _) = try await assemble(testConfiguration(directory), logger: Logger(label: "test"))
        let routes = Set(try buildRouter(web).routes.map { "\($0.method) \($0.path)" })
        let listed = Set(Self.rows.compactMap(\.route))
        #expect(routes.subtracting(listed).isEmpty, "routes missing from the authorization table: \(routes.subtracting(listed).sorted())")
        #expect(listed.subtracting(routes).isEmpty, "table rows for routes that do not exist: \(listed.subtracting(routes).sorted())")
    }

    @Test func everyRouteAndStreamAnswersEachRoleAsTheTableSays() async throws {
        try await withLiveApp { port, client, http in
            let roundID = try await client.demoRoundID()
            let player = try #require(try await client.roundDetail(roundID).playerIDs().first)
            let page = try await client.get("/rounds/\(roundID)").text
            let event = try #require(page.firstMatch(of: /\/scores\/([0-9a-f-]{36})\/correct/)?.1)
            let holes: [Who: (Int, Int)] = [.anonymous: (10, 11), .athlete: (12, 13), .coach: (14, 15), .admin: (16, 17)]
            var mismatches: [String] = []
            for row in Self.rows {
                for who in Who.allCases {
                    let fill = { (text: String) in
                        text.replacingOccurrences(of: "{round}", with: roundID).replacingOccurrences(of: "{event}", with: String(event))
                            .replacingOccurrences(of: "{player}", with: player).replacingOccurrences(
                                of: "{missing}", with: UUID().uuidString.lowercased()
                            )
                            .replacingOccurrences(of: "{hole}", with: String(holes[who]?.0 ?? 1)).replacingOccurrences(
                                of: "{apihole}", with: String(holes[who]?.1 ?? 1))
                    }
                    let actor = client.as(who)
                    let path = fill(row.path)
                    let status: Int
                    if row.route == nil {
                        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
                        if let user = client.users[who] { request.headers.add(name: "Authorization", value: "Bearer \(user.token)") }
                        status = Int(try await http.execute(request, timeout: .seconds(10)).status.code)
                    } else {
                        switch row.body {
                        case .none: status = Int(try await actor.execute(uri: path, method: row.method).status.code)
                        case .form(let fields): status = Int(try await actor.postForm(path, fields.map { ($0.0, fill($0.1)) }).status.code)
                        case .json(let json): status = Int(try await actor.postJSON(path, fill(json), method: row.method).status.code)
                        }
                    }
                    if status != row.status(for: who) {
                        mismatches.append("\(row.method) \(path) as \(who.rawValue): \(status), expected \(row.status(for: who))")
                    }
                }
            }
            #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
        }
    }

    /// The viewer rule follows the club setting: with public leaderboards off, round pages,
    /// the TV, their API and their streams need a signed-in person.
    @Test func privateLeaderboardsNeedSignInEverywhere() async throws {
        try await withLiveApp { port, client, http in
            let roundID = try await client.demoRoundID()
            let saved = try await client.as(.admin).postForm("/admin/settings", [("clubName", "Pine Loop DGC"), ("tvPageSeconds", "12")])
            #expect(saved.status == .seeOther)
            let anonymous = client.as(.anonymous)
            for path in ["/", "/rounds/\(roundID)", "/rounds/\(roundID)/leaderboard", "/tv"] {
                let response = try await anonymous.get(path)
                #expect(response.status == .seeOther, "\(path)")
                #expect(response.headers[.location]?.hasPrefix("/signin?next=") == true, "\(path)")
                #expect(try await client.as(.athlete).get(path).status == .ok, "\(path)")
            }
            #expect(try await anonymous.get("/api/v1/rounds/\(roundID)/standings").status == .unauthorized)
            for path in ["/rounds/\(roundID)/events", "/tv/events"] {
                let response = try await http.execute(HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)"), timeout: .seconds(10))
                #expect(response.status == .unauthorized, "\(path)")
            }
            // The TV reads its page time from the club settings now.
            #expect(try await client.get("/tv").text.contains("data-page-seconds=\"12\""))
        }
    }
}
