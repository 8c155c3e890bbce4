import Foundation
import JoryioAuth
import JoryioTesting
import Testing

@Suite struct JWTTests {
    @Test func readsSubAndIntegerExp() {
        let claims = JWT.decode(TestTokens.token(payload: #"{"sub":"user-1","exp":1700000000}"#))
        #expect(claims == JWTClaims(subject: "user-1", expiresAt: Date(timeIntervalSince1970: 1_700_000_000)))
    }

    @Test func readsFractionalExp() {
        let claims = JWT.decode(TestTokens.token(payload: #"{"sub":"u","exp":1700000000.5}"#))
        #expect(claims?.expiresAt == Date(timeIntervalSince1970: 1_700_000_000.5))
    }

    @Test(arguments: [
        #"{"sub":"u"}"#, #"{"sub":"u","exp":"soon"}"#, #"{"sub":"u","exp":true}"#, #"{"sub":"u","exp":null}"#,
    ])
    func expOtherThanANumberIsLeftOut(payload: String) {
        #expect(JWT.decode(TestTokens.token(payload: payload)) == JWTClaims(subject: "u", expiresAt: nil))
    }

    @Test(arguments: [("ab", ""), ("abc", "=="), ("abcd", "=")])
    func paddingIsOptional(sub: String, padding: String) {
        let payload = #"{"sub":"\#(sub)"}"#
        let padded = Data(payload.utf8).base64EncodedString()
        #expect(padded.hasSuffix(padding) && !padded.dropLast(padding.count).hasSuffix("="))
        #expect(JWT.decode("\(TestTokens.header).\(padded).sig")?.subject == sub)
        #expect(JWT.decode("\(TestTokens.header).\(TestTokens.segment(payload)).sig")?.subject == sub)
    }

    @Test func urlSafeAlphabetIsDecoded() {
        // "???" and ">>>" encode to characters that differ between the two alphabets.
        let payload = #"{"sub":"a??>>>~~~"}"#
        let segment = TestTokens.segment(payload)
        #expect(segment.contains("-") || segment.contains("_"))
        #expect(JWT.decode("h.\(segment).s")?.subject == "a??>>>~~~")
        let standard = Data(payload.utf8).base64EncodedString()
        #expect(JWT.decode("h.\(standard).s")?.subject == "a??>>>~~~")  // tolerated too
    }

    @Test func unicodeSubject() {
        #expect(JWT.decode(TestTokens.token(sub: "Zoë-用户"))?.subject == "Zoë-用户")
    }

    @Test func emptySignatureIsAccepted() {
        #expect(JWT.decode("\(TestTokens.header).\(TestTokens.segment(#"{"sub":"u"}"#)).")?.subject == "u")
    }

    @Test(arguments: [
        "",
        ".",
        "..",
        "abc",
        "a.b",
        "\(TestTokens.header).\(TestTokens.segment(#"{"sub":"u"}"#))",
        "\(TestTokens.header).\(TestTokens.segment(#"{"sub":"u"}"#)).sig.extra",
        ".\(TestTokens.segment(#"{"sub":"u"}"#)).sig",
        "\(TestTokens.header)..sig",
        "\(TestTokens.header).!!!!.sig",
        "\(TestTokens.header).\(TestTokens.segment(#"{"sub":"u"}"#))===.sig",
        "\(TestTokens.header).a.sig",
        "\(TestTokens.header).ab=c.sig",
        "\(TestTokens.header).\(TestTokens.segment("not json")).sig",
        "\(TestTokens.header).\(TestTokens.segment("[1,2]")).sig",
        "\(TestTokens.header).\(TestTokens.segment(#""sub""#)).sig",
        "\(TestTokens.header).\(TestTokens.segment(#"{"exp":1}"#)).sig",
        "\(TestTokens.header).\(TestTokens.segment(#"{"sub":""}"#)).sig",
        "\(TestTokens.header).\(TestTokens.segment(#"{"sub":42}"#)).sig",
        "\(TestTokens.header).\(TestTokens.segment(#"{"sub":null}"#)).sig",
        "\(TestTokens.header).\(TestTokens.segment(#"{"sub":"u""#)).sig",
        "Bearer \(TestTokens.header).\(TestTokens.segment(#"{"sub":"u"}"#)) sig",
        "\(TestTokens.header). \(TestTokens.segment(#"{"sub":"u"}"#)).sig",
    ])
    func garbageIsNil(token: String) {
        #expect(JWT.decode(token) == nil)
    }

    @Test func randomBytesNeverTrap() {
        var generator = SplitMix64(seed: 7)
        let alphabet = Array("ABCxyz019-_+/=.{}\" é")
        for _ in 0..<2_000 {
            let length = Int(generator.next() % 40)
            let token = String((0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
            _ = JWT.decode(token)
        }
    }
}
