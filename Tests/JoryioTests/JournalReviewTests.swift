import Foundation
import Joryio
import JoryioCore
import JoryioStorage
import JoryioTesting
import Testing

/// Review probes for the event journal: what a kill replays after an identity or privacy call
/// that already ran (and was stored) when the events read before it were not committed yet.
@Suite struct JournalReviewTests {
    /// Forwards to a SQLite queue store; while `dead`, every write throws, as if the process had
    /// been killed before the group commit (or the disk were full).
    final class KillSwitchStore: MarkedQueueStore {
        let inner: SQLiteQueueStore
        let dead = Locked(false)
        init(_ inner: SQLiteQueueStore) { self.inner = inner }
        func append(_ payloads: [Data]) throws(StorageError) -> QueueAppendResult {
            if self.dead.value { throw StorageError(.full, "killed") }
            return try self.inner.append(payloads)
        }
        func append(_ payloads: [Data], mark: QueueMark) throws(StorageError) -> QueueAppendResult {
            if self.dead.value { throw StorageError(.full, "killed") }
            return try self.inner.append(payloads, mark: mark)
        }
        func mark(named name: String) throws(StorageError) -> String? { try self.inner.mark(named: name) }
        func peek(limit: Int, maxBytes: Int) throws(StorageError) -> [QueueRecord] {
            try self.inner.peek(limit: limit, maxBytes: maxBytes)
        }
        func remove(ids: [Int64]) throws(StorageError) { try self.inner.remove(ids: ids) }
        func removeAll() throws(StorageError) { try self.inner.removeAll() }
        func count() throws(StorageError) -> Int { try self.inner.count() }
    }

    /// The first launch: the live stores of `directory`, with the event store behind a kill switch.
    private func firstLaunch(_ directory: URL, transport: RecordingTransport) -> (TestSDK, Locked<KillSwitchStore?>) {
        let holder = Locked<KillSwitchStore?>(nil)
        let sdk = TestSDK(transport: transport, storage: .sqlite(directory: directory)) { config, key, logger in
            var stores = JoryioEnvironment.openStores(
                config: config,
                sdkKey: key,
                clock: ManualClock(),
                logger: logger
            )
            let sqlite = stores.events as! SQLiteQueueStore
            let wrapped = KillSwitchStore(sqlite)
            holder.withLock { $0 = wrapped }
            stores.journal?.relinquish()
            stores.events = wrapped
            stores.journal = JoryioStores.openJournal(
                at: directory.appendingPathComponent("joryio.journal"),
                for: wrapped,
                logger: logger
            )
            return stores
        }
        return (sdk, holder)
    }

    @Test("a live engine: track, identify, killed right after identify ran: the event keeps the user it was made under")
    func identifyThenKillLive() throws {
        try withTemporaryDirectory { directory in
            let transport = RecordingTransport()
            // Lingering after a read, as live: a track() meanwhile wakes nobody, so the identify's
            // own job is the first to read it.
            let first = TestSDK(transport: transport, storage: .sqlite(directory: directory), journalLinger: 1)
            first.start()
            first.track(["warm-up"])  // the engine now lingers: the next track() queues no job
            first.joryio.track("anonymous event")
            first.joryio.identify("user-1")
            #expect(first.scheduler.runNext())  // the identify, and nothing after it: killed
            first.joryio.relinquishStorage()

            _ = TestSDK.relaunch(on: directory, transport: transport)
            let events = transport.requests.flatMap(\.events).filter { $0["event"]?.stringValue == "anonymous event" }
            #expect(events.count == 1)
            #expect(events.first?["userId"]?.stringValue == nil)
        }
    }

    @Test("a live engine: opted out, track, optIn, killed right after optIn ran: the event is never sent")
    func optInThenKillLive() throws {
        try withTemporaryDirectory { directory in
            let transport = RecordingTransport()
            let first = TestSDK(transport: transport, storage: .sqlite(directory: directory), journalLinger: 1)
            first.start()
            first.joryio.optOut()
            first.track(["while opted out, first"])
            first.joryio.track("while opted out")
            first.joryio.optIn()
            #expect(first.scheduler.runNext())
            first.joryio.relinquishStorage()

            _ = TestSDK.relaunch(on: directory, transport: transport)
            #expect(!transport.requests.eventNames.contains("while opted out"))
        }
    }

    @Test(
        "storage failing, then track, identify, kill: a known limitation (decisions.md, 'The event journal')"
    )
    func identifyThenKill() throws {
        withKnownIssue("records read while storage fails are replayed under the identity stored after them") {
            try self.identifyThenKillWhileStorageFails()
        }
    }

    private func identifyThenKillWhileStorageFails() throws {
        try withTemporaryDirectory { directory in
            let transport = RecordingTransport()
            let (first, store) = self.firstLaunch(directory, transport: transport)
            first.start()
            store.value?.dead.withLock { $0 = true }
            first.joryio.track("anonymous event")
            first.joryio.identify("user-1")
            first.scheduler.runUntilIdle()
            first.joryio.relinquishStorage()

            _ = TestSDK.relaunch(on: directory, transport: transport)
            let events = transport.requests.flatMap(\.events).filter { $0["event"]?.stringValue == "anonymous event" }
            #expect(events.count == 1)
            // Made before identify(): it must not be attributed to user-1.
            #expect(events.first?["userId"]?.stringValue == nil)
        }
    }

    @Test("storage failing, then opted out, track, optIn, kill: a known limitation (decisions.md, 'The event journal')")
    func optInThenKill() throws {
        withKnownIssue("records read while storage fails are replayed under the consent stored after them") {
            try self.optInThenKillWhileStorageFails()
        }
    }

    private func optInThenKillWhileStorageFails() throws {
        try withTemporaryDirectory { directory in
            let transport = RecordingTransport()
            let (first, store) = self.firstLaunch(directory, transport: transport)
            first.start()
            first.joryio.optOut()
            first.scheduler.runUntilIdle()
            store.value?.dead.withLock { $0 = true }
            first.joryio.track("while opted out")
            first.joryio.optIn()
            first.scheduler.runUntilIdle()
            first.joryio.relinquishStorage()

            _ = TestSDK.relaunch(on: directory, transport: transport)
            #expect(!transport.requests.eventNames.contains("while opted out"))
        }
    }

    /// The names an earlier build gave the key's files (FNV-1a of the key, as `Joryio+Live` computes).
    private static func legacyName(_ key: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0100_0000_01b3 }
        let hex = String(hash, radix: 16)
        return "events-" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    @Test("upgrade from a build that named the files after the key: journaled events a kill left are replayed")
    func legacyJournalAdopted() throws {
        try withTemporaryDirectory { directory in
            let transport = RecordingTransport()
            let first = TestSDK(transport: transport, storage: .sqlite(directory: directory))
            first.start()
            first.joryio.track("stored")
            first.scheduler.runUntilIdle()
            first.joryio.track("journaled, not stored")
            first.joryio.relinquishStorage()  // killed
            // What the earlier build left: the same files under the key's names.
            let files = FileManager.default
            let legacy = Self.legacyName(TestSDK.sdkKey)
            for suffix in ["", "-wal", "-shm"]
            where files.fileExists(atPath: directory.appendingPathComponent("joryio.sqlite" + suffix).path) {
                try files.moveItem(
                    at: directory.appendingPathComponent("joryio.sqlite" + suffix),
                    to: directory.appendingPathComponent(legacy + ".sqlite" + suffix)
                )
            }
            try files.moveItem(
                at: directory.appendingPathComponent("joryio.journal"),
                to: directory.appendingPathComponent(legacy + ".journal")
            )

            _ = TestSDK.relaunch(on: directory, transport: transport)
            #expect(transport.requests.eventNames == ["stored", "journaled, not stored"])
        }
    }

    @Test("a pre-init wipeData() drops what the killed launch journaled, as it drops the stored queue (INIT-10)")
    func preInitWipeDropsJournal() throws {
        try withTemporaryDirectory { directory in
            let transport = RecordingTransport()
            let first = TestSDK(transport: transport, storage: .sqlite(directory: directory))
            first.start()
            first.joryio.track("stored before the wipe")
            first.scheduler.runUntilIdle()
            first.joryio.track("journaled before the wipe")
            first.joryio.relinquishStorage()  // killed

            let second = TestSDK(transport: transport, storage: .sqlite(directory: directory))
            second.joryio.wipeData()
            second.start()
            second.flushAll()
            #expect(transport.requests.eventNames.isEmpty)
        }
    }
}
