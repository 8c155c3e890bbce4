import Foundation
import JoryioCore
import JoryioDelivery
import JoryioTesting
import Testing

@Suite struct AttributeChannelPersistenceTests {
    // ATTR-14: unconfirmed writes are in the store (the engine gives it the secure store) before enqueue returns.
    @Test("writes are stored before enqueue returns, and the batch with its key before the request leaves")
    func storedBeforeReturn() throws {
        let h = AttributeHarness()
        h.channel.enqueue([h.write("w1", "plan", .set("pro"))])
        // Nothing has run on the scheduler yet: the write is stored, and the request that left
        // synchronously is stored as a batch with its key.
        let stored = try #require(h.storedQueue)
        #expect(
            stored.batches == [
                AttributeBatch(idempotencyKey: AttributeHarness.key(1), writes: [h.write("w1", "plan", .set("pro"))])
            ]
        )
        #expect(h.idempotencyKey(0) == AttributeHarness.key(1))
        let text = String(decoding: try #require(h.stored), as: UTF8.self)
        #expect(text.contains(#""format":1"#))
        #expect(text.contains(#""idempotencyKey":"00000000-0000-4000-8000-000000000001""#))
    }

    @Test(
        "ATTR-7 / ATTR-14 / GAP-8: after a restart the stored in-flight request is sent first, with the same key and operations"
    )
    func restartResendsInFlight() throws {
        let store = TestSecureStore()
        let first = AttributeHarness(store: store)
        first.enqueue(first.write("w1", "visits", .increment(1)), first.write("w2", "plan", .set("pro")))
        first.enqueue(first.write("w3", "seats", .set(4)))
        #expect(first.requests.count == 1)
        // The process dies with the request in flight (its answer never arrives).

        let second = AttributeHarness(store: store, firstKey: 100)
        second.channel.load()
        second.scheduler.runUntilIdle()
        #expect(second.requests.count == 1)
        #expect(second.idempotencyKey(0) == first.idempotencyKey(0))
        #expect(second.operations(0) == first.operations(0))
        #expect(second.channel.pendingCount == 3)
        second.answerSuccess()
        second.advance(to: 0.8)
        #expect(second.ids(1) == ["w3"])
        #expect(second.idempotencyKey(1) == AttributeHarness.key(100))
        second.answerSuccess()
        #expect(store.items[AttributeHarness.storageKey] == nil)
    }

    @Test("confirmed while the store is full: nothing resent, one error, stored again with backoff once space returns")
    func storeFullAfterConfirmation() throws {
        let store = TestSecureStore()
        let h = AttributeHarness(store: store)
        h.enqueue(h.write("w1", "plan", .set("pro")))
        store.setFailWrites(true)
        h.answerSuccess()
        h.advance(to: 1)
        h.enqueue(h.write("w2", "seats", .set(4)))
        h.answerSuccess()
        h.advance(to: 30)
        #expect(h.requests.count == 2)
        #expect(h.ids(0) == ["w1"] && h.ids(1) == ["w2"])
        #expect(h.channel.pendingCount == 0)
        #expect(h.messages(.error).filter { $0.hasPrefix("cannot store attribute writes") }.count == 1)
        // The stored item still holds the confirmed w1: the disk refused every change since.
        #expect(h.storedQueue?.count == 1)

        store.setFailWrites(false)
        h.advance(to: 90)
        #expect(h.stored == nil)
        #expect(h.messages(.info).contains { $0.hasSuffix("storage works again") })

        // A restart finds nothing to resend.
        let restarted = AttributeHarness(store: store)
        restarted.channel.load()
        restarted.scheduler.runUntilIdle()
        #expect(restarted.requests.isEmpty)
    }

    @Test("a write before load() loads first: stored writes are kept ahead of it; load() runs once")
    func enqueueBeforeLoad() throws {
        let store = TestSecureStore()
        let first = AttributeHarness(store: store)
        first.channel.setCollectionAllowed(false)
        first.enqueue(first.write("w1", "a", .set(1)), first.write("w2", "visits", .increment(1)))

        let second = AttributeHarness(store: store)
        second.channel.setCollectionAllowed(false)
        second.enqueue(second.write("w3", "visits", .increment(2)))
        second.channel.load()
        second.channel.load()
        #expect(second.channel.queue.waiting.map(\.id) == ["w1", "w2"])
        #expect(second.channel.queue.waiting.last?.operation == .increment(3))
        #expect(try #require(second.storedQueue).waiting.map(\.id) == ["w1", "w2"])
        second.channel.setCollectionAllowed(true)
        second.scheduler.runUntilIdle()
        #expect(second.requests.count == 1)
        #expect(second.ids(0) == ["w1", "w2"])
    }

    @Test("a restart during backoff resends the split halves in order with their keys")
    func restartKeepsHalves() throws {
        let store = TestSecureStore()
        let first = AttributeHarness(store: store)
        first.channel.setCollectionAllowed(false)
        first.enqueue(first.write("w1", "a", .set(1)), first.write("w2", "b", .set(2)), first.write("w3", "c", .set(3)))
        first.channel.setCollectionAllowed(true)
        first.scheduler.runUntilIdle()
        first.answer(status: 422)
        let halves = try #require(first.storedQueue).batches

        let second = AttributeHarness(store: store, firstKey: 100)
        second.channel.load()
        second.scheduler.runUntilIdle()
        #expect(second.ids(0) == ["w1"])
        #expect(second.idempotencyKey(0) == halves[0].idempotencyKey)
        second.answerSuccess()
        second.advance(to: 0.8)
        #expect(second.ids(1) == ["w2", "w3"])
        #expect(second.idempotencyKey(1) == halves[1].idempotencyKey)
    }

    @Test("values survive the round trip through the store unchanged")
    func valuesRoundTrip() throws {
        let store = TestSecureStore()
        let first = AttributeHarness(store: store)
        first.channel.setCollectionAllowed(false)
        let time = first.start.addingTimeInterval(0.123_456_789)
        let writes = [
            AttributeWrite(
                id: "w1",
                key: "n",
                operation: .set(["a": [1, 2.5, true, nil, "é\"\n"], "b": 1.0]),
                userId: nil,
                anonymousId: "a1",
                timestamp: time
            ),
            AttributeWrite(
                id: "w2",
                key: "i",
                operation: .increment(0.1 + 0.2),
                userId: "u",
                anonymousId: "a1",
                timestamp: time
            ),
            AttributeWrite(id: "w3", key: "u", operation: .unset, userId: "u", anonymousId: "a1", timestamp: time),
            AttributeWrite(
                id: "w4",
                key: "big",
                operation: .set(.int(9_007_199_254_740_993)),
                userId: "u",
                anonymousId: "a1",
                timestamp: time
            ),
        ]
        first.channel.enqueue(writes)
        let second = AttributeHarness(store: store)
        second.channel.setCollectionAllowed(false)
        second.channel.load()
        #expect(second.channel.queue.waiting == writes)
    }

    @Test(
        "corrupt stored data is logged, not sent and not overwritten until a new write",
        arguments: [
            "not json", #"{"format":1}"#,
            #"{"format":1,"batches":[{"idempotencyKey":"k","writes":[{"id":"x"}]}],"waiting":[]}"#,
            #"{"format":2,"batches":[],"waiting":[]}"#,
        ]
    )
    func corruptStore(text: String) throws {
        let store = TestSecureStore()
        store.preload(Data(text.utf8), forKey: AttributeHarness.storageKey)
        let h = AttributeHarness(store: store)
        h.channel.load()
        h.advance(to: 10)
        #expect(h.requests.isEmpty)
        #expect(h.channel.pendingCount == 0)
        #expect(h.messages(.error).contains { $0.contains("cannot read stored attribute writes") })
        #expect(h.stored == Data(text.utf8))
        h.channel.trigger()
        h.channel.discardCollected()
        // discardCollected() deletes whatever is stored (opt-out, reset): the item is gone.
        #expect(h.stored == nil)
    }

    @Test("a new write replaces the unreadable item, with a warning")
    func corruptReplacedByWrite() throws {
        let store = TestSecureStore()
        store.preload(Data("garbage".utf8), forKey: AttributeHarness.storageKey)
        let h = AttributeHarness(store: store)
        h.channel.load()
        h.enqueue(h.write("w1", "a", .set(1)))
        #expect(h.messages(.warning).contains { $0.contains("replacing the unreadable") })
        #expect(h.storedQueue?.batches.first?.writes.map(\.id) == ["w1"])
        #expect(h.ids(0) == ["w1"])
    }

    @Test("a store that cannot be read is treated like corrupt data")
    func unreadableStore() {
        let store = TestSecureStore()
        store.setFailReads(true)
        let h = AttributeHarness(store: store)
        h.channel.load()
        #expect(h.messages(.error).count == 1)
        #expect(h.channel.pendingCount == 0)
    }

    @Test("beyond maxPending the oldest waiting writes are dropped with a warning, never the in-flight ones")
    func maxPendingEviction() throws {
        let h = AttributeHarness(maxPending: 3)
        h.enqueue(h.write("w1", "a", .set(1)))
        h.enqueue(h.write("w2", "b", .set(2)), h.write("w3", "c", .set(3)))
        #expect(h.channel.pendingCount == 3)
        h.enqueue(h.write("w4", "d", .set(4)), h.write("w5", "e", .set(5)))
        #expect(h.channel.pendingCount == 3)
        let stored = try #require(h.storedQueue)
        #expect(stored.batches.map { $0.writes.map(\.id) } == [["w1"]])
        #expect(stored.waiting.map(\.id) == ["w4", "w5"])
        #expect(h.messages(.warning).contains { $0.contains("dropped the 2 oldest waiting attribute writes") })
        // Compaction comes first: a replacement does not evict anything.
        h.enqueue(h.write("w6", "e", .set(6)))
        #expect(h.channel.queue.waiting.map(\.id) == ["w4", "w6"])
        #expect(h.messages(.warning).count == 1)
    }

    @Test("maxPending never drops the in-flight batch, even when it alone is over the limit")
    func maxPendingKeepsInFlight() {
        let h = AttributeHarness(maxPending: 1)
        h.channel.setCollectionAllowed(false)
        h.enqueue(h.write("w1", "a", .set(1)))
        h.channel.setCollectionAllowed(true)
        h.scheduler.runUntilIdle()
        h.enqueue(h.write("w2", "b", .set(2)))
        #expect(h.channel.queue.waiting.isEmpty)
        #expect(h.channel.queue.batches.map { $0.writes.map(\.id) } == [["w1"]])
    }
}
