import Foundation
import Joryio
import JoryioCore
import JoryioStorage
import JoryioTesting
import Testing

/// A new SDK key on the same device (issue 13, "SDK key change" in decisions.md): the queue belongs
/// to the storage directory, so events and writes queued under the old key, withdrawals included,
/// are sent with the new one instead of being stranded in a database named after the old key.
@Suite struct KeyRotationTests {
    static let oldKey = "jry_sdk_ios_old_key"
    static let newKey = "jry_sdk_ios_new_key"

    @Test("events and a pending opt-out record queued under the old key go out with the new key, once")
    func queuedItemsFollowTheNewKey() throws {
        try withTemporaryDirectory { directory in
            let offline = RecordingTransport()
            offline.outcome = .failure(TransportError(.cannotConnect, "no network"))
            let first = TestSDK(transport: offline, storage: .sqlite(directory: directory))
            first.start(sdkKey: Self.oldKey, config: JoryioConfig(flushInterval: 3600))
            first.track(["queued 1", "queued 2"])
            first.flushAll()
            #expect(first.joryio.getQueueSize() == 2)
            first.joryio.setSubscription(channel: "email", status: "unsubscribed")
            first.scheduler.runUntilIdle()
            #expect(offline.requests.allSatisfy { $0.header("X-Joryio-Sdk-Key") == Self.oldKey })
            first.joryio.relinquishStorage()

            let online = RecordingTransport()
            let second = TestSDK.relaunch(on: directory, transport: online, sdkKey: Self.newKey)
            #expect(online.requests.eventNames == ["queued 1", "queued 2"])
            let subscriptions = online.requests.filter { $0.url.path.contains("subscription") }
            #expect(subscriptions.count == 1)
            #expect(online.requests.allSatisfy { $0.header("X-Joryio-Sdk-Key") == Self.newKey })
            #expect(second.joryio.getQueueSize() == 0)
        }
    }

    // OPTOUT-3, STORE-6: the opt-out is not tied to the SDK key; it survives the key change.
    @Test("an opt-out made offline under the old key: its record reaches the server with the new key")
    func pendingOptOutRecord() throws {
        try withTemporaryDirectory { directory in
            let offline = RecordingTransport()
            offline.outcome = .failure(TransportError(.cannotConnect, "no network"))
            let first = TestSDK(transport: offline, storage: .sqlite(directory: directory))
            first.start(sdkKey: Self.oldKey)
            first.joryio.optOut()
            first.scheduler.runUntilIdle()
            #expect(offline.requests.contains { $0.url.path.hasSuffix("v1/opt-out") })
            first.joryio.relinquishStorage()

            let online = RecordingTransport()
            let second = TestSDK(
                transport: online,
                storage: .sqlite(directory: directory),
                identifiers: SequentialIdentifierGenerator(first: 1000)
            )
            second.start(sdkKey: Self.newKey)
            #expect(second.joryio.isUserOptedOut())
            second.scheduler.runUntilIdle()
            let records = online.requests.filter { $0.url.path.hasSuffix("v1/opt-out") }
            #expect(records.count == 1)
            #expect(records.first?.header("X-Joryio-Sdk-Key") == Self.newKey)
            #expect(records.first?.json?["optedOut"] == .bool(true))
        }
    }

    @Test("a queue an earlier build named after the key is adopted under the new name, with its events")
    func legacyDatabaseIsAdopted() throws {
        try withTemporaryDirectory { directory in
            let first = TestSDK(transport: RecordingTransport(), storage: .sqlite(directory: directory))
            first.start(sdkKey: Self.oldKey, config: JoryioConfig(flushInterval: 3600))
            first.track(["kept"])
            first.joryio.relinquishStorage()
            // As an earlier build named it: after the key's fingerprint.
            let files = FileManager.default
            let current = directory.appendingPathComponent(JoryioEnvironment.databaseName)
            let legacy = directory.appendingPathComponent("events-0123456789abcdef.sqlite")
            for suffix in ["", "-wal", "-shm"] where files.fileExists(atPath: current.path + suffix) {
                try files.moveItem(atPath: current.path + suffix, toPath: legacy.path + suffix)
            }
            let logger = Logger(sink: InMemoryLogSink(), minimumLevel: .debug, module: "test")
            let adopted = JoryioEnvironment.adopting(
                directory,
                JoryioEnvironment.databaseName,
                legacy: legacy.lastPathComponent,
                logger: logger
            )
            #expect(adopted == current)
            #expect(files.fileExists(atPath: current.path))
            #expect(!files.fileExists(atPath: legacy.path))
            let database = try SQLiteDatabase(fileURL: current, clock: ManualClock(), logger: .disabled)
            defer { database.close() }
            #expect(try SQLiteQueueStore(database: database, queue: "events", capacity: 10).count() == 1)
        }
    }
}
