import Foundation
import Joryio
import JoryioCore
import JoryioFeature
import JoryioKit
import JoryioPush
import JoryioTesting
import Testing

/// Links tapped in the built-in renderer's messages are followed by push's link handling (issue 17,
/// DEEPLINK-5, ULINK-9): one router for push and in-app links.
@Suite struct InAppLinkTests {
    private struct Setup {
        let sdk: TestSDK
        let platform: FakePushPlatform
    }

    private func setup(platform: FakePushPlatform = FakePushPlatform(authorization: .authorized)) -> Setup {
        let scheduler = ManualScheduler()
        let sdk = TestSDK(
            transport: RecordingTransport(),
            scheduler: scheduler,
            features: FeatureCatalog.joryio(push: platform)
        )
        sdk.start()
        return Setup(sdk: sdk, platform: platform)
    }

    private static let deep = URL(string: "myshop://promotion?id=42")
    private static let web = URL(string: "https://shop.example.com/sale")

    @Test("DEEPLINK-5: an in-app deep link is opened, as a push's is")
    func deepLink() throws {
        let setup = self.setup()
        let url = try #require(Self.deep)
        setup.sdk.joryio.followInAppLink(url, asUniversalLink: false)
        setup.sdk.scheduler.runUntilIdle()
        #expect(setup.platform.actions == [.open(url)])
    }

    @Test("ULINK-9, GAP-72: an in-app https link is offered as a universal link, opened when not handled")
    func universalLink() throws {
        let url = try #require(Self.web)
        let cases: [(UniversalLinkDelivery, [FakePushPlatform.Call])] = [
            (.scene, [.continueUserActivity(url)]),
            (.appDelegate(handled: true), [.continueUserActivity(url)]),
            (.appDelegate(handled: false), [.continueUserActivity(url), .open(url)]),
            (.noHandler, [.continueUserActivity(url), .open(url)]),
        ]
        for (delivery, expected) in cases {
            let setup = self.setup(platform: FakePushPlatform(universalLinks: delivery))
            setup.sdk.joryio.followInAppLink(url, asUniversalLink: true)
            setup.sdk.scheduler.runUntilIdle()
            #expect(setup.platform.actions == expected, "\(delivery)")
        }
    }

    @Test("DEEPLINK-6, GAP-73: the app's link handler sees in-app links first; true stops the SDK")
    func linkHandler() throws {
        let seen = Locked<[URL]>([])
        let setup = self.setup()
        setup.sdk.joryio.setLinkHandler { url in
            seen.withLock { $0.append(url) }
            return true
        }
        let url = try #require(Self.deep)
        setup.sdk.joryio.followInAppLink(url, asUniversalLink: false)
        setup.sdk.scheduler.runUntilIdle()
        #expect(seen.withLock { $0 } == [url])
        #expect(setup.platform.actions.isEmpty)
    }

    @Test("DEEPLINK-7: an in-app link waits for the active app")
    func waitsForActive() throws {
        let platform = FakePushPlatform(isActive: false)
        let setup = self.setup(platform: platform)
        let url = try #require(Self.deep)
        setup.sdk.joryio.followInAppLink(url, asUniversalLink: false)
        setup.sdk.scheduler.runUntilIdle()
        #expect(platform.actions.isEmpty)
        platform.becomeActive()
        #expect(platform.actions == [.open(url)])
    }
}
