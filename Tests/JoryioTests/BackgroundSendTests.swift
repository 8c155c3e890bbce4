import Foundation
import Joryio
import JoryioCore
import JoryioKit
import JoryioPush
import JoryioTesting
import Testing

/// The send `didEnterBackground` starts runs inside a background task (issue 26): the lifecycle
/// observer begins the task and ends it through a ``BackgroundTaskLease`` when the SDK says the
/// send settled, or when the system's expiration handler fires. Before issue 26 no task was begun,
/// so iOS could suspend the app with the batch on the wire.
@Suite struct BackgroundSendTests {
    static let accepted = HTTPResponse(status: 200, body: Data(#"{"success":true}"#.utf8))

    /// Records when `whenSent` was called.
    final class Sent: Sendable {
        private let count = Locked(0)
        var calls: Int { self.count.withLock { $0 } }
        func call() { self.count.withLock { $0 += 1 } }
    }

    @Test("The lease ends its task once: the settled send or the expiration handler, whichever is first")
    func leaseEndsOnce() {
        let ends = Sent()
        let lease = BackgroundTaskLease { ends.call() }
        #expect(!lease.isFinished)
        lease.finish()
        lease.finish()
        #expect(ends.calls == 1)
        #expect(lease.isFinished)
    }

    @Test("whenSent waits for the answer to the background send, then comes once")
    func waitsForTheAnswer() {
        let transport = HoldingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.start(config: JoryioConfig(flushInterval: 3600))
        sdk.track(["a", "b"])
        let sent = Sent()
        sdk.joryio.applicationDidEnterBackground(whenSent: { sent.call() })
        sdk.scheduler.runUntilIdle()
        #expect(transport.inFlight == 1, "the background send is on the wire")
        #expect(sent.calls == 0, "the task must not end while it is")
        transport.answer(.success(Self.accepted))
        sdk.scheduler.runUntilIdle()
        #expect(sent.calls == 1)
        #expect(sdk.joryio.getQueueSize() == 0)
    }

    @Test("a drain of several batches settles after its last one; a failure settles into the backoff")
    func settlesAfterTheLastBatch() {
        let transport = HoldingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.start(config: JoryioConfig(batchSize: 2, flushInterval: 3600))
        sdk.track(["a"])
        sdk.track(["b"])
        sdk.track(["c"])
        // The size trigger sent [a, b]: answer it so the background starts a fresh run.
        while transport.answer(.success(Self.accepted)) { sdk.scheduler.runUntilIdle() }
        sdk.track(["d", "e"])
        while transport.answer(.success(Self.accepted)) { sdk.scheduler.runUntilIdle() }
        sdk.track(["f", "g", "h"])
        let sent = Sent()
        sdk.joryio.applicationDidEnterBackground(whenSent: { sent.call() })
        sdk.scheduler.runUntilIdle()
        var batches = 0
        while transport.inFlight > 0 {
            #expect(sent.calls == 0)
            transport.answer(.success(Self.accepted))
            sdk.scheduler.runUntilIdle()
            batches += 1
        }
        #expect(batches >= 1)
        #expect(sent.calls == 1)

        sdk.track(["i"])
        let again = Sent()
        sdk.joryio.applicationDidEnterBackground(whenSent: { again.call() })
        sdk.scheduler.runUntilIdle()
        transport.answer(.failure(TransportError(.timeout, "timed out")))
        sdk.scheduler.runUntilIdle()
        #expect(again.calls == 1, "a failed send settles: the retry waits for the next launch or foreground")
    }

    @Test("nothing to send, or not started: whenSent comes at once")
    func atOnce() {
        let idle = TestSDK(transport: HoldingTransport())
        idle.start()
        let sent = Sent()
        idle.joryio.applicationDidEnterBackground(whenSent: { sent.call() })
        idle.scheduler.runUntilIdle()
        #expect(sent.calls == 1)

        let early = TestSDK(transport: HoldingTransport())
        let before = Sent()
        early.joryio.applicationDidEnterBackground(whenSent: { before.call() })
        #expect(before.calls == 1, "before initialize() the task is not held")
    }
}

/// The app's activity is published, not asked for (issue 26): `UIKitInAppPlatform.isActive` reads
/// ``AppActivity`` on the engine's queue instead of `DispatchQueue.main.sync`, which deadlocked
/// against a main thread waiting on the SDK.
@Suite(.serialized) struct AppActivityTests {
    @Test("INAPP-57: didBecomeActive / willResignActive publish the activity the in-app platform reads, at once")
    func published() {
        let sdk = TestSDK(transport: RecordingTransport())
        sdk.joryio.applicationDidBecomeActive()
        #expect(AppActivity.isActive, "published on the caller's thread, before any engine job")
        sdk.joryio.applicationWillResignActive()
        #expect(!AppActivity.isActive)
    }

    @Test(
        "INAPP-57: the lifecycle observer is attached outside the instance's lock: an app already active reports it synchronously"
    )
    func observerOutsideTheLock() {
        // Before the fix the observer ran inside initialize()'s lock; the live one, finding the app
        // active on the main thread, called applicationDidBecomeActive() there and the NSLock
        // deadlocked (this test hung).
        let platform = FakeInAppPlatform()
        platform.isActive = false
        let sdk = TestSDK(
            transport: InAppFeatureTests.transport(),
            features: .joryio(push: NoPushPlatform(), inApp: platform),
            observeLifecycle: { joryio in joryio.applicationDidBecomeActive() }
        )
        sdk.joryio.inAppPresenter = StubInAppPresenter()
        sdk.start()
        sdk.track(["Product Viewed"])
        #expect(platform.calls == ["present sale"], "active from the start, without a didBecomeActive notification")
    }
}
