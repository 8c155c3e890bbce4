import Foundation
import Joryio
import JoryioCore
import JoryioStorage
import JoryioTesting
import Testing

/// The event journal through the SDK (issue 12, defect 6): `track()` is on disk when it returns,
/// a killed launch's events come back exactly once at the next start, and calls keep their order.
///
/// A kill is simulated by giving up the first instance's journal (`relinquish()`: its file and
/// the bytes in it stay, as the page cache keeps them when a process dies) without running its
/// engine any further, then starting a second instance on the same directory.
@Suite struct EventJournalEngineTests {
    /// An SDK on SQLite in `directory`, on its own virtual timeline.
    private func sdk(
        _ directory: URL,
        transport: RecordingTransport,
        scheduler: ManualScheduler = ManualScheduler(),
        firstId: UInt64 = 1
    ) -> TestSDK {
        TestSDK(
            transport: transport,
            storage: .sqlite(directory: directory),
            scheduler: scheduler,
            identifiers: SequentialIdentifierGenerator(first: firstId)
        )
    }

    /// An SDK whose events live in `directory`'s SQLite file with the smallest journal (64 KiB),
    /// so a test can fill the journal, or the disk under it.
    private func smallJournalSDK(
        _ directory: URL,
        capacity: Int
    ) throws -> (TestSDK, RecordingTransport, SQLiteDatabase, SQLiteQueueStore) {
        let database = try SQLiteDatabase(
            fileURL: directory.appendingPathComponent("q.sqlite"),
            clock: ManualClock(),
            logger: .disabled
        )
        let store = SQLiteQueueStore(database: database, queue: "events", capacity: capacity)
        let journalURL = directory.appendingPathComponent("q.journal")
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport) { _, _, logger in
            JoryioStores(
                events: store,
                keyValue: InMemoryKeyValueStore(),
                journal: JoryioStores.openJournal(
                    at: journalURL,
                    for: store,
                    capacity: EventJournal.minimumCapacity,
                    logger: logger
                )
            )
        }
        return (sdk, transport, database, store)
    }

    /// The sent events' `n` properties, in order.
    private func numbers(_ transport: RecordingTransport) -> [Int] {
        transport.requests.flatMap(\.events).compactMap { $0["properties"]?["n"]?.intValue.map(Int.init) }
    }

    @Test("track() on SQLite goes through the journal: no job per call, the engine reads it in one pass")
    func journaled() throws {
        try withTemporaryDirectory { directory in
            let transport = RecordingTransport()
            let sdk = self.sdk(directory, transport: transport)
            sdk.start(config: JoryioConfig(batchSize: 100))
            let journal = try #require(sdk.joryio.eventJournal)
            for n in 0..<50 {
                sdk.joryio.track("e", properties: ["n": n])
            }
            #expect(journal.usedBytes > 0)
            // One drain pass was queued by the first call; the other 49 queued nothing.
            #expect(sdk.scheduler.runUntilIdle() <= 3)
            #expect(journal.usedBytes == 0)
            #expect(sdk.joryio.getQueueSize() == 50)
            sdk.flushAll()
            #expect(self.numbers(transport) == Array(0..<50))
        }
    }

    @Test("a kill right after track() returned: the next launch stores and sends those events once, in order")
    func killAfterTrack() throws {
        try withTemporaryDirectory { directory in
            let transport = RecordingTransport()
            let first = self.sdk(directory, transport: transport)
            first.start()
            first.joryio.track("e", properties: ["n": 0])
            first.scheduler.runUntilIdle()  // n = 0 is stored in SQLite
            let start = first.scheduler.now()
            for n in 1...3 {
                first.joryio.track("e", properties: ["n": n])
            }
            // Killed: the engine never runs again.
            first.joryio.eventJournal?.relinquish()

            let scheduler = ManualScheduler(start: start.addingTimeInterval(60))
            let second = self.sdk(directory, transport: transport, scheduler: scheduler, firstId: 1000)
            second.start()
            #expect(second.messages(at: .info).contains { $0.contains("replayed 3 events") })
            second.flushAll()
            #expect(self.numbers(transport) == [0, 1, 2, 3])
            let events = transport.requests.flatMap(\.events)
            // Each keeps the time of its own call and a message id of its own.
            #expect(events.compactMap { $0["timestamp"]?.stringValue }.allSatisfy { $0.hasPrefix("20") })
            #expect(Set(events.compactMap { $0["messageId"]?.stringValue }).count == 4)
            #expect(events.last?["timestamp"]?.stringValue == JSONTimestamp.string(from: start))
        }
    }

    @Test("getQueueSize() right after initialize() counts what an earlier launch left, stored or journaled")
    func queueSizeBeforeStart() throws {
        try withTemporaryDirectory { directory in
            let transport = RecordingTransport()
            let first = self.sdk(directory, transport: transport)
            first.start(config: JoryioConfig(flushInterval: 3600))
            first.track(["stored 1", "stored 2"])
            first.joryio.track("journaled")
            first.joryio.eventJournal?.relinquish()

            let second = self.sdk(directory, transport: transport, firstId: 1000)
            second.joryio.initialize(
                sdkKey: TestSDK.sdkKey,
                apiHost: TestSDK.apiHost,
                config: JoryioConfig(
                    flushInterval: 3600,
                    trackSessionStart: false,
                    storage: .sqlite(directory: directory)
                )
            )
            // The start job has not run yet.
            #expect(second.joryio.getQueueSize() == 3)
            second.scheduler.runUntilIdle()
            #expect(second.joryio.getQueueSize() + transport.requests.eventNames.count == 3)
        }
    }

    @Test("a second restart replays nothing again: the read position is stored with the events")
    func noSecondReplay() throws {
        try withTemporaryDirectory { directory in
            let transport = RecordingTransport()
            let first = self.sdk(directory, transport: transport)
            first.start()
            first.joryio.track("e", properties: ["n": 1])
            first.joryio.eventJournal?.relinquish()

            let second = self.sdk(directory, transport: transport)
            second.start()
            second.joryio.eventJournal?.relinquish()

            let third = self.sdk(directory, transport: transport)
            third.start()
            #expect(!third.messages(at: .info).contains { $0.contains("replayed") })
            third.flushAll()
            #expect(self.numbers(transport) == [1])
        }
    }

    @Test("calls keep their order around the journal: track, identify, track attributes each to its user")
    func orderWithQueuedCalls() throws {
        try withTemporaryDirectory { directory in
            let transport = RecordingTransport()
            let sdk = self.sdk(directory, transport: transport)
            sdk.start()
            sdk.joryio.track("before")
            sdk.joryio.identify("user-1")
            sdk.joryio.track("after")
            sdk.joryio.reset()
            sdk.joryio.track("anonymous again")
            sdk.scheduler.runUntilIdle()
            sdk.flushAll()
            let events = transport.requests.flatMap(\.events)
            #expect(events.compactMap { $0["event"]?.stringValue } == ["before", "after", "anonymous again"])
            #expect(events.map { $0["userId"]?.stringValue } == [nil, "user-1", nil])
        }
    }

    @Test("an event tracked while opted out is dropped when read, and a restart does not bring it back")
    func optedOutRecordsAreConsumed() throws {
        try withTemporaryDirectory { directory in
            let transport = RecordingTransport()
            let first = self.sdk(directory, transport: transport)
            first.start()
            first.joryio.optOut()
            first.joryio.track("while opted out")
            first.scheduler.runUntilIdle()
            #expect(first.joryio.eventJournal?.usedBytes == 0)
            first.joryio.eventJournal?.relinquish()

            let second = self.sdk(directory, transport: transport)
            second.start()
            second.joryio.optIn()
            second.flushAll()
            #expect(!transport.requests.eventNames.contains("while opted out"))
            #expect(!second.messages(at: .info).contains { $0.contains("replayed") })
        }
    }

    @Test("plugins see journaled events as values, and their changes are stored")
    func pluginsSeeValues() throws {
        try withTemporaryDirectory { directory in
            let transport = RecordingTransport()
            let sdk = self.sdk(directory, transport: transport)
            sdk.joryio.add(plugin: PluginTests.Marker(mark: "x"))
            sdk.start()
            sdk.joryio.track("e", properties: ["n": 7, "price": 19.99, "tags": ["a", "b"]])
            sdk.scheduler.runUntilIdle()
            sdk.flushAll()
            let properties = try #require(transport.requests.flatMap(\.events).first?["properties"])
            #expect(properties["trail"]?.stringValue == "x")
            #expect(properties["n"]?.intValue == 7)
            #expect(properties["price"] == .double(19.99))
            #expect(properties["tags"] == .array([.string("a"), .string("b")]))
        }
    }

    @Test("a journal held by another instance: this one logs it and tracks without one, losing nothing")
    func heldByAnotherInstance() throws {
        try withTemporaryDirectory { directory in
            let transport = RecordingTransport()
            let first = self.sdk(directory, transport: transport)
            first.start()
            let second = self.sdk(directory, transport: transport)
            second.start()
            #expect(first.joryio.eventJournal != nil)
            #expect(second.joryio.eventJournal == nil)
            #expect(second.messages(at: .warning).contains { $0.contains("in use by another SDK instance") })
            second.track(["from the second"])
            second.flushAll()
            #expect(transport.requests.eventNames == ["from the second"])
        }
    }

    @Test("a journal file of garbage: no crash, a fresh journal, and tracking works")
    func garbageJournal() throws {
        try withTemporaryDirectory { directory in
            let transport = RecordingTransport()
            let first = self.sdk(directory, transport: transport)
            first.start()
            first.joryio.track("before the damage")
            first.scheduler.runUntilIdle()
            first.joryio.eventJournal?.relinquish()
            let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            let name = try #require(files.first { $0.hasSuffix(".journal") })
            var noise = SystemRandomNumberGenerator()
            let garbage = Data(
                (0..<(EventJournal.defaultCapacity)).map { _ in UInt8.random(in: 0...255, using: &noise) }
            )
            try garbage.write(to: directory.appendingPathComponent(name))

            let second = self.sdk(directory, transport: transport)
            second.start()
            second.track(["after the damage"])
            second.flushAll()
            #expect(transport.requests.eventNames == ["before the damage", "after the damage"])
            #expect(second.joryio.eventJournal != nil)
        }
    }

    @Test("a full disk: the journal keeps what could not be stored, callers never wait, all arrive once space is back")
    func fullDiskWithJournal() throws {
        try withTemporaryDirectory { directory in
            let (sdk, transport, database, store) = try self.smallJournalSDK(directory, capacity: 100_000)
            defer { database.close() }
            sdk.start()
            #expect(sdk.joryio.eventJournal != nil)
            try database.setMaxPageCount(try database.pageCount())
            // Far more than the 64 KiB journal holds: once it is full, and since the engine cannot
            // store, the rest are queued in memory at once instead of waiting.
            let filler = String(repeating: "z", count: 400)
            let count = 400
            for n in 0..<count {
                sdk.joryio.track("e", properties: ["n": n, "filler": filler])
            }
            sdk.scheduler.runUntilIdle()
            #expect(try store.count() == 0)
            #expect(sdk.messages(at: .error).count == 1)

            try database.setMaxPageCount(1_000_000)
            sdk.advance(to: 10)
            sdk.flushAll()
            #expect(self.numbers(transport) == Array(0..<count))
            #expect(sdk.joryio.eventJournal?.usedBytes == 0)
        }
    }

    @Test("an event too large for the journal is queued as a call instead, in its place")
    func tooLargeForTheJournal() throws {
        try withTemporaryDirectory { directory in
            let (sdk, transport, database, _) = try self.smallJournalSDK(directory, capacity: 1000)
            defer { database.close() }
            sdk.start()
            sdk.joryio.track("e", properties: ["n": 0])
            // 40 KB of properties: valid (under 50 KB), larger than a quarter of a 64 KiB journal.
            sdk.joryio.track("e", properties: ["n": 1, "filler": String(repeating: "y", count: 40_000)])
            sdk.joryio.track("e", properties: ["n": 2])
            sdk.scheduler.runUntilIdle()
            sdk.flushAll()
            #expect(self.numbers(transport) == [0, 1, 2])
        }
    }
}
