import Foundation
import Joryio
import JoryioCore
import JoryioInApp
import JoryioTestLanes
import JoryioTesting
import Testing

/// In-app messaging through the SDK against the sandbox over libcurl (issue 16): sync, trigger,
/// display on a fake platform, and reports whose delivery tokens the sandbox verifies.
@Suite("In-app messages against the sandbox", .tags(.sandbox))
struct SandboxInAppTests {
    static var sale: [String: Any] {
        [
            "id": "sale", "type": "modal",
            "content": [
                "native": ["headline": "Sale", "buttons": [["id": "shop", "label": "Shop", "url": "myshop://sale"]]]
            ],
            "triggers": [["type": "event", "name": "Product Viewed"]],
        ]
    }

    private func launch(_ rig: SandboxRig, _ platform: FakeInAppPlatform) -> SandboxSDK {
        rig.launch(features: .joryio(push: NoPushPlatform(), inApp: platform)) {
            $0.inAppPresenter = StubInAppPresenter()
        }
    }

    private func actions(_ rig: SandboxRig) async throws -> [String] {
        try await rig.sandbox.inAppReports(campaignId: "sale").reports.map {
            "\($0["action"] as? String ?? "?") \($0["token"] as? String ?? "?")"
        }
    }

    @Test(
        "INAPP-2 / INAPP-63: sync → trigger → display → displayed, clicked and dismissed, each with a token the server verifies"
    )
    func displayAndReport() async throws {
        let rig = try await SandboxRig()
        defer { rig.tearDown() }
        try await rig.sandbox.configureInApp(requireDeliveryToken: true)
        try await rig.sandbox.setInAppCampaign(Self.sale)
        let platform = FakeInAppPlatform()
        let sdk = self.launch(rig, platform)
        await rig.settle(sdk)
        sdk.joryio.track("Product Viewed")
        #expect(try await rig.drive(sdk) { try await self.actions(rig) == ["displayed valid"] })
        #expect(platform.calls == ["present sale"])
        let feature = try #require(sdk.joryio.feature(InAppFeature.self))
        sdk.scheduler.enqueue { feature.viewEvent(campaignId: "sale", clicked: "shop") }
        sdk.scheduler.enqueue { feature.viewEvent(campaignId: "sale", clicked: nil) }
        #expect(
            try await rig.drive(sdk) {
                try await self.actions(rig) == ["displayed valid", "clicked valid", "dismissed valid"]
            }
        )
    }

    @Test("INAPP-4: in required-token mode a report without a token is refused, dropped and logged")
    func tokenlessRefused() async throws {
        let rig = try await SandboxRig()
        defer { rig.tearDown() }
        try await rig.sandbox.configureInApp(requireDeliveryToken: true)
        let sdk = self.launch(rig, FakeInAppPlatform())
        await rig.settle(sdk)
        sdk.joryio.trackInAppImpression(campaignId: "never-synced", action: "displayed")
        await rig.settle(sdk)
        #expect(try await rig.sandbox.inAppReports().reports.isEmpty)
        #expect(
            sdk.messages(atLeast: .error).contains { $0.contains("in-app displayed rejected by the server (HTTP 400)") }
        )
        let sends = try await rig.sandbox.requests(path: "/api/v1/in-app/track").count
        await rig.settle(sdk, virtualLimit: 3600)
        #expect(try await rig.sandbox.requests(path: "/api/v1/in-app/track").count == sends, "dropped, not retried")
    }

    @Test("INAPP-7: a token about to expire is refreshed by a sync before the message is shown")
    func tokenRefreshedBeforeDisplay() async throws {
        let rig = try await SandboxRig()
        defer { rig.tearDown() }
        try await rig.sandbox.configureInApp(requireDeliveryToken: true, tokenTTL: 30)
        try await rig.sandbox.setInAppCampaign(Self.sale)
        let platform = FakeInAppPlatform()
        let sdk = self.launch(rig, platform)
        await rig.settle(sdk)
        let syncsBefore = try await rig.sandbox.requests(path: "/api/v1/in-app/sync").count
        sdk.joryio.track("Product Viewed")
        #expect(try await rig.drive(sdk) { try await self.actions(rig) == ["displayed valid"] })
        let syncsAfter = try await rig.sandbox.requests(path: "/api/v1/in-app/sync").count
        #expect(syncsAfter == syncsBefore + 1, "one refresh before display")
    }
}
