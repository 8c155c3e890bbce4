import Foundation
import Joryio
import JoryioCore
import JoryioInApp
import JoryioKit
import JoryioPush
import JoryioTesting
import Testing

/// What a platform cannot do is said once at `initialize()` (issue 26). Before, push on macOS and
/// in-app display on macOS and Linux ran on do-nothing platforms without a word.
@Suite struct PlatformSupportTests {
    @Test("The notes: one per missing capability, none where both exist")
    func notes() {
        #expect(PlatformSupport.notes(hasPush: true, displaysInApp: true).isEmpty)
        let none = PlatformSupport.notes(hasPush: false, displaysInApp: false)
        #expect(none.count == 2)
        #expect(none[0].contains("no push notifications"))
        #expect(none[1].contains("displays no in-app messages"))
        #expect(PlatformSupport.notes(hasPush: true, displaysInApp: false).count == 1)
    }

    @Test("Logged once at start, at info, for the instance's own platforms")
    func loggedAtStart() {
        let bare = FeatureCatalog.joryio(push: NoPushPlatform(), inApp: NoInAppPlatform())
            .onInitialize { $0.logPlatformSupport() }
        let sdk = TestSDK(transport: RecordingTransport(), features: bare)
        sdk.start()
        sdk.start()
        let lines = sdk.messages(at: .info).filter { $0.contains("this platform") }
        #expect(lines.count == 2, "\(lines)")

        let full = FeatureCatalog.joryio(push: FakePushPlatform(), inApp: FakeInAppPlatform())
            .onInitialize { $0.logPlatformSupport() }
        let apple = TestSDK(transport: RecordingTransport(), features: full)
        apple.start()
        #expect(!apple.messages(at: .info).contains { $0.contains("this platform") })
    }

    @Test("macOS: only an app bundle uses the notification center; a command-line tool or test runner does not")
    func notificationCenterNeedsAnAppBundle() {
        // Before issue 26 macOS had no push at all; with it, UNUserNotificationCenter.current() in a
        // process without a bundle raises and would crash the host.
        #expect(NotificationCenterAvailability.isUsable(bundlePathExtension: "app", bundleIdentifier: "com.example"))
        #expect(NotificationCenterAvailability.isUsable(bundlePathExtension: "APP", bundleIdentifier: "com.example"))
        #expect(!NotificationCenterAvailability.isUsable(bundlePathExtension: "", bundleIdentifier: nil))
        #expect(
            !NotificationCenterAvailability.isUsable(bundlePathExtension: "xctest", bundleIdentifier: "com.apple.x")
        )
        #expect(!NotificationCenterAvailability.isUsable(bundlePathExtension: "app", bundleIdentifier: ""))
    }
}
