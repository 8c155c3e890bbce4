import Foundation
import JoryioCore
import JoryioDelivery
import JoryioStorage
import JoryioTesting
import Testing

/// `PendingDeletes` (records done with whose delete failed, issue 12) and the uploader's peek that
/// leaves them out.
@Suite struct PendingDeletesTests {
    /// A set over a `FaultyStore` on virtual time, with its log.
    private struct Rig {
        let scheduler = ManualScheduler()
        let sink = InMemoryLogSink()
        let store = FaultyStore()
        let deletes: PendingDeletes

        init(backoff: BackoffPolicy = BackoffPolicy(base: 1)) {
            self.deletes = PendingDeletes(
                store: self.store,
                noun: "delivered events",
                backoff: backoff,
                dependencies: ChannelDependencies(
                    transport: RecordingTransport(),
                    scheduler: self.scheduler,
                    clock: self.scheduler,
                    jitter: DeterministicJitter.none,
                    identifiers: SequentialIdentifierGenerator(),
                    logger: self.sink.logger(module: "delivery"),
                    onResult: { _ in }
                )
            )
        }

        /// Seconds from now at which the set tries its deletes again, up to `limit`.
        func attemptTimes(until limit: TimeInterval) -> [TimeInterval] {
            let origin = self.scheduler.now()
            var times: [TimeInterval] = []
            while let due = self.deletes.retryDue, due.timeIntervalSince(origin) <= limit {
                self.scheduler.advance(to: due)
                times.append(due.timeIntervalSince(origin))
            }
            return times
        }
    }

    private func records(_ store: FaultyStore, _ sizes: [Int]) throws -> [QueueRecord] {
        let ids = try store.append(sizes.map { Data(repeating: 0x61, count: $0) }).ids
        return zip(ids, sizes).map { QueueRecord(id: $0, payload: Data(repeating: 0x61, count: $1)) }
    }

    @Test("a failed delete is remembered, retried at 1, 3, 7 … s up to one a minute, and logged once")
    func failedDeleteIsRetriedWithBackoff() throws {
        let rig = Rig()
        let records = try self.records(rig.store, [10, 20, 30])
        rig.store.faults.withLock { $0.remove = true }

        #expect(!rig.deletes.delete(Array(records.prefix(2))))
        #expect(rig.deletes.count == 2)
        #expect(rig.deletes.contains(records[0].id) && !rig.deletes.contains(records[2].id))
        #expect(rig.deletes.excluded.ids == Set(records.prefix(2).map(\.id)))
        #expect(rig.deletes.excluded.bytes == 30)

        #expect(rig.attemptTimes(until: 300) == [1, 3, 7, 15, 31, 63, 123, 183, 243])
        #expect(rig.deletes.consecutiveFailures == 10)
        #expect(rig.sink.records(at: .error).count == 1)
        #expect(rig.sink.records(at: .debug).count == 9)
        #expect(try rig.store.count() == 3)

        // Space is back: the next attempt deletes them, with the third record handed in now.
        rig.store.faults.withLock { $0.remove = false }
        #expect(rig.deletes.delete([records[2]]))
        #expect(rig.deletes.isEmpty && rig.deletes.excluded.bytes == 0)
        #expect(rig.deletes.retryDue == nil)
        #expect(try rig.store.count() == 0)
        #expect(
            rig.sink.records(at: .info).map(\.message) == [
                "deleted 2 delivered events that could not be deleted before; storage works again"
            ]
        )
    }

    @Test("the timer's retry deletes them once the store works again")
    func timerRetryRecovers() throws {
        let rig = Rig()
        let records = try self.records(rig.store, [5, 5])
        rig.store.faults.withLock { $0.remove = true }
        rig.deletes.delete(records)
        rig.scheduler.advance(by: 3)
        rig.store.faults.withLock { $0.remove = false }
        rig.scheduler.advance(by: 4)
        #expect(rig.deletes.isEmpty)
        #expect(try rig.store.count() == 0)
        #expect(rig.scheduler.pendingCount == 0)
        // A new failure starts a new streak: one more error line, and the delays start again at 1 s.
        let more = try self.records(rig.store, [5])
        rig.store.faults.withLock { $0.remove = true }
        rig.deletes.delete(more)
        #expect(rig.sink.records(at: .error).count == 2)
        #expect(rig.attemptTimes(until: 8) == [1, 3, 7])
    }

    @Test("the retry policy: the channel's first delay, at least 1 s, capped at 1 min")
    func retryPolicy() {
        #expect(PendingDeletes.retryPolicy(from: BackoffPolicy(base: 0.001)) == BackoffPolicy(base: 1, cap: 60))
        #expect(PendingDeletes.retryPolicy(from: BackoffPolicy(base: 2)) == BackoffPolicy(base: 2, cap: 60))
        #expect(PendingDeletes.retryPolicy(from: BackoffPolicy(base: 1, cap: 10)) == BackoffPolicy(base: 1, cap: 10))
        #expect(PendingDeletes.retryPolicy(from: BackoffPolicy(base: 300)) == BackoffPolicy(base: 300, cap: 300))
    }

    @Test("forgetAll() drops the set and its timer without deleting")
    func forgetAll() throws {
        let rig = Rig()
        let records = try self.records(rig.store, [5])
        rig.store.faults.withLock { $0.remove = true }
        rig.deletes.delete(records)
        rig.deletes.forgetAll()
        #expect(rig.deletes.isEmpty && rig.deletes.retryDue == nil)
        #expect(try rig.store.count() == 1)
    }

    /// What a plain peek of the store without the excluded records answers.
    private func expectedPeek(_ records: [QueueRecord], excluded: Set<Int64>, limit: Int, maxBytes: Int) -> [Int64] {
        var result: [Int64] = []
        var bytes = 0
        for record in records where !excluded.contains(record.id) {
            guard result.count < limit else { break }
            if !result.isEmpty, record.payload.count > maxBytes - bytes { break }
            result.append(record.id)
            bytes += record.payload.count
        }
        return result
    }

    @Test("the uploader's peek answers as if the excluded records were not stored (2,000 random cases)")
    func peekExcluding() throws {
        var random = SplitMix64(seed: 12)
        for _ in 0..<2_000 {
            let store = InMemoryQueueStore()
            let count = Int.random(in: 0...30, using: &random)
            // Mostly small records, a few larger than any budget below.
            let sizes = (0..<count).map { _ in
                Bool.random(using: &random) && Int.random(in: 0..<8, using: &random) == 0
                    ? Int.random(in: 200...400, using: &random) : Int.random(in: 1...40, using: &random)
            }
            let ids = try store.append(sizes.map { Data(repeating: 0x62, count: $0) }).ids
            let records = zip(ids, sizes).map { QueueRecord(id: $0, payload: Data(repeating: 0x62, count: $1)) }
            // Excluded: often a run of the oldest (delivered batches), sometimes scattered ones.
            let oldest = Int.random(in: 0...count, using: &random)
            var excluded = Set(ids.prefix(oldest))
            for id in ids where Int.random(in: 0..<6, using: &random) == 0 { excluded.insert(id) }
            let excludedBytes = records.filter { excluded.contains($0.id) }.reduce(0) { $0 + $1.payload.count }
            let limit = Int.random(in: 1...8, using: &random)
            let maxBytes = Int.random(in: 10...150, using: &random)

            let peeked = try EventUploader.peek(
                store,
                limit: limit,
                maxBytes: maxBytes,
                excluding: excluded,
                excludedBytes: excludedBytes
            )
            let expected = self.expectedPeek(records, excluded: excluded, limit: limit, maxBytes: maxBytes)
            #expect(
                peeked.map(\.id) == expected,
                "sizes \(sizes), excluded \(excluded.sorted()), limit \(limit), maxBytes \(maxBytes)"
            )
            #expect(peeked.allSatisfy { records[Int($0.id - 1)].payload == $0.payload })
        }
    }
}
