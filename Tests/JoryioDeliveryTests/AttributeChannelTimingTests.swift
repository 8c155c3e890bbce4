import Foundation
import JoryioCore
import JoryioDelivery
import JoryioTesting
import Testing

@Suite struct AttributeChannelTimingTests {
    // ATTR-9: a lone write goes at once (leading edge); the rest coalesce in the 800 ms window.
    @Test("GAP-30: a single write leaves at once; the next waits for the end of the 800 ms window, to the millisecond")
    func leadingEdgeThenWindow() {
        let h = AttributeHarness()
        h.enqueue(h.write("w1", "plan", .set("pro")))
        #expect(h.requests.count == 1)
        #expect(h.sentAt(0) == "2026-01-01T00:00:00.000Z")
        #expect(h.channel.isSending)

        h.advance(to: 0.1)
        h.answerSuccess()
        #expect(!h.channel.isSending)
        #expect(h.channel.pendingCount == 0)

        h.advance(to: 0.2)
        h.enqueue(h.write("w2", "plan", .set("max")))
        h.advance(to: 0.5)
        h.enqueue(h.write("w3", "seats", .set(3)))
        h.advance(to: 0.799)
        #expect(h.requests.count == 1)
        h.advance(to: 0.8)
        #expect(h.requests.count == 2)
        #expect(h.sentAt(1) == "2026-01-01T00:00:00.800Z")
        #expect(h.ids(1) == ["w2", "w3"])
        h.answerSuccess()

        // Long after the window, a write leaves at once again.
        h.advance(to: 5)
        h.enqueue(h.write("w4", "plan", .set("free")))
        #expect(h.requests.count == 3)
        #expect(h.sentAt(2) == "2026-01-01T00:00:05.000Z")
        #expect(h.results.value.count == 2)
        #expect(h.results.value.allSatisfy { $0 == nil })
    }

    @Test("ATTR-10: a write made while a request is in flight waits for its response and never cancels it")
    func inFlightWriteWaits() {
        let h = AttributeHarness()
        h.enqueue(h.write("w1", "visits", .increment(1)))
        h.advance(to: 0.3)
        h.enqueue(h.write("w2", "visits", .increment(2)))
        h.advance(to: 5)
        #expect(h.requests.count == 1)
        #expect(h.transport.inFlight == 1)
        #expect(h.channel.isSending)
        #expect(h.channel.pendingCount == 2)
        // The in-flight increment is not merged with the new one: each is counted exactly once.
        #expect(h.operations(0).map { $0["by"] } == [1])

        h.answerSuccess()
        // The response came after the window: the waiting write leaves right away.
        #expect(h.requests.count == 2)
        #expect(h.sentAt(1) == "2026-01-01T00:00:05.000Z")
        #expect(h.operations(1).map { $0["by"] } == [2])
        #expect(h.ids(1) == ["w2"])
    }

    @Test("ATTR-9 / GAP-30: 500 calls at the same instant make 2 requests: 1 at once, then 499 after 800 ms")
    func burstOf500() {
        let h = AttributeHarness()
        for index in 0..<500 {
            h.channel.enqueue([h.write("w\(index)", "k\(index)", .set(.int(Int64(index))))])
        }
        h.scheduler.runUntilIdle()
        #expect(h.requests.count == 1)
        #expect(h.ids(0) == ["w0"])
        h.answerSuccess()
        h.advance(to: 0.799)
        #expect(h.requests.count == 1)
        h.advance(to: 0.8)
        #expect(h.requests.count == 2)
        #expect(h.ids(1) == (1..<500).map { "w\($0)" })
        #expect(
            h.operations(1).last == [
                "id": "w499", "op": "set", "key": "k499", "value": 499, "timestamp": "2026-01-01T00:00:00.000Z",
            ]
        )
        h.answerSuccess()
        h.advance(to: 10)
        #expect(h.requests.count == 2)
        #expect(h.channel.pendingCount == 0)
        #expect(h.stored == nil)
    }

    @Test("GAP-30: a burst is compacted: sets replace, increments add up, the result keeps the order of the survivors")
    func burstIsCompacted() {
        let h = AttributeHarness()
        h.enqueue(h.write("w0", "plan", .set("free")))
        // 499 more calls at the same instant.
        for index in 1..<500 {
            let write: AttributeWrite
            switch index % 3 {
            case 0: write = h.write("w\(index)", "visits", .increment(1))
            case 1: write = h.write("w\(index)", "plan", .set(.int(Int64(index))))
            default: write = h.write("w\(index)", "k\(index % 5)", .set(.int(Int64(index))))
            }
            h.channel.enqueue([write])
        }
        h.scheduler.runUntilIdle()
        h.answerSuccess()
        h.advance(to: 0.8)
        #expect(h.requests.count == 2)
        let operations = h.operations(1)
        // visits: the first increment (w3) collected all 166 deltas and kept its id and place.
        let visits = operations.filter { $0["key"] == "visits" }
        #expect(
            visits == [
                ["id": "w3", "op": "increment", "key": "visits", "by": 166, "timestamp": "2026-01-01T00:00:00.000Z"]
            ]
        )
        // plan: only the last set survives (w499 has index % 3 == 1).
        #expect(operations.filter { $0["key"] == "plan" }.map { $0["id"] } == ["w499"])
        // k0…k4 were set through index % 3 == 2: the last set of each survives.
        for residue in 0..<5 {
            let last = (1..<500).last { $0 % 3 == 2 && $0 % 5 == residue }
            #expect(
                operations.filter { $0["key"] == .string("k\(residue)") }.map(\.["id"]) == [
                    last.map { .string("w\($0)") }
                ]
            )
        }
        #expect(operations.count == 7)
        #expect(h.channel.pendingCount == 7)
    }

    @Test("a response later than the window lets the next request start right after it")
    func afterLateResponse() {
        let h = AttributeHarness()
        h.enqueue(h.write("w1", "a", .set(1)))
        h.advance(to: 0.5)
        h.enqueue(h.write("w2", "b", .set(2)))
        h.advance(to: 2.25)
        #expect(h.requests.count == 1)
        h.answerSuccess()
        #expect(h.requests.count == 2)
        #expect(h.sentAt(1) == "2026-01-01T00:00:02.250Z")
    }

    @Test("while paused nothing is sent but writes are stored; unpausing sends them at once")
    func pausedHoldsThenResumes() throws {
        let h = AttributeHarness()
        h.channel.setCollectionAllowed(false)
        h.enqueue(h.write("w1", "a", .set(1)), h.write("w2", "b", .unset))
        h.advance(to: 30)
        #expect(h.requests.isEmpty)
        #expect(!h.channel.isCollectionAllowed)
        #expect(h.storedQueue?.waiting.map(\.id) == ["w1", "w2"])
        #expect(h.storedQueue?.batches.isEmpty == true)

        h.channel.setCollectionAllowed(true)
        h.scheduler.runUntilIdle()
        #expect(h.requests.count == 1)
        #expect(h.ids(0) == ["w1", "w2"])
        #expect(h.sentAt(0) == "2026-01-01T00:00:30.000Z")
    }

    @Test("pausing cancels a scheduled send; nothing leaves until unpaused")
    func pauseCancelsTimer() {
        let h = AttributeHarness()
        h.enqueue(h.write("w1", "a", .set(1)))
        h.answerSuccess()
        h.enqueue(h.write("w2", "b", .set(2)))
        h.channel.setCollectionAllowed(false)
        h.advance(to: 5)
        #expect(h.requests.count == 1)
        h.channel.setCollectionAllowed(true)
        h.scheduler.runUntilIdle()
        #expect(h.requests.count == 2)
        #expect(h.ids(1) == ["w2"])
    }
}
