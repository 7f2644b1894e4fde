import Foundation
import Testing
@testable import HyzerStore

@Suite struct SecretTests {
    @Test func base64URLMatchesFoundationWithoutPadding() {
        for count in 0...40 {
            let bytes = (0..<count).map { _ in UInt8.random(in: .min ... .max) }
            let expected = Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            #expect(bytes.withUnsafeBytes { Secret.base64URL($0) } == expected, "\(count) bytes")
        }
    }

    @Test func secretsAre43CharactersAndNeverRepeat() {
        let made = (0..<1000).map { _ in Secret.make() }
        #expect(Set(made).count == made.count)
        #expect(made.allSatisfy { $0.utf8.count == 43 && $0.utf8.allSatisfy { Secret.alphabet.contains($0) } })
    }
}
