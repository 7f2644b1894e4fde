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

extension SecretTests {
    @Test func digestIsLowercaseHexSHA256() {
        #expect(Secret.digest("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Secret.digest("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }
}
