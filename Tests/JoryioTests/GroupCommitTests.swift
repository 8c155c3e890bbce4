import Foundation
import Joryio
import JoryioCore
import JoryioStorage
import JoryioTesting
import Testing

/// A queue store that records the size of every append.
final class AppendSizeSpy: QueueStore {
    let base = InMemoryQueueStore(capacity: 100_000)
    let sizes = Locked<[Int]>([])

    func append(_ payloads: [Data]) throws(StorageError) -> QueueAppendResult {
        self.sizes.withLock { $0.append(payloads.count) }
        return try self.base.append(payloads)
    }
    func peek(limit: Int, maxBytes: Int) throws(StorageError) -> [QueueRecord] {
        try self.base.peek(limit: limit, maxBytes: maxBytes)
    }
    func remove(ids: [Int64]) throws(StorageError) { try self.base.remove(ids: ids) }
    func removeAll() throws(StorageError) { try self.base.removeAll() }
    func count() throws(StorageError) -> Int { try self.base.count() }
}

@Suite struct GroupCommitTests {
    @Test func aBurstIsWrittenInBoundedTransactionsInOrder() throws {
        let spy = AppendSizeSpy()
        let transport = RecordingTransport(outcome: .failure(TransportError(.cannotConnect, "offline")))
        let sdk = TestSDK(transport: transport) { _, _, _ in
            JoryioStores(events: spy, keyValue: InMemoryKeyValueStore())
        }
        sdk.start(config: JoryioConfig(batchSize: 500, maxQueueSize: 10_000))
        sdk.track(eventNames(1_234))
        #expect(spy.sizes.value == [500, 500, 234])
        #expect(sdk.joryio.getQueueSize() == 1_234)
        let stored = try spy.peek(limit: 2_000, maxBytes: .max)
        let names = stored.compactMap { JSONValue.parse($0.payload)?["event"]?.stringValue }
        #expect(names == eventNames(1_234))
    }

    @Test func aSizeTriggerSeenDuringARequestSendsOnlyIfAFullBatchRemains() {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.start(config: JoryioConfig(batchSize: 500, maxQueueSize: 2_000))
        sdk.track(eventNames(600))
        #expect(transport.requests.batchSizes == [500])  // the other 100 wait for the flush interval
        sdk.scheduler.advance(by: 5)
        #expect(transport.requests.batchSizes == [500, 100])
    }
}
