import Foundation
import JoryioCore
import JoryioStorage
import Testing

extension QueueStoreContractTests {
    @Test("a 10,000-record backlog drains in FIFO order", arguments: QueueBackend.allCases)
    func largeBacklog(backend: QueueBackend) throws {
        try withQueueHarness(backend) { harness in
            let total = 10_000
            let batch = 500
            var store = try harness.open()
            for start in stride(from: 0, to: total, by: batch) {
                try store.append(payloads(batch, from: start))
            }
            if backend.isPersistent {
                store = try harness.reopen()
            }
            #expect(try store.count() == total)

            var drained: [Data] = []
            while true {
                let records = try store.peek(limit: 700, maxBytes: 64 * 1024)
                guard !records.isEmpty else { break }
                drained += records.map(\.payload)
                try store.remove(ids: records.map(\.id))
            }
            #expect(drained == payloads(total))
            #expect(try store.count() == 0)
        }
    }

    @Test("appends from several threads are all stored, each thread's in order", arguments: QueueBackend.allCases)
    func concurrentAppends(backend: QueueBackend) throws {
        try withQueueHarness(backend) { harness in
            let store = try harness.open()
            let threads = 8
            let appendsPerThread = 25
            let failures = ConcurrentFailures()
            DispatchQueue.concurrentPerform(iterations: threads) { thread in
                for index in 0..<appendsPerThread {
                    let pair = [Data("t\(thread)-\(2 * index)".utf8), Data("t\(thread)-\(2 * index + 1)".utf8)]
                    do {
                        try store.append(pair)
                    } catch {
                        failures.record(error)
                    }
                }
            }
            #expect(failures.errors.isEmpty)

            let stored = try allRecords(store).map { String(decoding: $0.payload, as: UTF8.self) }
            #expect(stored.count == threads * appendsPerThread * 2)
            #expect(try store.count() == stored.count)
            for thread in 0..<threads {
                let mine = stored.filter { $0.hasPrefix("t\(thread)-") }
                #expect(mine == (0..<(2 * appendsPerThread)).map { "t\(thread)-\($0)" })
            }
        }
    }
}

/// Collects errors thrown on worker threads.
final class ConcurrentFailures: Sendable {
    private let storage = Locked<[String]>([])

    var errors: [String] {
        self.storage.value
    }

    func record(_ error: any Error) {
        self.storage.withLock { $0.append("\(error)") }
    }
}
