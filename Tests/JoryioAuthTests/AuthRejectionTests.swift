import Foundation
import JoryioAuth
import Testing

@Suite struct AuthRejectionTests {
    @Test(arguments: [
        ("missing", AuthRejection.missing, JoryioAuthError.Reason.missing),
        ("sub_mismatch", .subMismatch, .subMismatch),
        ("expired", .expired, .expired),
        ("invalid", .invalid, .invalid),
        ("revoked", .unknown("revoked"), .unknown),
        ("Expired", .unknown("Expired"), .unknown),
        ("", .unknown(""), .unknown),
    ])
    func reasons(raw: String, rejection: AuthRejection, reason: JoryioAuthError.Reason) {
        #expect(AuthRejection(reason: raw) == rejection)
        #expect(rejection.rawValue == raw)
        #expect(rejection.publicReason == reason)
    }

    @Test func parsesTheServerBody() {
        let body = Data(#"{"success": false, "error": "unauthorized", "reason": "sub_mismatch"}"#.utf8)
        #expect(AuthRejection.parse(body: body) == .subMismatch)
        #expect(AuthRejection.parse(body: Data(#"{"reason":"expired"}"#.utf8)) == .expired)
        #expect(AuthRejection.parse(body: Data(#"{"reason":"new_reason"}"#.utf8)) == .unknown("new_reason"))
    }

    @Test(arguments: [
        nil, "", "not json", "[]", #"{"success":false}"#, #"{"reason":7}"#, #"{"reason":null}"#, #""missing""#,
    ])
    func unreadableBodiesAreUnknown(body: String?) {
        #expect(AuthRejection.parse(body: body.map { Data($0.utf8) }) == .unknown(""))
    }

    @Test func publicErrorCarriesReasonAndUser() {
        let error = JoryioAuthError(reason: .expired, userId: "u1")
        #expect(error.reason == .expired)
        #expect(error.userId == "u1")
        #expect(error != JoryioAuthError(reason: .expired, userId: nil))
        let thrown: any Error = error
        #expect(thrown as? JoryioAuthError == error)
    }
}
