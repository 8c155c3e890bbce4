import Foundation
import Joryio
import JoryioCore
import JoryioStorage
import JoryioTesting
import Testing

/// A queue store on a disk that fills up: while a fault is on, deletes (and appends) throw
/// `StorageError(.full)`, as `SQLiteQueueStore` does on `SQLITE_FULL`. Nothing changes on a failure.
final class FullDiskStore: QueueStore {
    struct Faults {
        /// Deletes fail (the delete after a 2xx).
        var deletes = false
        /// Appends fail (the engine keeps new events in memory).
        var appends = false
        /// Deletes that failed.
        var failedDeletes = 0
        /// Deletes that succeeded.
        var succeededDeletes = 0
    }

    let base = InMemoryQueueStore(capacity: 100_000)
    let faults = Locked(Faults())

    /// Turns both faults on or off.
    func setFull(_ full: Bool) {
        self.faults.withLock {
            $0.deletes = full
            $0.appends = full
        }
    }

    func append(_ payloads: [Data]) throws(StorageError) -> QueueAppendResult {
        if self.faults.value.appends { throw StorageError(.full, "scripted: database or disk is full") }
        return try self.base.append(payloads)
    }

    func peek(limit: Int, maxBytes: Int) throws(StorageError) -> [QueueRecord] {
        try self.base.peek(limit: limit, maxBytes: maxBytes)
    }

    func remove(ids: [Int64]) throws(StorageError) {
        let failing = self.faults.withLock { faults -> Bool in
            if faults.deletes { faults.failedDeletes += 1 } else { faults.succeededDeletes += 1 }
            return faults.deletes
        }
        if failing { throw StorageError(.full, "scripted: database or disk is full") }
        try self.base.remove(ids: ids)
    }

    func removeAll() throws(StorageError) {
        if self.faults.value.deletes { throw StorageError(.full, "scripted: database or disk is full") }
        try self.base.removeAll()
    }

    func count() throws(StorageError) -> Int {
        try self.base.count()
    }
}

/// A full disk after a 2xx (issue 12, defect 3): delivered events whose delete fails are remembered
/// in memory, never sent again; the delete is retried with backoff, and the queue drains once space
/// is back (BATCH-4, BATCH-18, STORE-4).
@Suite struct DiskFullTests {
    /// An SDK over `store` whose server answers every request with `outcome` 1 ms after it leaves:
    /// a send loop that does not wait sends about a thousand requests per second of virtual time.
    private func sdk(
        store: FullDiskStore,
        outcome: Result<HTTPResponse, TransportError> = .success(.ok)
    ) -> (TestSDK, RecordingTransport) {
        let scheduler = ManualScheduler()
        let transport = RecordingTransport(outcome: outcome) { work in
            _ = scheduler.schedule(after: 0.001, work)
        }
        let sdk = TestSDK(transport: transport, scheduler: scheduler) { _, _, _ in
            JoryioStores(events: store, keyValue: InMemoryKeyValueStore())
        }
        return (sdk, transport)
    }

    /// The messageIds of every event sent, request after request.
    private func messageIds(_ requests: [HTTPRequest]) -> [String] {
        requests.flatMap { $0.events.compactMap { $0["messageId"]?.stringValue } }
    }

    /// Runs the first virtual second and stops the test when more than `limit` requests left in it
    /// (a resend loop sends about a thousand; running on would take minutes).
    private func requireNoResendLoop(_ sdk: TestSDK, _ transport: RecordingTransport, atMost limit: Int) throws {
        sdk.advance(to: 1)
        let count = transport.requests.count
        try #require(count <= limit, "\(count) requests in the first second of virtual time")
    }

    /// The error lines about deleting delivered events.
    private func deleteErrors(_ sdk: TestSDK) -> [String] {
        sdk.messages(at: .error).filter { $0.contains("delete") }
    }

    @Test("deletes failing after a 2xx: each delivered batch is sent once, deletes back off, the queue drains")
    func deletesFailAfterDelivery() throws {
        let store = FullDiskStore()
        let (sdk, transport) = self.sdk(store: store)
        sdk.start(config: JoryioConfig(batchSize: 50, maxQueueSize: 10_000))
        store.faults.withLock { $0.deletes = true }
        sdk.track(eventNames(120))
        try self.requireNoResendLoop(sdk, transport, atMost: 2)

        // Two full batches at once, the last 20 at the flush interval: three requests in ten seconds.
        sdk.advance(to: 10)
        #expect(transport.requests.count == 3)
        #expect(transport.requests.batchSizes == [50, 50, 20])
        let sent = self.messageIds(transport.requests)
        #expect(sent.count == 120)
        #expect(Set(sent).count == sent.count, "a delivered event was sent twice")
        #expect(self.deleteErrors(sdk).count == 1, "one error while deletes fail, not one per attempt")

        // A minute later: nothing resent, and the deletes were retried a handful of times only.
        sdk.advance(to: 60)
        #expect(transport.requests.count == 3)
        #expect(store.faults.value.failedDeletes <= 12)
        #expect(self.deleteErrors(sdk).count == 1)

        // Space is back: the next retry (at most a minute later) deletes them all. (getQueueSize()
        // still counts them until the engine next refreshes it: an event stored or an answer.)
        store.faults.withLock { $0.deletes = false }
        sdk.advance(to: 121)
        #expect(try store.count() == 0)
        #expect(transport.requests.count == 3)
        #expect(sdk.messages(at: .info).contains { $0.contains("storage works again") })

        // Later events go out as usual, and every event went out exactly once.
        sdk.track(eventNames(5, from: 120))
        sdk.joryio.flush()
        sdk.advance(to: 122)
        #expect(transport.requests.count == 4)
        #expect(transport.requests.eventNames == eventNames(125))
        #expect(Set(self.messageIds(transport.requests)).count == 125)
        #expect(try store.count() == 0)
        #expect(sdk.joryio.getQueueSize() == 0)
    }

    @Test("a full disk for appends and deletes: new events wait in memory; nothing is lost or sent twice")
    func appendsAndDeletesFail() throws {
        let store = FullDiskStore()
        let (sdk, transport) = self.sdk(store: store)
        sdk.start(config: JoryioConfig(batchSize: 50, maxQueueSize: 10_000))
        sdk.track(eventNames(120))
        // The disk fills while the first two batches are on the wire.
        store.setFull(true)
        sdk.track(eventNames(30, from: 120))
        try self.requireNoResendLoop(sdk, transport, atMost: 2)

        sdk.advance(to: 60)
        #expect(transport.requests.batchSizes == [50, 50, 20])
        let sent = self.messageIds(transport.requests)
        #expect(Set(sent).count == sent.count, "a delivered event was sent twice")
        #expect(sdk.joryio.getQueueSize() == 150)

        // Space is back: the engine stores the 30 at its next retry, the uploader deletes the
        // delivered 120 and sends the 30, once.
        store.setFull(false)
        sdk.advance(to: 70)
        #expect(transport.requests.batchSizes == [50, 50, 20, 30])
        #expect(transport.requests.eventNames.sorted() == eventNames(150).sorted())
        #expect(Set(self.messageIds(transport.requests)).count == 150)
        #expect(sdk.joryio.getQueueSize() == 0)
        #expect(try store.count() == 0)
    }

    @Test("an event rejected alone whose delete fails is not sent again")
    func rejectedEventIsNotResent() throws {
        let store = FullDiskStore()
        let (sdk, transport) = self.sdk(store: store, outcome: .success(.json(400, #"{"error":"invalid"}"#)))
        sdk.start()
        store.faults.withLock { $0.deletes = true }
        sdk.track(["bad"])
        sdk.joryio.flush()
        try self.requireNoResendLoop(sdk, transport, atMost: 1)
        sdk.advance(to: 30)
        #expect(transport.requests.count == 1)
        #expect(self.deleteErrors(sdk).count == 1)

        store.faults.withLock { $0.deletes = false }
        sdk.advance(to: 91)
        #expect(try store.count() == 0)
        #expect(transport.requests.count == 1)
    }

    @Test("flush() retries a failed delete at once, skipping the delete's backoff")
    func flushRetriesTheDelete() throws {
        let store = FullDiskStore()
        let (sdk, transport) = self.sdk(store: store)
        sdk.start()
        store.faults.withLock { $0.deletes = true }
        sdk.track(eventNames(3))
        sdk.joryio.flush()
        try self.requireNoResendLoop(sdk, transport, atMost: 1)
        sdk.advance(to: 20)
        #expect(transport.requests.count == 1)
        #expect(try store.count() == 3)
        // Deletes tried after the answer, then at 1, 3, 7 and 15 s; the next is due at 31 s.
        #expect(store.faults.value.failedDeletes == 5)

        store.faults.withLock { $0.deletes = false }
        sdk.joryio.flush()
        sdk.scheduler.runUntilIdle()
        #expect(try store.count() == 0)
        #expect(transport.requests.count == 1)
        #expect(sdk.elapsed == 20)
    }
}

/// The same on real SQLite, made full with `PRAGMA max_page_count` (a full disk without root).
@Suite struct SQLiteFullDatabaseTests {
    @Test("a database at its size limit: appends fail, delivered deletes make room, every event arrives once")
    func databaseAtItsLimit() throws {
        try withTemporaryDirectory { directory in
            let database = try SQLiteDatabase(
                fileURL: directory.appendingPathComponent("events.sqlite"),
                clock: ManualClock(),
                logger: .disabled
            )
            defer { database.close() }
            let store = SQLiteQueueStore(database: database, queue: "events", capacity: 100_000)
            let scheduler = ManualScheduler()
            let transport = RecordingTransport { work in
                _ = scheduler.schedule(after: 0.001, work)
            }
            let sdk = TestSDK(transport: transport, scheduler: scheduler) { _, _, _ in
                JoryioStores(events: store, keyValue: InMemoryKeyValueStore())
            }
            sdk.start(config: JoryioConfig(batchSize: 50, maxQueueSize: 10_000))
            sdk.track(eventNames(100))
            // The file may not grow any more: the next 100 events do not fit until deletes free pages.
            try database.setMaxPageCount(try database.pageCount())
            sdk.track(eventNames(100, from: 100))
            #expect(sdk.messages(at: .error).contains { $0.contains("cannot store 100 events") })
            #expect(try store.count() == 100)

            sdk.advance(to: 30)
            #expect(transport.requests.eventNames == eventNames(200))
            #expect(transport.requests.batchSizes == [50, 50, 50, 50])
            let ids = transport.requests.flatMap { $0.events.compactMap { $0["messageId"]?.stringValue } }
            #expect(Set(ids).count == 200)
            #expect(try store.count() == 0)
            #expect(sdk.joryio.getQueueSize() == 0)
            #expect(sdk.messages(at: .info).contains { $0.contains("storage works again") })
            #expect(database.recoveredFromFull == 0, "max_page_count is not the log's doing: the retry fails too")
        }
    }
}
