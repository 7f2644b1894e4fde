import Foundation
import Hummingbird

/// The one request context of the app. JSON in and out uses ISO 8601 dates, the contract's
/// format for times.
public struct AppRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage

    public init(source: Source) {
        coreContext = .init(source: source)
    }

    public var requestDecoder: JSONDecoder { JSONCoding.decoder }
    public var responseEncoder: JSONEncoder { JSONCoding.encoder }
}

enum JSONCoding {
    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
