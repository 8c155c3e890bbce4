import Foundation
import JoryioAuth
import JoryioTesting
import Testing

@Suite struct AuthTokenBookCodecTests {
    @Test func storeKeyIsTheSecureStoreItem() {
        #expect(AuthTokenBook.storeKey == "jry_auth_tokens")
    }

    @Test func emptyBookEncodesCompactly() {
        let text = String(decoding: AuthTokenBook().encoded(), as: UTF8.self)
        #expect(text == #"{"enabled":false,"tokens":{},"v":1}"#)
        #expect(AuthTokenBook(data: AuthTokenBook().encoded()) == AuthTokenBook())
    }

    @Test func fullBookEncodesWithSortedKeysAndRoundTrips() {
        let book = AuthTokenBook(
            tokens: ["u1": "t.1.x", "u2": "t.2.x"],
            currentUserId: "u1",
            nextUserIds: ["u3", "u2"],
            unboundToken: "opaque",
            isEnabled: true
        )
        let text = String(decoding: book.encoded(), as: UTF8.self)
        #expect(
            text
                == #"{"current":"u1","enabled":true,"next":["u2","u3"],"tokens":{"u1":"t.1.x","u2":"t.2.x"},"unbound":"opaque","v":1}"#
        )
        #expect(AuthTokenBook(data: book.encoded()) == book)
        #expect(book.encoded() == book.encoded())
    }

    @Test func bookBuiltByOperationsRoundTrips() {
        var book = AuthTokenBook()
        book.setToken(TestTokens.token(sub: "alice"), currentUser: "alice")
        book.setToken(TestTokens.token(sub: "Zoë \"q\" \\ /"), currentUser: "alice")
        book.reset(currentUser: "alice")
        book.setToken("opaque", currentUser: nil)
        #expect(AuthTokenBook(data: book.encoded()) == book)
    }

    @Test func toleratesWhitespaceAndKeyOrder() {
        let data = Data(#"{ "v": 1, "tokens": {"a": "tok"}, "enabled": true }"#.utf8)
        #expect(
            AuthTokenBook(data: data)
                == AuthTokenBook(
                    tokens: ["a": "tok"],
                    currentUserId: nil,
                    nextUserIds: [],
                    unboundToken: nil,
                    isEnabled: true
                )
        )
    }

    @Test(arguments: [
        "",
        "null",
        "[]",
        "garbage",
        #"{"v":1}"#,
        #"{"enabled":true,"tokens":{}}"#,
        #"{"v":2,"enabled":true,"tokens":{}}"#,
        #"{"v":"1","enabled":true,"tokens":{}}"#,
        #"{"v":1,"enabled":"yes","tokens":{}}"#,
        #"{"v":1,"enabled":true,"tokens":[]}"#,
        #"{"v":1,"enabled":true,"tokens":{"a":1}}"#,
        #"{"v":1,"enabled":true,"tokens":{"a":""}}"#,
        #"{"v":1,"enabled":true,"tokens":{"":"t"}}"#,
        #"{"v":1,"enabled":true,"tokens":{},"current":5}"#,
        #"{"v":1,"enabled":true,"tokens":{},"current":""}"#,
        #"{"v":1,"enabled":true,"tokens":{},"unbound":false}"#,
        #"{"v":1,"enabled":true,"tokens":{},"next":"u"}"#,
        #"{"v":1,"enabled":true,"tokens":{},"next":[1]}"#,
        #"{"v":1,"enabled":true,"tokens":{},"next":[""]}"#,
        #"{"v":1,"enabled":true,"tokens":{}"#,
    ])
    func garbageIsRefused(text: String) {
        #expect(AuthTokenBook(data: Data(text.utf8)) == nil)
    }

    @Test func randomBytesAreRefusedWithoutTrapping() {
        var generator = SplitMix64(seed: 11)
        for length in 0..<200 {
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            #expect(AuthTokenBook(data: Data(bytes)) == nil)
        }
    }
}
