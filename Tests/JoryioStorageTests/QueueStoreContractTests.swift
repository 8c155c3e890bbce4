import Foundation
import JoryioCore
import JoryioStorage
import Testing

/// The ``QueueStore`` contract, run over every backend.
@Suite("QueueStore contract")
struct QueueStoreContractTests {
    @Test("records come back oldest first, in append order", arguments: QueueBackend.allCases)
    func fifoOrder(backend: QueueBackend) throws {
        try withQueueHarness(backend) { harness in
            let store = try harness.open()
            let first = try store.append([Data("a".utf8)])
            let batch = try store.append([Data("b".utf8), Data("c".utf8), Data("d".utf8)])
            let last = try store.append([Data("e".utf8)])

            let records = try allRecords(store)
            #expect(records.map { String(decoding: $0.payload, as: UTF8.self) } == ["a", "b", "c", "d", "e"])
            #expect(records.map(\.id) == first.ids + batch.ids + last.ids)
            #expect(batch.evicted == 0)
            #expect(try store.append([]) == QueueAppendResult(ids: [], evicted: 0))
        }
    }

    @Test("peek stops at the record limit", arguments: QueueBackend.allCases)
    func peekLimitByCount(backend: QueueBackend) throws {
        try withQueueHarness(backend) { harness in
            let store = try harness.open()
            try store.append(payloads(10))

            #expect(try store.peek(limit: 3, maxBytes: .max).map(\.payload) == payloads(3))
            #expect(try store.peek(limit: 0, maxBytes: .max).isEmpty)
            #expect(try store.peek(limit: 50, maxBytes: .max).count == 10)
            #expect(try store.count() == 10)
        }
    }

    @Test("peek stops before the byte budget, but always returns the first record", arguments: QueueBackend.allCases)
    func peekLimitByBytes(backend: QueueBackend) throws {
        try withQueueHarness(backend) { harness in
            let store = try harness.open()
            try store.append([bytes(10), bytes(10), bytes(10), bytes(10)])
            #expect(try store.peek(limit: 100, maxBytes: 25).count == 2)
            #expect(try store.peek(limit: 100, maxBytes: 30).count == 3)
            #expect(try store.peek(limit: 100, maxBytes: 9).count == 1)
            #expect(try store.peek(limit: 100, maxBytes: 0).count == 1)

            try store.removeAll()
            try store.append([bytes(100, 0x62), bytes(5), bytes(5)])
            let oversized = try store.peek(limit: 100, maxBytes: 50)
            #expect(oversized.map(\.payload) == [bytes(100, 0x62)])

            try store.remove(ids: oversized.map(\.id))
            try store.append([bytes(1_000), bytes(5)])
            // A large record in the middle ends the batch before it.
            #expect(try store.peek(limit: 100, maxBytes: 50).map(\.payload) == [bytes(5), bytes(5)])
        }
    }

    @Test("remove deletes by id and ignores unknown ids", arguments: QueueBackend.allCases)
    func removeByID(backend: QueueBackend) throws {
        try withQueueHarness(backend) { harness in
            let store = try harness.open()
            let ids = try store.append(payloads(5)).ids

            try store.remove(ids: [ids[1], ids[3], 999_999_999, -1])
            try store.remove(ids: [])
            try store.remove(ids: [ids[1]])

            #expect(try allRecords(store).map(\.id) == [ids[0], ids[2], ids[4]])
            #expect(try allRecords(store).map(\.payload) == [payloads(5)[0], payloads(5)[2], payloads(5)[4]])
            #expect(try store.count() == 3)
        }
    }

    @Test("removeAll empties the store, which keeps working", arguments: QueueBackend.allCases)
    func removeAll(backend: QueueBackend) throws {
        try withQueueHarness(backend) { harness in
            let store = try harness.open()
            try store.append(payloads(7))
            try store.removeAll()
            #expect(try store.count() == 0)
            #expect(try allRecords(store).isEmpty)

            try store.append(payloads(2, prefix: "after"))
            #expect(try allRecords(store).map(\.payload) == payloads(2, prefix: "after"))
        }
    }

    @Test("count follows appends, removals and evictions", arguments: QueueBackend.allCases)
    func count(backend: QueueBackend) throws {
        try withQueueHarness(backend, capacity: 10) { harness in
            let store = try harness.open()
            #expect(try store.count() == 0)
            let ids = try store.append(payloads(4)).ids
            #expect(try store.count() == 4)
            try store.remove(ids: [ids[0]])
            #expect(try store.count() == 3)
            try store.append(payloads(12))
            #expect(try store.count() == 10)
            try store.removeAll()
            #expect(try store.count() == 0)
        }
    }

    @Test("ids increase strictly and are never reused", arguments: QueueBackend.allCases)
    func idsNeverReused(backend: QueueBackend) throws {
        try withQueueHarness(backend) { harness in
            var store = try harness.open()
            var seen = try store.append(payloads(3)).ids
            #expect(seen == seen.sorted() && Set(seen).count == 3)

            try store.remove(ids: seen)
            seen += try store.append(payloads(2)).ids
            try store.removeAll()
            seen += try store.append(payloads(2)).ids
            if backend.isPersistent {
                try store.remove(ids: [seen[seen.count - 1]])
                store = try harness.reopen()
                seen += try store.append(payloads(1)).ids
                try store.removeAll()
                store = try harness.reopen()
                seen += try store.append(payloads(1)).ids
            }
            #expect(seen == seen.sorted())
            #expect(Set(seen).count == seen.count)
        }
    }

    @Test("records survive closing and reopening", arguments: QueueBackend.allCases.filter(\.isPersistent))
    func survivesReopen(backend: QueueBackend) throws {
        try withQueueHarness(backend) { harness in
            var store = try harness.open()
            let ids = try store.append(payloads(5)).ids
            try store.remove(ids: [ids[2]])
            let before = try allRecords(store)

            store = try harness.reopen()
            #expect(try allRecords(store) == before)
            #expect(try store.count() == 4)
            let next = try store.append(payloads(1, prefix: "after")).ids
            #expect(next[0] > ids[4])
        }
    }

    @Test("appends beyond capacity evict the oldest records", arguments: QueueBackend.allCases)
    func capacityEviction(backend: QueueBackend) throws {
        try withQueueHarness(backend, capacity: 5) { harness in
            let store = try harness.open()
            #expect(try store.append(payloads(3)).evicted == 0)
            let second = try store.append(payloads(4, from: 3))
            #expect(second.evicted == 2)
            #expect(try allRecords(store).map(\.payload) == Array(payloads(7)[2...]))

            // A batch larger than the capacity keeps only its own newest records.
            let large = try store.append(payloads(7, prefix: "large"))
            #expect(large.ids.count == 7)
            #expect(large.evicted == 7)
            #expect(try allRecords(store).map(\.payload) == Array(payloads(7, prefix: "large")[2...]))
            #expect(try store.count() == 5)
        }
    }
}
