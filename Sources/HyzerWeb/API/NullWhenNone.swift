/// An optional the contract lists as always present: `null` when there is none. Swift's
/// synthesized encoding leaves a nil optional out, and clients read every listed key.
@propertyWrapper
struct NullWhenNone<Value> {
    var wrappedValue: Value?

    init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }
}

extension NullWhenNone: Sendable where Value: Sendable {}

extension NullWhenNone: Encodable where Value: Encodable {
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}

extension NullWhenNone: Decodable where Value: Decodable {
    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? nil : try container.decode(Value.self)
    }
}

extension KeyedDecodingContainer {
    /// A key left out reads as none, as for a plain optional.
    func decode<Value: Decodable>(_ type: NullWhenNone<Value>.Type, forKey key: Key) throws -> NullWhenNone<Value> {
        try decodeIfPresent(type, forKey: key) ?? NullWhenNone(wrappedValue: nil)
    }
}
