import Foundation
import JoryioCore
import JoryioDelivery
import JoryioTesting
import Testing

/// What each class of answer does to a write (DURABLE-6…10). Backoff is 1 s × 2^(n−1), capped at
/// 60 s, with no jitter.
@Suite struct DurableWriteChannelResponseTests {
    private let identify = DurableWrite.Kind.identify
    private let alias = DurableWrite.Kind.alias(label: "crm_id", name: "C-1")
    private let subscribe = DurableWrite.Kind.subscription(channel: "email", status: "subscribed")
    private let unsubscribe = DurableWrite.Kind.subscription(channel: "email", status: "unsubscribed")

    @Test(
        "GAP-62: 400/403/409/413/422 drop the write, log it, and the next write goes at once",
        arguments: [400, 403, 409, 413, 422]
    )
    func permanentRejection(status: Int) throws {
        let rig = DurableRig()
        rig.channel.enqueue(write("w1", self.alias, user: "u1"))
        rig.channel.enqueue(write("w2", self.identify, user: "u1"))
        rig.answer(.json(status, #"{"success":false,"error":"x"}"#))
        #expect(rig.sentIds == ["w1", "w2"])
        #expect(try rig.storedIds() == ["w2"])
        #expect(rig.messages(.error) == ["alias write rejected by the server (HTTP \(status)); dropped"])
        #expect(rig.results.value == [.http(status: status, body: nil)])
        rig.answer(.ok)
        rig.scheduler.advance(by: 3600)
        #expect(rig.sentIds == ["w1", "w2"])
    }

    @Test(
        "success:false and 401 are retried with backoff at most 10 times (11 sends), then dropped (DURABLE-8)",
        arguments: [
            HTTPResponse.notOK, HTTPResponse.json(401, #"{"error":"unauthorized"}"#),
        ]
    )
    func countedRetries(response: HTTPResponse) throws {
        let rig = DurableRig()
        let origin = rig.scheduler.now()
        rig.channel.enqueue(write("w1", self.identify, user: "u1"))
        rig.channel.enqueue(write("w2", self.unsubscribe, user: "u1"))
        // The first send, then 10 retries, each after its backoff (1 s × 2^(n−1), capped at 60 s).
        let delays: [TimeInterval] = [1, 2, 4, 8, 16, 32, 60, 60, 60, 60]
        for send in 1...11 {
            #expect(rig.sentIds == Array(repeating: "w1", count: send))
            rig.answer(response)
            if send <= 10 {
                // Never before the backoff: one millisecond early nothing goes.
                rig.scheduler.advance(by: delays[send - 1] - 0.001)
                #expect(rig.transport.requests.count == send)
                rig.scheduler.advance(by: 0.001)
            }
        }
        #expect(rig.sentAt(after: origin) == [0, 1, 3, 7, 15, 31, 63, 123, 183, 243, 303])
        #expect(rig.channel.pending.map(\.id) == ["w2"])
        #expect(rig.messages(.error).count == 1)
        #expect(
            rig.messages(.error).first?.hasPrefix("identify write dropped after 11 failed attempts, 10 of them retries")
                == true
        )
        #expect(rig.messages(.warning).count == 10)
        #expect(rig.messages(.warning).last?.contains("retry 10 of 10 follows with backoff") == true)
        rig.scheduler.advance(by: 60)
        #expect(rig.sentIds == Array(repeating: "w1", count: 11) + ["w2"])
        rig.answer(.ok)
        #expect(try rig.storedIds().isEmpty)
    }

    @Test(
        "404 on a subscription with events queued waits for eventsDelivered(), retried at most 5 times (6 sends; DURABLE-7, SUB-9); the head blocks"
    )
    func notFoundWaitsForEvents() throws {
        let rig = DurableRig()
        rig.eventsWaiting.withLock { $0 = true }
        rig.channel.enqueue(write("w1", self.subscribe))
        rig.channel.enqueue(write("w2", .optOutRecord(optedOut: true)))
        for send in 1...6 {
            #expect(rig.sentIds == Array(repeating: "w1", count: send))
            rig.answer(.json(404, #"{"success":false,"error":"profile_not_found"}"#))
            if send <= 5 {
                rig.scheduler.advance(by: 120)
                rig.channel.trigger()
                #expect(rig.transport.requests.count == send, "waits for the events, and w2 waits behind it")
                rig.channel.eventsDelivered()
            }
        }
        #expect(
            rig.messages(.error) == [
                "subscription write dropped after 6 answers of HTTP 404 (no profile), 5 of them to retries"
            ]
        )
        #expect(rig.sentIds == Array(repeating: "w1", count: 6) + ["w2"])
        #expect(rig.results.value == Array(repeating: .http(status: 404, body: nil), count: 6))
        rig.answer(.ok)
        #expect(try rig.storedIds().isEmpty)
    }

    @Test("a 404 waiting for events is resent after eventsWaitLimit when no events get through")
    func notFoundWaitLimit() {
        let rig = DurableRig()
        rig.eventsWaiting.withLock { $0 = true }
        rig.channel.enqueue(write("w1", .subscriptionGroup(channel: "sms", groupId: "g", join: true)))
        rig.answer(.json(404, ""))
        rig.scheduler.advance(by: 299.999)
        #expect(rig.transport.requests.count == 1)
        rig.scheduler.advance(by: 0.001)
        #expect(rig.sentIds == ["w1", "w1"])
    }

    @Test(
        "404 on a subscription with no events queued is retried after backoff, at most 5 times (6 sends; DURABLE-7, SUB-9)"
    )
    func notFoundBacksOff() throws {
        let rig = DurableRig()
        let origin = rig.scheduler.now()
        rig.channel.enqueue(write("w1", self.unsubscribe))
        let delays: [TimeInterval] = [1, 2, 4, 8, 16]
        for send in 1...6 {
            #expect(rig.transport.requests.count == send)
            rig.answer(.json(404, ""))
            if send <= 5 {
                rig.scheduler.advance(by: delays[send - 1] - 0.001)
                #expect(rig.transport.requests.count == send)
                rig.scheduler.advance(by: 0.001)
            }
        }
        rig.scheduler.advance(by: 3600)
        #expect(rig.transport.requests.count == 6)
        #expect(rig.sentAt(after: origin) == [0, 1, 3, 7, 15, 31])
        #expect(rig.channel.pendingCount == 0)
        #expect(try rig.storedIds().isEmpty)
    }

    @Test("404 on another endpoint, 405, 5xx and 429 are never counted")
    func notFoundElsewhereUncounted() throws {
        let rig = DurableRig()
        rig.channel.enqueue(write("w1", self.alias))
        let answers: [HTTPResponse] = [.json(404, ""), .json(405, ""), .json(500, ""), .json(503, ""), .json(429, "")]
        for round in 0..<14 {
            rig.answer(answers[round % answers.count])
            rig.scheduler.advance(by: 60)
        }
        #expect(rig.transport.requests.count == 15)
        #expect(rig.channel.pending.map(\.id) == ["w1"])
        rig.answer(.ok)
        #expect(rig.channel.pendingCount == 0)
        #expect(!rig.messages(.error).contains { $0.contains("dropped") })
    }

    @Test("5xx and 429 are never resent before Retry-After, not even by trigger()", arguments: [503, 429])
    func retryAfter(status: Int) {
        let rig = DurableRig()
        rig.channel.enqueue(write("w1", self.identify, user: "u1"))
        rig.answer(.json(status, "", headers: ["Retry-After": "30"]))
        rig.scheduler.advance(by: 29.999)
        rig.channel.trigger()
        rig.channel.enqueue(write("w2", self.unsubscribe))
        #expect(rig.transport.requests.count == 1)
        rig.scheduler.advance(by: 0.001)
        #expect(rig.sentIds == ["w1", "w1"])
        #expect(rig.results.value == [.http(status: status, body: nil)])
    }

    @Test("offline and timeouts are never counted: 12 failures, then delivered")
    func offlineUncounted() {
        let rig = DurableRig()
        rig.channel.enqueue(write("w1", self.identify, user: "u1"))
        for round in 0..<12 {
            rig.answer(.failure(TransportError(round.isMultiple(of: 2) ? .cannotConnect : .timeout, "scripted")))
            rig.scheduler.advance(by: 60)
        }
        #expect(rig.transport.requests.count == 13)
        rig.answer(.ok)
        #expect(rig.channel.pendingCount == 0)
        #expect(rig.results.value.last == .some(nil))
        #expect(
            rig.results.value.dropLast().allSatisfy {
                $0 == .timeout || $0 == .network("TransportError(cannotConnect): scripted")
            }
        )
    }

    @Test("after maxRetries failures in a row the channel waits for the next trigger")
    func maxRetriesWaitsForTrigger() {
        let rig = DurableRig(maxRetries: 2)
        rig.channel.enqueue(write("w1", self.identify, user: "u1"))
        for _ in 0..<3 {
            rig.answer(.json(500, ""))
            rig.scheduler.advance(by: 60)
        }
        #expect(rig.transport.requests.count == 3)
        rig.scheduler.advance(by: 3600)
        #expect(rig.transport.requests.count == 3)
        rig.channel.trigger()
        #expect(rig.transport.requests.count == 4)
    }

    @Test("DURABLE-10: 402 on a non-withdrawal holds non-withdrawals for this instance; withdrawals still go")
    func paymentRequiredHoldsCollecting() throws {
        let rig = DurableRig()
        rig.channel.enqueue(write("w1", self.identify, user: "u1"))
        rig.channel.enqueue(write("w2", self.alias, user: "u1"))
        rig.channel.enqueue(write("w3", self.unsubscribe, user: "u1"))
        rig.answer(.json(402, ""))
        #expect(rig.channel.isStopped)
        #expect(rig.sentIds == ["w1", "w3"])
        rig.answer(.ok)
        rig.scheduler.advance(by: 3600)
        rig.channel.trigger()
        rig.channel.setCollectionAllowed(true)
        #expect(rig.sentIds == ["w1", "w3"])

        rig.channel.enqueue(write("w4", .subscriptionGroup(channel: "sms", groupId: "g", join: true)))
        rig.channel.enqueue(write("w5", .pushUnregister(token: "t")))
        #expect(rig.sentIds == ["w1", "w3", "w5"])
        rig.answer(.ok)
        #expect(rig.channel.pending.map(\.id) == ["w1", "w2", "w4"])
        #expect(try rig.storedIds() == ["w1", "w2", "w4"])
        #expect(
            rig.messages(.warning).contains(
                "HTTP 402: identify, alias and subscription writes wait for the next launch; withdrawals still go"
            )
        )
    }

    @Test("a 402 with Retry-After holds the withdrawals behind it until then")
    func paymentRequiredRetryAfter() {
        let rig = DurableRig()
        rig.channel.enqueue(write("w1", self.subscribe))
        rig.channel.enqueue(write("w2", .pushUnregister(token: "t")))
        rig.answer(.json(402, "", headers: ["Retry-After": "20"]))
        rig.scheduler.advance(by: 19.999)
        #expect(rig.sentIds == ["w1"])
        rig.scheduler.advance(by: 0.001)
        #expect(rig.sentIds == ["w1", "w2"])
    }

    @Test("402 on a withdrawal backs off and is never counted")
    func paymentRequiredOnWithdrawal() {
        let rig = DurableRig()
        rig.channel.enqueue(write("w1", .optOutRecord(optedOut: true)))
        rig.channel.enqueue(write("w2", self.identify, user: "u1"))
        rig.answer(.json(402, ""))
        rig.scheduler.advance(by: 0.999)
        #expect(rig.transport.requests.count == 1)
        rig.scheduler.advance(by: 0.001)
        #expect(rig.sentIds == ["w1", "w1"])
        for _ in 0..<11 {
            rig.answer(.json(402, ""))
            rig.scheduler.advance(by: 60)
        }
        #expect(rig.sentIds == Array(repeating: "w1", count: 13))
        #expect(!rig.channel.isStopped)
        rig.answer(.ok)
        #expect(rig.sentIds.last == "w2")
        rig.answer(.ok)
        #expect(rig.channel.pendingCount == 0)
    }
}
