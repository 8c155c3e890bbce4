import Foundation
import Joryio
import JoryioCore
import JoryioKit
import JoryioPush
import JoryioTesting
import Testing

/// Push through the SDK (issue 14, first part): the permission answers, the `push_permission`
/// attribute (PUSH-11) and the badge, over a scripted platform on virtual time.
@Suite struct PushPermissionTests {
    private func sdk(_ platform: FakePushPlatform, transport: RecordingTransport) -> TestSDK {
        TestSDK(transport: transport, features: .joryio(push: platform))
    }

    /// The `push_permission` values sent, in order.
    private func permissions(_ transport: RecordingTransport) -> [String] {
        transport.requests.filter { $0.url.path.hasSuffix("/v1/attributes") }.flatMap { request -> [String] in
            let body = String(decoding: request.decodedBody ?? Data(), as: UTF8.self)
            return ["granted", "denied", "not_determined"].filter { body.contains("\"\($0)\"") }
        }
    }

    @Test("PUSH-4/5 and INIT-7: the status and enabled answers, empty before initialize()")
    func answers() async {
        let platform = FakePushPlatform(authorization: .provisional)
        let sdk = self.sdk(platform, transport: RecordingTransport())
        #expect(await sdk.joryio.getPushPermissionStatus() == "")
        #expect(await sdk.joryio.isPushEnabled() == false)
        sdk.start()
        #expect(await sdk.joryio.getPushPermissionStatus() == "granted")
        #expect(await sdk.joryio.isPushEnabled())
        platform.authorization = .denied
        #expect(await sdk.joryio.getPushPermissionStatus() == "denied")
        #expect(Joryio.pushPermissionAttribute == "push_permission")
    }

    @Test("PUSH-11: push_permission is written at start and when it changes (checked at foreground), once per value")
    func attributeFollowsTheStatus() {
        let transport = RecordingTransport()
        let platform = FakePushPlatform(authorization: .notDetermined)
        let sdk = self.sdk(platform, transport: transport)
        sdk.start()
        sdk.advance(to: 60)
        #expect(self.permissions(transport) == ["not_determined"])

        sdk.joryio.applicationWillEnterForeground()
        sdk.advance(to: 120)
        #expect(self.permissions(transport) == ["not_determined"], "unchanged: not written again")

        platform.authorization = .ephemeral
        sdk.joryio.applicationWillEnterForeground()
        sdk.advance(to: 180)
        #expect(self.permissions(transport) == ["not_determined", "granted"])
    }

    @Test("PUSH-11 with privacy: nothing is written while opted out; the current value once collection resumes")
    func attributeRespectsOptOut() {
        let transport = RecordingTransport()
        let platform = FakePushPlatform(authorization: .denied)
        let sdk = self.sdk(platform, transport: transport)
        sdk.joryio.optOut()
        sdk.start()
        platform.authorization = .authorized
        sdk.joryio.applicationWillEnterForeground()
        sdk.advance(to: 60)
        #expect(self.permissions(transport).isEmpty)

        sdk.joryio.optIn()
        sdk.advance(to: 120)
        #expect(self.permissions(transport) == ["granted"])
    }

    @Test("a platform without push (Linux, a server) writes no push_permission")
    func noPushNoAttribute() {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport, features: .joryio(push: NoPushPlatform()))
        sdk.start()
        sdk.joryio.applicationWillEnterForeground()
        sdk.advance(to: 60)
        #expect(self.permissions(transport).isEmpty)
    }

    @Test("PUSH-28: the badge: set, cleared, negative counts as 0, queued before initialize()")
    func badge() {
        let platform = FakePushPlatform()
        let sdk = self.sdk(platform, transport: RecordingTransport())
        sdk.joryio.updateBadgeCount(3)
        #expect(platform.calls.isEmpty)
        sdk.start()
        sdk.joryio.updateBadgeCount(-2)
        sdk.joryio.clearBadge()
        sdk.scheduler.runUntilIdle()
        // PUSH-2: the start asks iOS for a token first, permission or not.
        #expect(
            platform.calls == [
                .registerForRemoteNotifications, .setBadgeCount(3), .setBadgeCount(0), .setBadgeCount(0),
            ]
        )
    }
}
