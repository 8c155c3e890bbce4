import Foundation
import JoryioCore
import JoryioDelivery
import JoryioTesting
import Testing

/// An SDK-auth 401 on the durable channel (DURABLE-8, DURABLE-15, AUTH-9), on virtual time: the
/// current user's write is retried with backoff, at most 10 times, instead of parking the channel
/// until a new token arrives; a new token still sends it again at once. Backoff is 1 s × 2^(n−1),
/// capped at 60 s, with no jitter.
@Suite struct DurableTokenRejectionTests {
    private static let unauthorized = HTTPResponse.json(
        401,
        #"{"success":false,"error":"unauthorized","reason":"expired"}"#
    )

    /// SDK authentication on: `tokens` by user; a rejection of `current`'s request is held (the
    /// engine asked the handler), anyone else's is dropped. `rejections` records the token of each
    /// rejection the engine heard about.
    private final class Auth: Sendable {
        let tokens = Locked<[String: String]>(["u1": "t1"])
        let current = Locked<String?>("u1")
        let rejections = Locked<[String?]>([])

        var authorization: RequestAuthorization {
            RequestAuthorization(
                isEnabled: { true },
                token: { [tokens] userId in userId.flatMap { tokens.value[$0] } },
                rejected: { [current, rejections] userId, token, _ in
                    rejections.withLock { $0.append(token) }
                    return userId == current.value ? .hold : .drop
                }
            )
        }
    }

    private static func bearer(_ request: HTTPRequest) -> String? {
        request.header("Authorization")
    }

    @Test("a current user's 401 backs off like any counted failure: 10 retries at 1, 3, 7 … s, then dropped")
    func currentUserBacksOff() throws {
        let auth = Auth()
        let rig = DurableRig(authorization: auth.authorization)
        let origin = rig.scheduler.now()
        rig.channel.enqueue(write("w1", .identify, user: "u1"))
        rig.channel.enqueue(write("w2", .alias(label: "crm_id", name: "C-1"), user: "u1"))
        let delays: [TimeInterval] = [1, 2, 4, 8, 16, 32, 60, 60, 60, 60]
        for send in 1...11 {
            #expect(rig.sentIds == Array(repeating: "w1", count: send), "send \(send)")
            rig.answer(Self.unauthorized)
            if send <= 10 {
                rig.scheduler.advance(by: delays[send - 1] - 0.001)
                #expect(rig.transport.requests.count == send, "never before the backoff")
                rig.scheduler.advance(by: 0.001)
            }
        }
        #expect(rig.sentAt(after: origin).prefix(11) == [0, 1, 3, 7, 15, 31, 63, 123, 183, 243, 303])
        #expect(auth.rejections.value == Array(repeating: "t1", count: 11), "the engine heard every 401 (AUTH-9)")
        #expect(rig.transport.requests.allSatisfy { Self.bearer($0) == "Bearer t1" })
        #expect(rig.messages(.warning).count == 10)
        #expect(rig.results.value == Array(repeating: .http(status: 401, body: nil), count: 11))
        #expect(
            rig.messages(.error) == [
                "identify write dropped after 11 failed attempts, 10 of them retries (the server rejected the SDK-auth token)"
            ]
        )
        // The next write goes at once after the drop.
        #expect(rig.sentIds == Array(repeating: "w1", count: 11) + ["w2"])
        #expect(rig.sentAt(after: origin).last == 303)
        rig.answer(.ok)
        #expect(rig.channel.pendingCount == 0)
        #expect(try rig.storedIds().isEmpty)
    }

    @Test("a new token during the backoff sends the write again at once, with that token")
    func newTokenSkipsTheBackoff() {
        let auth = Auth()
        let rig = DurableRig(authorization: auth.authorization)
        let origin = rig.scheduler.now()
        rig.channel.enqueue(write("w1", .identify, user: "u1"))
        rig.answer(Self.unauthorized)
        rig.scheduler.advance(by: 0.5)
        #expect(rig.transport.requests.count == 1)
        auth.tokens.withLock { $0["u1"] = "t2" }
        rig.channel.authorizationChanged()
        #expect(rig.sentAt(after: origin) == [0, 0.5])
        #expect(rig.transport.requests.map(Self.bearer) == ["Bearer t1", "Bearer t2"])
        rig.answer(.ok)
        #expect(rig.channel.pendingCount == 0)
        // A token change with nothing rejected sends nothing and moves nothing.
        rig.channel.authorizationChanged()
        rig.scheduler.advance(by: 3600)
        #expect(rig.transport.requests.count == 2)
    }

    @Test("a token that arrived while the request was on the wire sends it again at once (counted)")
    func tokenArrivedInFlight() {
        let auth = Auth()
        let rig = DurableRig(authorization: auth.authorization)
        let origin = rig.scheduler.now()
        rig.channel.enqueue(write("w1", .identify, user: "u1"))
        auth.tokens.withLock { $0["u1"] = "t2" }
        rig.answer(Self.unauthorized)
        #expect(rig.sentAt(after: origin) == [0, 0])
        #expect(rig.transport.requests.map(Self.bearer) == ["Bearer t1", "Bearer t2"])
        #expect(rig.messages(.warning).contains { $0.contains("retry 1 of 10") })
    }

    @Test("a new token skips only the backoff of a 401, never a Retry-After or the backoff of a 503")
    func newTokenKeepsRetryAfter() {
        let auth = Auth()
        let rig = DurableRig(authorization: auth.authorization)
        let origin = rig.scheduler.now()
        rig.channel.enqueue(write("w1", .identify, user: "u1"))
        rig.answer(.json(503, "", headers: ["Retry-After": "30"]))
        rig.scheduler.advance(by: 30)
        rig.answer(Self.unauthorized)
        auth.tokens.withLock { $0["u1"] = "t2" }
        rig.channel.authorizationChanged()
        #expect(rig.sentAt(after: origin) == [0, 30, 30])
        rig.answer(.json(503, "", headers: ["Retry-After": "30"]))
        rig.channel.authorizationChanged()
        rig.scheduler.advance(by: 29.999)
        #expect(rig.transport.requests.count == 3, "a token change after a 503 skips nothing")
        rig.scheduler.advance(by: 0.001)
        #expect(rig.sentAt(after: origin) == [0, 30, 30, 60])
    }

    @Test("after maxRetries failures in a row the channel waits for a trigger, and a new token is one")
    func maxRetriesThenToken() {
        let auth = Auth()
        let rig = DurableRig(maxRetries: 2, authorization: auth.authorization)
        let origin = rig.scheduler.now()
        rig.channel.enqueue(write("w1", .identify, user: "u1"))
        for delay: TimeInterval in [1, 2] {
            rig.answer(Self.unauthorized)
            rig.scheduler.advance(by: delay)
        }
        rig.answer(Self.unauthorized)
        #expect(rig.sentAt(after: origin) == [0, 1, 3])
        rig.scheduler.advance(by: 3600)
        #expect(rig.transport.requests.count == 3)
        auth.tokens.withLock { $0["u1"] = "t2" }
        rig.channel.authorizationChanged()
        #expect(rig.transport.requests.count == 4)
        #expect(rig.transport.requests.last.map(Self.bearer) == "Bearer t2")
    }

    @Test("a departed user's write is dropped on its 401 and the next write goes at once (DURABLE-15)")
    func departedUserDropped() {
        let auth = Auth()
        auth.current.withLock { $0 = "u2" }
        let rig = DurableRig(authorization: auth.authorization)
        rig.channel.enqueue(write("w1", .identify, user: "u1"))
        rig.channel.enqueue(write("w2", .subscription(channel: "email", status: "unsubscribed"), user: "u1"))
        rig.answer(Self.unauthorized)
        #expect(rig.sentIds == ["w1", "w2"])
        #expect(rig.channel.pending.map(\.id) == ["w2"])
    }
}
