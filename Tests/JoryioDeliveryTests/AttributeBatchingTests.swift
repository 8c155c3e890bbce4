import Foundation
import JoryioCore
import JoryioDelivery
import JoryioTesting
import Testing

@Suite struct AttributeBatchingTests {
    private let time = Date(timeIntervalSince1970: 1_767_225_600)

    private func write(
        _ id: String,
        _ key: String,
        _ operation: AttributeWrite.Operation,
        user: String? = "u1",
        anonymous: String = "a1"
    ) -> AttributeWrite {
        .test(id, key, operation, user: user, anonymous: anonymous, at: self.time)
    }

    private func queue(_ writes: AttributeWrite...) -> AttributeQueue {
        var queue = AttributeQueue()
        for write in writes { queue.append(write) }
        return queue
    }

    // MARK: - Compaction

    @Test("a set or unset replaces every earlier waiting write of its key and goes to the tail")
    func setReplaces() {
        let queue = self.queue(
            self.write("w1", "plan", .set("a")),
            self.write("w2", "visits", .increment(1)),
            self.write("w3", "plan", .increment(2)),
            self.write("w4", "plan", .unset),
            self.write("w5", "other", .set(1)),
            self.write("w6", "plan", .set("b"))
        )
        #expect(queue.waiting.map(\.id) == ["w2", "w5", "w6"])
        #expect(queue.waiting.last?.operation == .set("b"))
    }

    @Test("an increment adds to a trailing waiting increment of its key, keeping its id and place")
    func incrementsMerge() {
        let later = self.time.addingTimeInterval(3)
        var queue = self.queue(self.write("w1", "visits", .increment(1)), self.write("w2", "other", .set(1)))
        queue.append(
            AttributeWrite(
                id: "w3",
                key: "visits",
                operation: .increment(2.5),
                userId: "u1",
                anonymousId: "a1",
                timestamp: later
            )
        )
        #expect(queue.waiting.map(\.id) == ["w1", "w2"])
        #expect(queue.waiting.first?.operation == .increment(3.5))
        #expect(queue.waiting.first?.timestamp == later)
    }

    @Test("an increment after a set or unset of its key stays separate: never a total (ATTR-3)")
    func incrementAfterSetStays() {
        let queue = self.queue(
            self.write("w1", "visits", .set(10)),
            self.write("w2", "visits", .increment(1)),
            self.write("w3", "n", .unset),
            self.write("w4", "n", .increment(1)),
            self.write("w5", "n", .increment(1))
        )
        #expect(queue.waiting.map(\.id) == ["w1", "w2", "w3", "w4"])
        #expect(queue.waiting.map(\.operation) == [.set(10), .increment(1), .unset, .increment(2)])
    }

    @Test("GAP-64: writes of another identity are never compacted together")
    func identitiesKeptApart() {
        let queue = self.queue(
            self.write("w1", "plan", .set("a"), user: "u1"),
            self.write("w2", "plan", .set("b"), user: "u2"),
            self.write("w3", "plan", .set("c"), user: nil),
            self.write("w4", "visits", .increment(1), user: "u1"),
            self.write("w5", "visits", .increment(1), user: "u1", anonymous: "a2")
        )
        #expect(queue.waiting.map(\.id) == ["w1", "w2", "w3", "w4", "w5"])
    }

    @Test("frozen batches are never compacted")
    func frozenUntouched() {
        var queue = self.queue(self.write("w1", "visits", .increment(1)))
        _ = queue.freezeNext(
            limits: .init(maxOperations: 500, maxUnsets: 200, maxBodyBytes: 921_600),
            idempotencyKey: "k"
        )
        queue.append(self.write("w2", "visits", .increment(1)))
        queue.append(self.write("w3", "visits", .set(0)))
        #expect(
            queue.batches == [AttributeBatch(idempotencyKey: "k", writes: [self.write("w1", "visits", .increment(1))])]
        )
        #expect(queue.waiting.map(\.id) == ["w3"])
    }

    // MARK: - Cutting requests

    @Test("GAP-64: a request carries one identity: a run from the head, in order")
    func identityGrouping() {
        let h = AttributeHarness()
        h.channel.setCollectionAllowed(false)
        h.enqueue(
            h.write("w1", "a", .set(1), user: "alice"),
            h.write("w2", "b", .set(2), user: "alice"),
            h.write("w3", "a", .set(3), user: "bob", anonymous: "a2"),
            h.write("w4", "c", .set(4), user: "alice"),
            h.write("w5", "d", .set(5), user: nil, anonymous: "a3")
        )
        h.channel.setCollectionAllowed(true)
        h.scheduler.runUntilIdle()
        var bodies: [JSONValue] = []
        for index in 0..<4 {
            h.advance(to: 0.8 * Double(index))
            #expect(h.requests.count == index + 1)
            bodies.append(h.body(index) ?? nil)
            h.answerSuccess()
        }
        #expect(bodies.map { $0["userId"] } == ["alice", "bob", "alice", nil])
        #expect(bodies.map { $0["anonymousId"] } == ["a1", "a2", "a1", "a3"])
        #expect((0..<4).map { h.ids($0) } == [["w1", "w2"], ["w3"], ["w4"], ["w5"]])
        #expect(bodies[3].objectValue?.keys.contains("userId") == false)
    }

    @Test("ATTR-13: at most 200 unsets per request; the rest, and what follows them, go in the next")
    func unsetLimit() {
        let h = AttributeHarness()
        h.channel.setCollectionAllowed(false)
        h.channel.enqueue((0..<250).map { h.write("u\($0)", "k\($0)", .unset) } + [h.write("s", "plan", .set(1))])
        h.channel.setCollectionAllowed(true)
        h.scheduler.runUntilIdle()
        #expect(h.operations(0).count == 200)
        #expect(h.operations(0).allSatisfy { $0["op"] == "unset" })
        h.answerSuccess()
        h.advance(to: 0.8)
        #expect(h.ids(1) == (200..<250).map { "u\($0)" } + ["s"])
    }

    @Test("at most 500 operations per request")
    func operationLimit() {
        let h = AttributeHarness()
        h.channel.setCollectionAllowed(false)
        h.channel.enqueue((0..<620).map { h.write("w\($0)", "k\($0)", .set(1)) })
        h.channel.setCollectionAllowed(true)
        h.scheduler.runUntilIdle()
        #expect(h.operations(0).count == 500)
        h.answerSuccess()
        h.advance(to: 0.8)
        #expect(h.operations(1).count == 120)
        #expect(h.ids(1).first == "w500")
    }

    @Test("the uncompressed body stays within maxBodyBytes; a single larger write still goes alone")
    func bodyLimit() throws {
        let h = AttributeHarness(maxBodyBytes: 1000)
        h.channel.setCollectionAllowed(false)
        let filler = String(repeating: "x", count: 300)
        h.channel.enqueue(
            (0..<5).map { h.write("w\($0)", "k\($0)", .set(.string(filler))) }
                + [h.write("huge", "h", .set(.string(String(repeating: "y", count: 2000))))]
        )
        h.channel.setCollectionAllowed(true)
        h.scheduler.runUntilIdle()
        var counts: [Int] = []
        for index in 0..<4 {
            h.advance(to: 0.8 * Double(index))
            let request = h.requests[index]
            let body = try #require(request.body)
            let uncompressed = request.header("Content-Encoding") == "gzip" ? body.count - 2 : body.count
            if h.ids(index) != ["huge"] { #expect(uncompressed <= 1000) }
            counts.append(h.operations(index).count)
            h.answerSuccess()
        }
        #expect(counts == [2, 2, 1, 1])
        #expect(h.ids(3) == ["huge"])
    }
}

@Suite struct AttributeWritePersonTests {
    private func write(user: String?, anonymous: String) -> AttributeWrite {
        AttributeWrite(
            id: "w",
            key: "k",
            operation: .unset,
            userId: user,
            anonymousId: anonymous,
            timestamp: Date(timeIntervalSince1970: 0)
        )
    }

    @Test("ATTR-17: a person's writes are the user's, and those made anonymously on the current anonymous id")
    func isOfPerson() {
        #expect(self.write(user: "u1", anonymous: "a0").isOfPerson(userId: "u1", anonymousId: "a1"))
        #expect(self.write(user: nil, anonymous: "a1").isOfPerson(userId: "u1", anonymousId: "a1"))
        #expect(self.write(user: nil, anonymous: "a1").isOfPerson(userId: nil, anonymousId: "a1"))
        #expect(!self.write(user: nil, anonymous: "a0").isOfPerson(userId: nil, anonymousId: "a1"))
        #expect(!self.write(user: "u2", anonymous: "a1").isOfPerson(userId: "u1", anonymousId: "a1"))
        #expect(!self.write(user: "u2", anonymous: "a1").isOfPerson(userId: nil, anonymousId: "a1"))
    }
}
