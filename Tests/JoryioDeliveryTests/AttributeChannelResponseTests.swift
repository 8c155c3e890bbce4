import Foundation
import JoryioCore
import JoryioDelivery
import JoryioTesting
import Testing

@Suite struct AttributeChannelResponseTests {
    // ATTR-7: a write stays queued through failures until the server confirms it.
    @Test(
        "GAP-8: after a timeout the retry repeats the same Idempotency-Key and the same operations, after the backoff"
    )
    func retryAfterTimeoutUsesSameKey() {
        let h = AttributeHarness(backoffBase: 2)
        h.enqueue(h.write("w1", "visits", .increment(1)), h.write("w2", "plan", .set("pro")))
        // Both writes were enqueued in one call: leading edge sends both.
        #expect(h.ids(0) == ["w1", "w2"])
        h.advance(to: 0.1)
        h.fail(.timeout)
        #expect(h.results.value == [.timeout])
        #expect(h.channel.pendingCount == 2)

        // A write during the backoff does not bypass it.
        h.advance(to: 1)
        h.enqueue(h.write("w3", "visits", .increment(5)))
        h.advance(to: 2.099)
        #expect(h.requests.count == 1)
        h.advance(to: 2.1)
        #expect(h.requests.count == 2)
        #expect(h.idempotencyKey(1) == h.idempotencyKey(0))
        #expect(h.operations(1) == h.operations(0))
        #expect(h.sentAt(1) == "2026-01-01T00:00:02.100Z")

        // Then the write made during the backoff, in its own request with a new key, a window later.
        h.answerSuccess()
        h.advance(to: 2.899)
        #expect(h.requests.count == 2)
        h.advance(to: 2.9)
        #expect(h.requests.count == 3)
        #expect(h.ids(2) == ["w3"])
        #expect(h.idempotencyKey(2) != h.idempotencyKey(0))
    }

    @Test("backoff doubles after each failure (5xx, network) and keeps the same key")
    func exponentialBackoff() {
        let h = AttributeHarness(backoffBase: 1)
        h.enqueue(h.write("w1", "a", .set(1)))
        h.answer(status: 503, body: "down")
        h.advance(to: 0.999)
        #expect(h.requests.count == 1)
        h.advance(to: 1)
        #expect(h.requests.count == 2)
        h.fail(.cannotConnect)
        h.advance(to: 2.999)
        #expect(h.requests.count == 2)
        h.advance(to: 3)
        #expect(h.requests.count == 3)
        #expect(Set((0..<3).compactMap { h.idempotencyKey($0) }).count == 1)
        #expect(h.results.value.first == .http(status: 503, body: "down"))
        h.answerSuccess()
        #expect(h.channel.pendingCount == 0)
    }

    @Test("Retry-After is honoured even when longer than the backoff, and trigger() does not skip it")
    func retryAfterHonoured() {
        let h = AttributeHarness(backoffBase: 1)
        h.enqueue(h.write("w1", "a", .set(1)))
        h.answer(status: 429, body: "", headers: ["Retry-After": "10"])
        h.advance(to: 5)
        h.channel.trigger()
        h.scheduler.runUntilIdle()
        h.advance(to: 9.999)
        #expect(h.requests.count == 1)
        h.advance(to: 10)
        #expect(h.requests.count == 2)
        #expect(h.idempotencyKey(1) == h.idempotencyKey(0))
    }

    @Test("trigger() skips the channel's own backoff but not the request in flight")
    func retrySkipsBackoff() {
        let h = AttributeHarness(backoffBase: 60)
        h.enqueue(h.write("w1", "a", .set(1)))
        h.fail()
        h.advance(to: 3)
        h.channel.trigger()
        h.scheduler.runUntilIdle()
        #expect(h.requests.count == 2)
        #expect(h.idempotencyKey(1) == h.idempotencyKey(0))
        h.channel.trigger()
        h.scheduler.runUntilIdle()
        #expect(h.requests.count == 2)
    }

    @Test("after maxRetries failures the channel waits for a trigger (the next write) instead of a timer")
    func maxRetries() {
        let h = AttributeHarness(maxRetries: 1, backoffBase: 1)
        h.enqueue(h.write("w1", "a", .set(1)))
        h.fail()
        h.advance(to: 1)
        #expect(h.requests.count == 2)
        h.fail()
        h.advance(to: 100)
        #expect(h.requests.count == 2)
        h.enqueue(h.write("w2", "b", .set(2)))
        // The stored batch goes first, unchanged.
        #expect(h.requests.count == 3)
        #expect(h.ids(2) == ["w1"])
        #expect(h.idempotencyKey(2) == h.idempotencyKey(0))
        h.answerSuccess()
        h.advance(to: 100.8)
        #expect(h.ids(3) == ["w2"])
    }

    @Test("a foreground trigger that arrives while the request is on the wire still counts when it fails")
    func triggerDuringFlight() {
        let h = AttributeHarness(maxRetries: 1, backoffBase: 1)
        h.enqueue(h.write("w1", "a", .set(1)))
        h.fail()
        h.advance(to: 1)
        #expect(h.requests.count == 2, "the one retry the budget allows is on the wire")
        h.channel.trigger()  // the app returns to the foreground meanwhile
        h.scheduler.runUntilIdle()
        h.fail()
        h.advance(to: 100)
        #expect(h.requests.count == 3, "the trigger gave a fresh budget: a timer resends")
        #expect(h.idempotencyKey(2) == h.idempotencyKey(0))
    }

    @Test(
        "ATTR-11 / ATTR-14: 200 with success:false keeps the stored writes; they are deleted once confirmed",
        arguments: [
            #"{"success":false,"error":"busy"}"#, "<html>portal</html>",
        ]
    )
    func successFalseKept(body: String) {
        let h = AttributeHarness(backoffBase: 1)
        h.enqueue(h.write("w1", "a", .set(1)), h.write("w2", "b", .increment(2)))
        h.answer(status: 200, body: body)
        #expect(h.channel.pendingCount == 2)
        #expect(h.storedQueue?.batches.first?.writes.map(\.id) == ["w1", "w2"])
        if case .server = h.results.value.first ?? nil {} else { Issue.record("expected a server error") }
        h.advance(to: 1)
        #expect(h.requests.count == 2)
        #expect(h.operations(1) == h.operations(0))
        // The server answered without applying anything: the retry has a new key (see decisions).
        #expect(h.idempotencyKey(1) != h.idempotencyKey(0))
        h.answerSuccess()
        #expect(h.channel.pendingCount == 0)
        #expect(h.stored == nil)
    }

    @Test(
        "ATTR-12: 400/413/422 split the batch until the single bad write is dropped and named",
        arguments: [400, 413, 422]
    )
    func splitToTheBadKey(status: Int) {
        let h = AttributeHarness()
        h.channel.setCollectionAllowed(false)
        h.enqueue(
            h.write("w1", "a", .set(1)),
            h.write("w2", "b", .set(2)),
            h.write("w3", "bad", .set(3)),
            h.write("w4", "d", .set(4))
        )
        h.channel.setCollectionAllowed(true)
        h.scheduler.runUntilIdle()
        h.answer(status: status, body: #"{"error":"invalid_operation"}"#)
        #expect(h.storedQueue?.batches.map { $0.writes.map(\.id) } == [["w1", "w2"], ["w3", "w4"]])
        h.advance(to: 0.8)
        #expect(h.ids(1) == ["w1", "w2"])
        h.answerSuccess()
        h.advance(to: 1.6)
        #expect(h.ids(2) == ["w3", "w4"])
        h.answer(status: status)
        h.advance(to: 2.4)
        #expect(h.ids(3) == ["w3"])
        h.answer(status: status)
        let warnings = h.messages(.warning)
        #expect(warnings.contains { $0.contains("\"bad\"") && $0.contains("HTTP \(status)") })
        h.advance(to: 3.2)
        #expect(h.ids(4) == ["w4"])
        h.answerSuccess()
        #expect(h.requests.count == 5)
        #expect(h.channel.pendingCount == 0)
        // Every request had its own key: the halves are new requests.
        #expect(Set((0..<5).compactMap { h.idempotencyKey($0) }).count == 5)
        #expect(h.results.value.filter { $0 == .http(status: status, body: nil) }.count == 3)
    }

    @Test("ATTR-16 / GAP-62: 403 drops the request's writes and logs; later writes are sent")
    func forbiddenDrops() {
        let h = AttributeHarness()
        h.enqueue(h.write("w1", "a", .set(1)))
        h.enqueue(h.write("w2", "b", .set(2)))
        h.answer(status: 403)
        #expect(h.channel.pendingCount == 1)
        #expect(h.storedQueue?.waiting.map(\.id) == ["w2"])
        #expect(h.storedQueue?.batches.isEmpty == true)
        #expect(h.messages(.error).contains { $0.contains("HTTP 403") && $0.contains("a") })
        h.advance(to: 0.8)
        #expect(h.ids(1) == ["w2"])
        h.answerSuccess()
        #expect(h.stored == nil)
    }

    @Test("402 keeps everything and stops attribute sending for this instance")
    func paymentRequiredStops() throws {
        let h = AttributeHarness()
        h.enqueue(h.write("w1", "a", .set(1)))
        let key = h.idempotencyKey(0)
        h.answer(status: 402)
        #expect(h.channel.isStopped)
        h.enqueue(h.write("w2", "b", .set(2)))
        h.channel.trigger()
        h.channel.setCollectionAllowed(false)
        h.channel.setCollectionAllowed(true)
        h.advance(to: 3600)
        #expect(h.requests.count == 1)
        #expect(h.channel.pendingCount == 2)
        let stored = try #require(h.storedQueue)
        #expect(stored.batches.map { $0.writes.map(\.id) } == [["w1"]])
        #expect(stored.batches.first?.idempotencyKey != key)
        #expect(stored.waiting.map(\.id) == ["w2"])
        #expect(h.results.value == [.http(status: 402, body: nil)])
    }

    @Test("discardCollected during a request forgets its batch: whatever the outcome it is never retried")
    func discardDuringFlight() {
        let h = AttributeHarness(backoffBase: 1)
        h.enqueue(h.write("w1", "a", .set(1)))
        h.enqueue(h.write("w2", "b", .set(2)))
        h.channel.discardCollected()
        #expect(h.channel.pendingCount == 0)
        #expect(h.stored == nil)
        #expect(h.channel.isSending)
        h.enqueue(h.write("w3", "c", .set(3)))
        #expect(h.requests.count == 1)
        h.fail(.timeout)
        // The new write waits out the backoff (the server may be down), then goes alone.
        h.advance(to: 0.999)
        #expect(h.requests.count == 1)
        h.advance(to: 1)
        #expect(h.requests.count == 2)
        #expect(h.ids(1) == ["w3"])
        #expect(h.idempotencyKey(1) != h.idempotencyKey(0))
        h.answerSuccess()
        h.advance(to: 100)
        #expect(h.requests.count == 2)
        #expect(h.stored == nil)
    }

    @Test("discardCollected while backing off drops the frozen batch and the timer")
    func discardDuringBackoff() {
        let h = AttributeHarness(backoffBase: 1)
        h.enqueue(h.write("w1", "a", .set(1)))
        h.fail()
        h.channel.discardCollected()
        h.advance(to: 100)
        #expect(h.requests.count == 1)
        #expect(h.stored == nil)
        #expect(h.messages(.info).contains { $0.contains("purged 1") })
    }
}
