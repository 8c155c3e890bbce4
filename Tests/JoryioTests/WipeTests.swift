import Foundation
import Joryio
import JoryioCore
import JoryioInApp
import JoryioKit
import JoryioPush
import JoryioTesting
import Testing

/// `wipeData()` deletes everything WIPE-1 lists, on disk too: checked by what a relaunch on the
/// same storage still has and sends once the network is back (issue 26: the rule cited a test of
/// push reports only).
@Suite struct WipeTests {
    @Test(
        "WIPE-1: the ids, the device id, queued events, unsent attribute writes, the in-app state, the session and the push token are gone"
    )
    func wipeDeletesEverythingListed() throws {
        try withTemporaryDirectory { directory in
            let online = Locked(false)
            let transport = RespondingTransport { request in
                if request.url.path.hasSuffix("/v1/in-app/sync") {
                    return .success(.json(200, InAppFeatureTests.syncAnswer))
                }
                return online.withLock { $0 } ? .success(.ok) : .failure(TransportError(.cannotConnect, "offline"))
            }
            let features = FeatureCatalog.joryio(
                push: FakePushPlatform(authorization: .authorized),
                inApp: FakeInAppPlatform()
            )
            let sdk = TestSDK(transport: transport, storage: .sqlite(directory: directory), features: features)
            sdk.start(config: JoryioConfig(userId: "user-1"), sessionStart: true)
            sdk.joryio.didRegisterForRemoteNotifications(deviceToken: Data(repeating: 0xab, count: 32))
            sdk.joryio.setAttributes(["plan": "pro"])
            sdk.track(["before wipe"])
            sdk.advance(to: 10)  // a send is tried, offline: the event stays queued
            let before = sdk.joryio.getAnonymousId()
            let deviceBefore = try #require(transport.requests.flatMap(\.events).first?["deviceId"])
            #expect(sdk.joryio.getQueueSize() > 0)
            #expect(sdk.joryio.getDeviceToken() != nil)
            #expect(sdk.joryio.getSessionId() != nil)
            #expect(sdk.joryio.feature(InAppFeature.self)?.campaigns.isEmpty == false)

            sdk.joryio.wipeData()
            sdk.scheduler.runUntilIdle()
            #expect(sdk.joryio.getUserId() == nil)
            #expect(sdk.joryio.getAnonymousId() != before)
            #expect(sdk.joryio.getQueueSize() == 0)
            #expect(sdk.joryio.getDeviceToken() == nil)
            #expect(sdk.joryio.getSessionId() == nil)
            #expect(sdk.joryio.feature(InAppFeature.self)?.campaigns.isEmpty == true)

            // The same storage after a relaunch, online: nothing of the wiped person comes back or goes out.
            online.withLock { $0 = true }
            let sent = transport.requests.count
            let relaunched = TestSDK(
                transport: transport,
                storage: .sqlite(directory: directory),
                features: FeatureCatalog.joryio(
                    push: FakePushPlatform(authorization: .authorized),
                    inApp: FakeInAppPlatform()
                )
            )
            relaunched.start()
            relaunched.track(["after wipe"])
            relaunched.flushAll()
            relaunched.advance(to: 60)
            #expect(relaunched.joryio.getUserId() == nil)
            #expect(relaunched.joryio.getAnonymousId() == sdk.joryio.getAnonymousId())
            #expect(relaunched.joryio.getDeviceToken() == nil)
            let later = transport.requests.dropFirst(sent)
            let events = later.flatMap(\.events)
            #expect(events.compactMap { $0["event"]?.stringValue } == ["after wipe"])
            #expect(events.allSatisfy { $0["deviceId"] != deviceBefore }, "a new device id")
            #expect(events.allSatisfy { $0["userId"] == nil || $0["userId"] == .null })
            let attributes = later.filter { $0.url.path.hasSuffix("/v1/attributes") }.compactMap(\.json)
            #expect(!attributes.description.contains("plan"), "the unsent attribute write is gone: \(attributes)")
            #expect(!later.contains { $0.url.path.hasSuffix("/v1/push/register") }, "no token to register")
        }
    }
}
