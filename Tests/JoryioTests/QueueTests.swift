import Foundation
import Joryio
import JoryioCore
import JoryioStorage
import JoryioTesting
import Testing

/// The device queue: `maxQueueSize` eviction and a full disk (BATCH-4, BATCH-12, STORE).
@Suite struct QueueTests {
    enum Backend: String, CaseIterable, Sendable {
        case memory, sqlite, files
    }

    /// Runs `body` with a fresh storage choice of `backend`.
    private func withStorage(_ backend: Backend, _ body: (JoryioConfig.Storage) throws -> Void) throws {
        try withTemporaryDirectory { directory in
            switch backend {
            case .memory: try body(.inMemory)
            case .sqlite: try body(.sqlite(directory: directory))
            case .files: try body(.files(directory: directory))
            }
        }
    }

    @Test("maxQueueSize evicts the oldest events first, with a warning", arguments: Backend.allCases)
    func evictsOldest(backend: Backend) throws {
        try self.withStorage(backend) { storage in
            let transport = RecordingTransport()
            let sdk = TestSDK(transport: transport, storage: storage)
            sdk.start(config: JoryioConfig(maxQueueSize: 5))
            sdk.track(eventNames(5))
            #expect(sdk.joryio.getQueueSize() == 5)
            #expect(sdk.messages(atLeast: .warning).isEmpty)

            sdk.track(eventNames(3, from: 5))
            #expect(sdk.joryio.getQueueSize() == 5)
            let warnings = sdk.messages(atLeast: .warning)
            #expect(warnings.count == 1)
            #expect(warnings.first?.contains("dropped the 3 oldest events") == true)

            sdk.advance(to: 5)
            #expect(transport.requests.eventNames == eventNames(5, from: 3))
            #expect(sdk.joryio.getQueueSize() == 0)
        }
    }

    @Test("one burst larger than maxQueueSize keeps its newest events", arguments: Backend.allCases)
    func burstBeyondCapacity(backend: Backend) throws {
        try self.withStorage(backend) { storage in
            let transport = RecordingTransport()
            let sdk = TestSDK(transport: transport, storage: storage)
            sdk.start(config: JoryioConfig(maxQueueSize: 4))
            sdk.track(eventNames(10))
            #expect(sdk.joryio.getQueueSize() == 4)
            #expect(sdk.messages(at: .warning).count == 1)
            sdk.joryio.flush()
            sdk.scheduler.runUntilIdle()
            #expect(transport.requests.eventNames == eventNames(4, from: 6))
        }
    }

    @Test("EVT-8: events survive a restart and leave from the new instance", arguments: [Backend.sqlite, .files])
    func survivesRestart(backend: Backend) throws {
        try self.withStorage(backend) { storage in
            let offline = RespondingTransport { _ in .failure(TransportError(.cannotConnect, "offline")) }
            let first = TestSDK(transport: offline, storage: storage)
            first.start()
            first.track(eventNames(3))
            first.advance(to: 5)
            #expect(first.joryio.getQueueSize() == 3)

            let online = RecordingTransport()
            let second = TestSDK(transport: online, storage: storage)
            second.start()
            #expect(second.joryio.getQueueSize() == 0)
            #expect(online.requests.eventNames == eventNames(3))
        }
    }

    @Test("a full database: track keeps events in memory, logs one error, stores and sends them once space is back")
    func fullDisk() throws {
        try withTemporaryDirectory { directory in
            let database = try SQLiteDatabase(
                fileURL: directory.appendingPathComponent("q.sqlite"),
                clock: ManualClock(),
                logger: .disabled
            )
            defer { database.close() }
            let store = SQLiteQueueStore(database: database, queue: "events", capacity: 1000)
            let transport = RecordingTransport()
            let sdk = TestSDK(transport: transport) { _, _, _ in
                JoryioStores(events: store, keyValue: InMemoryKeyValueStore())
            }
            sdk.start()
            try database.setMaxPageCount(try database.pageCount())

            let filler = String(repeating: "z", count: 5000)
            for name in eventNames(3) {
                sdk.joryio.track(name, properties: ["filler": filler])
            }
            sdk.scheduler.runUntilIdle()
            #expect(try store.count() == 0)
            #expect(sdk.joryio.getQueueSize() == 3)
            #expect(sdk.messages(at: .error).count == 1)
            #expect(sdk.messages(at: .error).first?.contains("cannot store 3 events") == true)

            // Still full: nothing is lost, nothing is sent, no new error lines.
            sdk.advance(to: 5)
            sdk.advance(to: 6)
            sdk.joryio.track("e3", properties: ["filler": filler])
            sdk.scheduler.runUntilIdle()
            #expect(sdk.joryio.getQueueSize() == 4)
            #expect(transport.requests.isEmpty)
            #expect(sdk.messages(at: .error).count == 1)

            // Space is back: the next retry stores them and sends them right away.
            try database.setMaxPageCount(1_000_000)
            sdk.advance(to: 9.999)
            #expect(transport.requests.isEmpty)
            sdk.advance(to: 10)
            #expect(transport.requests.eventNames == eventNames(4))
            #expect(sdk.joryio.getQueueSize() == 0)
            #expect(try store.count() == 0)
            #expect(sdk.messages(at: .error).count == 1)
            #expect(sdk.messages(at: .info).contains { $0.contains("stored 4 events") })
        }
    }
}
