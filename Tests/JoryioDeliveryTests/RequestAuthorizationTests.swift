import Foundation
import JoryioCore
import JoryioDelivery
import Testing

/// The one 401 flow: credentials stamped when a request leaves, the rejection read from its answer.
@Suite struct RequestAuthorizationTests {
    /// An authorization whose tokens and verdicts the test scripts.
    private static func authorization(
        enabled: Bool = true,
        tokens: Locked<[String: String]>,
        verdict: AuthVerdict,
        asked: Locked<[String]> = Locked([])
    ) -> RequestAuthorization {
        RequestAuthorization(
            isEnabled: { enabled },
            token: { userId in tokens.withLock { $0[userId ?? ""] } },
            rejected: { userId, token, body in
                asked.withLock {
                    $0.append("\(userId ?? "-") \(token ?? "-") \(String(decoding: body, as: UTF8.self))")
                }
                return verdict
            }
        )
    }

    private static let unauthorized = Result<HTTPResponse, TransportError>.success(
        HTTPResponse(status: 401, headers: [:], body: Data(#"{"reason":"expired"}"#.utf8))
    )

    @Test("AUTH-2: credentials carry the user's token read now; none while SDK auth is off")
    func credentials() {
        let tokens = Locked(["u1": "t1"])
        let auth = Self.authorization(tokens: tokens, verdict: .hold)
        #expect(auth.credentials(for: "u1") == SentCredentials(userId: "u1", token: "t1"))
        #expect(auth.credentials(for: "u2") == SentCredentials(userId: "u2", token: nil))
        #expect(Self.authorization(enabled: false, tokens: tokens, verdict: .hold).credentials(for: "u1") == nil)
        #expect(RequestAuthorization.disabled.credentials(for: "u1") == nil)

        let request = HTTPRequest(method: "POST", url: URL(fileURLWithPath: "/"), headers: [], body: nil, timeout: 1)
        #expect(request.authorized(auth.credentials(for: "u1")).header("Authorization") == "Bearer t1")
        #expect(request.authorized(auth.credentials(for: "u2")) == request)
        #expect(request.authorized(nil) == request)
    }

    @Test("only a 401 to a request sent with credentials is a rejection; the engine hears user, token and body")
    func onlyAuthenticated401s() {
        let tokens = Locked(["u1": "t1"])
        let asked = Locked<[String]>([])
        let auth = Self.authorization(tokens: tokens, verdict: .drop, asked: asked)
        let sent = SentCredentials(userId: "u1", token: "t1")
        #expect(auth.rejection(of: Self.unauthorized, sentWith: nil) == nil)
        #expect(
            auth.rejection(of: .success(HTTPResponse(status: 403, headers: [:], body: Data())), sentWith: sent) == nil
        )
        #expect(auth.rejection(of: .failure(TransportError(.timeout, "t")), sentWith: sent) == nil)
        #expect(asked.value.isEmpty)
        #expect(auth.rejection(of: Self.unauthorized, sentWith: sent) == .drop)
        #expect(asked.value == [#"u1 t1 {"reason":"expired"}"#])
    }

    @Test("a hold says whether a newer token arrived while the request was on the wire")
    func holdAndNewerToken() {
        let tokens = Locked(["u1": "t1"])
        let auth = Self.authorization(tokens: tokens, verdict: .hold)
        let sent = SentCredentials(userId: "u1", token: "t1")
        #expect(auth.rejection(of: Self.unauthorized, sentWith: sent) == .hold(tokenArrived: false))
        tokens.withLock { $0["u1"] = "t2" }
        #expect(auth.rejection(of: Self.unauthorized, sentWith: sent) == .hold(tokenArrived: true))
        tokens.withLock { $0["u1"] = nil }
        #expect(auth.rejection(of: Self.unauthorized, sentWith: sent) == .hold(tokenArrived: false))
    }
}
