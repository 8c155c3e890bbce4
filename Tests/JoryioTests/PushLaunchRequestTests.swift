import Foundation
import Joryio
import JoryioCore
import JoryioKit
import JoryioPush
import JoryioTesting
import Testing

/// `requestPushPermissionAtLaunch` shows the prompt at every launch, but only an explicit
/// `requestPushPermission()` or `registerPushToken` turns push back on after `unregisterPush()` or
/// `wipeData()` (issue 26, bug 3; PUSH-1, PUSH-3, PUSH-13, PUSH-15, WIPE-5).
@Suite struct PushLaunchRequestTests {
    private static let tokenBytes = PushRegistrationTests.tokenBytes
    private static let token = PushRegistrationTests.token

    private func sdk(
        _ transport: RespondingTransport,
        platform: FakePushPlatform,
        directory: URL,
        firstId: UInt64 = 1
    ) -> TestSDK {
        TestSDK(
            transport: transport,
            storage: .sqlite(directory: directory),
            identifiers: SequentialIdentifierGenerator(first: firstId),
            features: .joryio(push: platform, environment: .sandbox, bundleId: "com.example.app")
        )
    }

    /// The next launch over `directory`, with `requestPushPermissionAtLaunch`: started, its launch
    /// request answered, and the token iOS hands every launch delivered.
    private func relaunchAskingAtLaunch(
        _ transport: RespondingTransport,
        platform: FakePushPlatform,
        directory: URL
    ) async -> TestSDK {
        let sdk = self.sdk(transport, platform: platform, directory: directory, firstId: 1000)
        sdk.start(config: JoryioConfig(requestPushPermissionAtLaunch: true))
        #expect(await sdk.joryio.feature(PushFeature.self)?.permissionRequestAtLaunch?.value == true)
        sdk.scheduler.runUntilIdle()
        sdk.joryio.didRegisterForRemoteNotifications(deviceToken: Self.tokenBytes)
        sdk.advance(to: 600)
        return sdk
    }

    /// A first launch over `directory` that registers the token, then turns push off with `off`
    /// (`unregisterPush()`, `wipeData()`) and lets go of the storage for the next launch.
    private func firstLaunch(
        _ transport: RespondingTransport,
        directory: URL,
        turningPushOff off: (Joryio) -> Void
    ) {
        let first = self.sdk(transport, platform: FakePushPlatform(authorization: .authorized), directory: directory)
        first.start()
        first.joryio.didRegisterForRemoteNotifications(deviceToken: Self.tokenBytes)
        first.scheduler.runUntilIdle()
        off(first.joryio)
        first.scheduler.runUntilIdle()
        first.joryio.relinquishStorage()
    }

    @Test(
        "PUSH-15 / PUSH-1: with requestPushPermissionAtLaunch a relaunch keeps an earlier unregisterPush(); requestPushPermission() ends it"
    )
    func launchRequestKeepsUnregister() async throws {
        let directory = try PushRegistrationTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory.url) }
        let transport = RespondingTransport()
        self.firstLaunch(transport, directory: directory.url) { $0.unregisterPush() }
        #expect(PushRegistrationTests.summary(transport.requests) == ["register abab", "unregister abab"])

        let platform = FakePushPlatform(authorization: .authorized)
        let second = await self.relaunchAskingAtLaunch(transport, platform: platform, directory: directory.url)
        #expect(platform.calls.contains(.requestAuthorization(provisional: false)), "the prompt is still asked for")
        #expect(
            PushRegistrationTests.summary(transport.requests) == ["register abab", "unregister abab"],
            "nothing registered: push stays off"
        )
        #expect(!platform.calls.contains(.registerForRemoteNotifications), "iOS is not asked for a token either")
        #expect(second.joryio.feature(PushFeature.self)?.machine.state.isPushOff == true)

        // The explicit call turns push back on (PUSH-3, PUSH-13).
        #expect(await second.joryio.requestPushPermission())
        second.scheduler.runUntilIdle()
        #expect(
            PushRegistrationTests.summary(transport.requests) == ["register abab", "unregister abab", "register abab"]
        )
        #expect(platform.calls.contains(.registerForRemoteNotifications))
    }

    @Test("WIPE-5 / PUSH-32: with requestPushPermissionAtLaunch a relaunch after wipeData() keeps push off")
    func launchRequestKeepsWipe() async throws {
        let directory = try PushRegistrationTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory.url) }
        let transport = RespondingTransport()
        self.firstLaunch(transport, directory: directory.url) { $0.wipeData() }
        #expect(PushRegistrationTests.summary(transport.requests) == ["register abab", "unregister abab"])

        let platform = FakePushPlatform(authorization: .authorized)
        let second = await self.relaunchAskingAtLaunch(transport, platform: platform, directory: directory.url)
        #expect(
            PushRegistrationTests.summary(transport.requests) == ["register abab", "unregister abab"],
            "the token iOS hands is kept, not registered"
        )
        #expect(second.joryio.getDeviceToken() == Self.token)

        // An explicit registerPushToken turns push back on (WIPE-5).
        second.joryio.registerPushToken(Self.token)
        second.scheduler.runUntilIdle()
        #expect(PushRegistrationTests.summary(transport.requests).last == "register abab")
    }

    @Test("PUSH-1 / PUSH-2: without an unregister, the launch request asks iOS for a token and it is registered")
    func launchRequestRegistersWhenPushIsOn() async throws {
        let directory = try PushRegistrationTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory.url) }
        let transport = RespondingTransport()
        let platform = FakePushPlatform(authorization: .notDetermined)
        let sdk = await self.relaunchAskingAtLaunch(transport, platform: platform, directory: directory.url)
        #expect(
            platform.calls.filter { $0 == .registerForRemoteNotifications }.count == 2,
            "at start and after the prompt"
        )
        #expect(PushRegistrationTests.summary(transport.requests) == ["register abab"])
        #expect(sdk.joryio.getDeviceToken() == Self.token)
    }
}
