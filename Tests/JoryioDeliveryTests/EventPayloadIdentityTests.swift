import Foundation
import JoryioDelivery
import Testing

/// Reading a stored event's user without parsing the whole event (AUTH-7 batching).
@Suite struct EventPayloadIdentityTests {
    @Test(
        arguments: [
            (#"{"anonymousId":"a","event":"e","messageId":"m","properties":{},"timestamp":"t","type":"track"}"#, nil),
            (
                #"{"anonymousId":"a","event":"e","messageId":"m","properties":{},"timestamp":"t","type":"track","userId":"u-1"}"#,
                "u-1"
            ),
            // A `userId` property of an anonymous event is not the event's user.
            (
                #"{"anonymousId":"a","event":"e","messageId":"m","properties":{"x":1,"userId":"p"},"timestamp":"t","type":"track"}"#,
                nil
            ),
            (
                #"{"anonymousId":"a","event":"e","messageId":"m","properties":{"x":1,"userId":"p"},"timestamp":"t","type":"track","userId":"u"}"#,
                "u"
            ),
            // Escapes in the id are decoded.
            (#"{"anonymousId":"a","type":"track","userId":"a\"b\\c\u00e9"}"#, "a\"b\\c\u{e9}"),
            // Not the encoder's layout: the full parse answers.
            (#"{"userId":"first","anonymousId":"a","type":"track","x":1}"#, "first"),
            (#"{"anonymousId":"a","type":"track","userId":""}"#, nil),
        ] as [(String, String?)]
    )
    func userId(payload: String, expected: String?) {
        #expect(EventPayloadIdentity.userId(of: Data(payload.utf8)) == expected)
    }
}
