import Foundation
import HyzerCore
import Testing

@Suite struct UUIDRandomTests {
    /// Ids other devices read as version 4 (RFC 9562), and never the same twice.
    @Test func idsAreVersionFourAndDistinct() {
        let ids = (0..<10_000).map { _ in UUID.random() }
        #expect(Set(ids).count == ids.count)
        for id in ids {
            let text = id.lowercasedText
            #expect(Array(text)[14] == "4", "version 4: \(text)")
            #expect("89ab".contains(Array(text)[19]), "RFC variant: \(text)")
            #expect(UUID(uuidString: text) == id)
        }
        // Random bits everywhere else: every hex digit position that is not fixed takes
        // more than one value across the ids.
        for position in Array(0..<36) where ![8, 13, 14, 18, 23].contains(position) {
            #expect(Set(ids.map { Array($0.lowercasedText)[position] }).count > 1, "position \(position) varies")
        }
    }
}
