import Foundation
import Joryio
import JoryioCore
import JoryioPlatform
import JoryioTesting
import Testing

/// Starting before the device's first unlock (INIT-14, INIT-15, INIT-7): `initialize()` waits,
/// calls made meanwhile stay queued in order, and the SDK starts by itself at the unlock.
@Suite struct FirstUnlockTests {
    @Test(
        "before the first unlock: initialize() waits, calls queue, getters are empty; the unlock starts it all in order"
    )
    func waitsForFirstUnlock() throws {
        let transport = RecordingTransport()
        let device = ManualStorageAvailability()
        let sdk = TestSDK(transport: transport, storageAvailability: device)
        sdk.start(config: JoryioConfig(flushInterval: 3600))
        #expect(sdk.joryio.isInitializationPending)
        #expect(sdk.joryio.currentApiEndpoint == "")
        #expect(sdk.messages(at: .info).contains { $0.contains("completes at the first unlock") })
        #expect(sdk.messages(at: .error).isEmpty)

        sdk.joryio.track("before identify")
        sdk.joryio.identify("user-1")
        sdk.joryio.track("after identify")
        sdk.scheduler.runUntilIdle()
        #expect(transport.requests.isEmpty)
        #expect(sdk.joryio.getQueueSize() == 0)

        device.unlock()
        sdk.scheduler.runUntilIdle()
        #expect(!sdk.joryio.isInitializationPending)
        #expect(sdk.joryio.currentApiEndpoint == TestSDK.apiHost)
        sdk.flushAll()
        let events = transport.requests.flatMap(\.events)
        #expect(events.compactMap { $0["event"]?.stringValue } == ["before identify", "after identify"])
        #expect(events.map { $0["userId"]?.stringValue } == [nil, "user-1"])
    }

    @Test("a device locked after its first unlock starts at once (INIT-15)")
    func merelyLockedStartsAtOnce() {
        let sdk = TestSDK(
            transport: RecordingTransport(),
            storageAvailability: ManualStorageAvailability(available: true)
        )
        sdk.start()
        #expect(!sdk.joryio.isInitializationPending)
        #expect(sdk.joryio.currentApiEndpoint == TestSDK.apiHost)
    }

    @Test("a second initialize() while waiting is ignored with a warning; the first one's settings start at the unlock")
    func secondCallWhileWaiting() {
        let device = ManualStorageAvailability()
        let sdk = TestSDK(transport: RecordingTransport(), storageAvailability: device)
        sdk.start(apiHost: "https://first.example.com/api")
        sdk.start(apiHost: "https://second.example.com/api")
        #expect(sdk.messages(at: .warning).contains { $0.contains("waiting for the first unlock") })
        device.unlock()
        sdk.scheduler.runUntilIdle()
        #expect(sdk.joryio.currentApiEndpoint == "https://first.example.com/api")
    }

    @Test("a refused key is refused at once, not after the unlock")
    func refusedBeforeWaiting() {
        let device = ManualStorageAvailability()
        let sdk = TestSDK(transport: RecordingTransport(), storageAvailability: device)
        sdk.start(sdkKey: "not-a-key")
        #expect(!sdk.joryio.isInitializationPending)
        #expect(sdk.messages(at: .error).count == 1)
    }

    @Test("the probe: only a protection refusal means 'before the first unlock'")
    func probeClassification() {
        struct Other: Error {}
        func probe(read: (any Error)?, create: (any Error)?) -> Bool {
            FirstUnlockProbe(
                read: { if let read { throw read } },
                create: { if let create { throw create } }
            ).isReadable()
        }
        #expect(probe(read: nil, create: nil))
        #expect(!probe(read: CocoaError(.fileReadNoPermission), create: nil))
        #expect(!probe(read: POSIXError(.EPERM), create: nil))
        #expect(!probe(read: CocoaError(.fileReadNoSuchFile), create: CocoaError(.fileWriteNoPermission)))
        #expect(!probe(read: CocoaError(.fileReadNoSuchFile), create: POSIXError(.EACCES)))
        #expect(probe(read: CocoaError(.fileReadNoSuchFile), create: nil))
        // Another failure (a full disk, a missing directory) is not this wait: the stores report it.
        #expect(probe(read: CocoaError(.fileReadNoSuchFile), create: CocoaError(.fileWriteOutOfSpace)))
        #expect(probe(read: Other(), create: Other()))
    }
}

extension FirstUnlockTests {
    @Test(
        "the unlock's notification was missed: a later initialize() finds storage readable and starts the waiting call's settings"
    )
    func missedUnlock() {
        // A device whose availability flips without calling back (a notification the app missed).
        final class Silent: StorageAvailability {
            let available = Locked(false)
            var isAvailable: Bool { self.available.value }
            func whenAvailable(_ body: @escaping @Sendable () -> Void) {}
        }
        let device = Silent()
        let sdk = TestSDK(transport: RecordingTransport(), storageAvailability: device)
        sdk.start(apiHost: "https://first.example.com/api")
        #expect(sdk.joryio.isInitializationPending)
        device.available.withLock { $0 = true }
        sdk.start(apiHost: "https://second.example.com/api")
        #expect(!sdk.joryio.isInitializationPending)
        #expect(sdk.joryio.currentApiEndpoint == "https://first.example.com/api")
        #expect(sdk.messages(at: .warning).contains { $0.contains("already initialized") })
    }
}
