import Foundation
import Joryio
import JoryioCore
import JoryioStorage
import JoryioTesting
import Testing

/// One owner per storage location (issue 13): two instances over one directory would overwrite
/// each other's settings and send each other's queue twice, so the second is refused.
@Suite struct StorageOwnerTests {
    @Test("the lock: one holder at a time, in this process too; free again after release")
    func lock() throws {
        try withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("joryio.lock")
            let first = try StorageLock.acquire(url).get()
            #expect(throws: StorageLock.Failure.inUse) { try StorageLock.acquire(url).get() }
            first.release()
            first.release()  // once only
            let second = try StorageLock.acquire(url).get()
            second.release()
            #expect(throws: StorageLock.Failure.cannotOpen(ENOENT)) {
                try StorageLock.acquire(directory.appendingPathComponent("missing/joryio.lock")).get()
            }
        }
    }

    @Test(
        "a second instance on the same directory is refused with an error naming it, and starts once the first lets go"
    )
    func secondInstanceRefused() throws {
        try withTemporaryDirectory { directory in
            let transport = RecordingTransport()
            let first = TestSDK(transport: transport, storage: .sqlite(directory: directory), claimsStorage: true)
            first.start()
            #expect(first.joryio.currentApiEndpoint == TestSDK.apiHost)

            let second = TestSDK(transport: transport, storage: .sqlite(directory: directory), claimsStorage: true)
            second.start()
            #expect(second.joryio.currentApiEndpoint == "")
            let errors = second.messages(at: .error)
            #expect(errors.count == 1)
            #expect(errors.first?.contains("another Joryio instance") == true)
            #expect(errors.first?.contains(directory.path) == true)
            // Its calls wait, as before any start; they do not reach the first instance's queue.
            second.joryio.track("from the second")
            second.scheduler.runUntilIdle()
            #expect(first.joryio.getQueueSize() == 0)

            // The first one ends (its process would): the second's next initialize() starts it.
            first.joryio.relinquishStorage()
            second.start()
            #expect(second.joryio.currentApiEndpoint == TestSDK.apiHost)
            second.flushAll()
            #expect(transport.requests.eventNames == ["from the second"])
        }
    }

    @Test("instances on different directories, or in memory, do not exclude each other")
    func differentDirectories() throws {
        try withTemporaryDirectory { one in
            try withTemporaryDirectory { two in
                let a = TestSDK(transport: RecordingTransport(), storage: .sqlite(directory: one), claimsStorage: true)
                let b = TestSDK(transport: RecordingTransport(), storage: .files(directory: two), claimsStorage: true)
                let c = TestSDK(transport: RecordingTransport(), storage: .inMemory, claimsStorage: true)
                let d = TestSDK(transport: RecordingTransport(), storage: .inMemory, claimsStorage: true)
                for sdk in [a, b, c, d] { sdk.start() }
                #expect([a, b, c, d].allSatisfy { $0.joryio.currentApiEndpoint == TestSDK.apiHost })
            }
        }
    }
}
