import Foundation
import Testing

@testable import HyzerStore

@Suite struct SecretTests {
    /// The key form tokens are signed with: made on a first start, owner-only, the same after
    /// a restart (open forms stay valid), and made again when the file is unreadable.
    @Test func theFormKeyIsMadeOnceAndKept() throws {
        let directory = try TemporaryDirectory()
        let first = try FormTokenKey.kept(in: directory.url)
        let file = directory.url.appendingPathComponent("form-key")
        let permissions = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? NSNumber
        #expect(permissions?.intValue == 0o600)
        let token = first.issue(binding: "session")
        #expect(try FormTokenKey.kept(in: directory.url).isValid(token, binding: "session"))
        #expect(!first.isValid(token, binding: "another session"))
        #expect(!first.isValid(token, binding: ""))
        try Data("short".utf8).write(to: file)
        #expect(!(try FormTokenKey.kept(in: directory.url)).isValid(token, binding: "session"))
        #expect(try Data(contentsOf: file).count == 32)
    }

    @Test func aFormTokenIsRefusedWhenAnyPartOfItIsChanged() {
        let key = FormTokenKey(bytes: [UInt8](repeating: 1, count: 32))
        let token = key.issue(binding: "")
        #expect(key.isValid(token, binding: ""))
        #expect(!FormTokenKey(bytes: [UInt8](repeating: 2, count: 32)).isValid(token, binding: ""))
        for index in token.indices {
            var changed = token
            changed.replaceSubrange(index...index, with: token[index] == "A" ? "B" : "A")
            #expect(!key.isValid(changed, binding: ""))
        }
        #expect(!key.isValid(String(repeating: "t", count: 43), binding: ""))
    }

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
