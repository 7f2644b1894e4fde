import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

@testable import HyzerWeb

/// The OpenAPI document is the API's full contract: it names exactly the API routes the
/// router has, with their methods, and the server serves it.
@Suite struct OpenAPIDocumentTests {
    @Test func theDocumentNamesEveryAPIRouteAndNoOther() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-openapi-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (web, _, _) = try await assemble(testConfiguration(directory), logger: Logger(label: "test"))
        let routes = Set(
            try buildRouter(web).routes.compactMap { route -> String? in
                let path = route.path.description
                guard path.hasPrefix("/api/v1/"), !path.hasSuffix("**") else { return nil }
                return "\(route.method.rawValue) \(path)"
            })
        let document = try Self.document()
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        let documented = Set(
            paths.flatMap { path, operations in
                operations.keys.filter { ["get", "post", "put", "patch", "delete"].contains($0) }.map { "\($0.uppercased()) \(path)" }
            })
        #expect(routes.subtracting(documented).isEmpty, "routes missing from openapi.json: \(routes.subtracting(documented).sorted())")
        #expect(documented.subtracting(routes).isEmpty, "openapi.json names routes the server lacks: \(documented.subtracting(routes).sorted())")
        #expect(document["openapi"] as? String == "3.1.0")
    }

    @Test func everyOperationSaysWhatItAnswers() throws {
        let paths = try #require(try Self.document()["paths"] as? [String: [String: Any]])
        for (path, operations) in paths {
            for (method, operation) in operations {
                let operation = try #require(operation as? [String: Any], "\(method) \(path)")
                #expect(operation["operationId"] as? String != nil, "\(method) \(path) has an operationId")
                let responses = try #require(operation["responses"] as? [String: Any], "\(method) \(path)")
                #expect(responses.keys.contains { $0.hasPrefix("2") }, "\(method) \(path) names its success")
            }
        }
    }

    @Test func theServerServesTheDocument() async throws {
        try await withApp { client in
            let response = try await client.as(.anonymous).get("/api/v1/openapi.json")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/json")
            let served = try JSONSerialization.jsonObject(with: Data(response.text.utf8)) as? [String: Any]
            #expect(served?["openapi"] as? String == "3.1.0")
        }
    }

    static func document() throws -> [String: Any] {
        let data = try Data(contentsOf: repositoryRoot.appendingPathComponent("OpenAPI/openapi.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }
}
