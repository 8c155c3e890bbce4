import Foundation
import Joryio
import JoryioCore
import JoryioInApp
import JoryioKit
import JoryioTesting
import Testing

/// In-app messaging through the SDK on virtual time (issue 16): when syncs go, what triggers
/// campaigns, and the reports and forms the app sends, with their delivery tokens.
@Suite struct InAppFeatureTests {
    /// A sync answer with one event-triggered campaign and one attribute-triggered one.
    static let syncAnswer = #"""
        {"success":true,"campaigns":[
          {"id":"sale","type":"modal","deliveryToken":"tok-sale",
           "content":{"native":{"headline":"Sale","buttons":[{"id":"shop","label":"Shop","url":"myshop://sale"}]}},
           "triggers":[{"type":"event","name":"Product Viewed"}]},
          {"id":"vip","type":"banner","deliveryToken":"tok-vip","content":{"html":"<p>VIP</p>"},
           "triggers":[{"type":"attribute","key":"spend","comparison":"gte","value":100}]}]}
        """#

    /// Answers syncs with ``syncAnswer`` and everything else with the success shape.
    static func transport() -> RespondingTransport {
        RespondingTransport { request in
            request.url.path.hasSuffix("/v1/in-app/sync") ? .success(.json(200, Self.syncAnswer)) : .success(.ok)
        }
    }

    private func sdk(_ transport: RespondingTransport) -> TestSDK {
        TestSDK(transport: transport, features: .joryio(push: NoPushPlatform()))
    }

    private func syncs(_ transport: RespondingTransport) -> Int {
        transport.requests.filter { $0.url.path.hasSuffix("/v1/in-app/sync") }.count
    }

    private func feature(_ sdk: TestSDK) -> InAppFeature? {
        sdk.joryio.feature(InAppFeature.self)
    }

    @Test("INAPP-9 / INAPP-10: a sync at launch, then foreground syncs at most once per syncInterval")
    func launchAndForeground() throws {
        let transport = Self.transport()
        let sdk = self.sdk(transport)
        sdk.start()
        #expect(self.syncs(transport) == 1)
        let body = try #require(transport.requests.first { $0.url.path.hasSuffix("/v1/in-app/sync") }?.json)
        #expect(body["anonymousId"]?.stringValue?.isEmpty == false)
        #expect(self.feature(sdk)?.campaigns.map(\.id) == ["sale", "vip"])

        sdk.advance(to: 299)
        sdk.joryio.applicationWillEnterForeground()
        sdk.scheduler.runUntilIdle()
        #expect(self.syncs(transport) == 1, "within syncInterval")
        sdk.advance(to: 301)
        sdk.joryio.applicationWillEnterForeground()
        sdk.scheduler.runUntilIdle()
        #expect(self.syncs(transport) == 2)
    }

    @Test("INAPP-11 / INAPP-54: identify of another user and reset sync at once, whatever the interval")
    func identifyAndReset() {
        let transport = Self.transport()
        let sdk = self.sdk(transport)
        sdk.start()
        sdk.joryio.identify("u1")
        sdk.scheduler.runUntilIdle()
        sdk.joryio.identify("u1")
        sdk.scheduler.runUntilIdle()
        sdk.joryio.reset()
        sdk.scheduler.runUntilIdle()
        #expect(self.syncs(transport) == 3, "launch, identify u1, reset; the same user again syncs nothing")
    }

    @Test("INAPP-14: no sync while consent is pending; the owed sync goes on grant")
    func pendingConsent() {
        let transport = Self.transport()
        let sdk = self.sdk(transport)
        sdk.start(config: JoryioConfig(trackingConsent: .pending))
        sdk.advance(to: 600)
        #expect(self.syncs(transport) == 0)
        sdk.joryio.updateConsent(.granted)
        sdk.scheduler.runUntilIdle()
        #expect(self.syncs(transport) == 1)
    }

    @Test("INAPP-15: enabled: false turns everything off: no sync, no reports")
    func disabled() {
        let transport = Self.transport()
        let sdk = self.sdk(transport)
        sdk.start(config: JoryioConfig(inApp: InAppConfig(enabled: false)))
        sdk.joryio.trackInAppImpression(campaignId: "sale", action: "displayed")
        sdk.joryio.applicationWillEnterForeground()
        sdk.advance(to: 600)
        #expect(transport.requests.filter { $0.url.path.contains("/v1/in-app/") }.isEmpty)
    }

    @Test("INAPP-12: syncInAppCampaigns() is never rate-limited and returns once the sync ended")
    func explicitSync() async {
        let transport = Self.transport()
        let sdk = self.sdk(transport)
        sdk.start()
        // The scheduler runs the call while the facade awaits it.
        let runner = Task.detached { while !Task.isCancelled { sdk.scheduler.runUntilIdle(); await Task.yield() } }
        await sdk.joryio.syncInAppCampaigns()
        await sdk.joryio.syncInAppCampaigns()
        runner.cancel()
        #expect(self.syncs(transport) == 3)
    }

    @Test(
        "INAPP-13: an event and an attribute threshold trigger their campaigns; a watched attribute's change re-syncs"
    )
    func triggers() {
        let transport = Self.transport()
        let sdk = self.sdk(transport)
        sdk.start()
        sdk.track(["Product Viewed", "Something Else"])
        #expect(self.feature(sdk)?.offered == ["sale"])

        sdk.joryio.setAttribute("spend", value: 150)
        sdk.scheduler.runUntilIdle()
        #expect(self.syncs(transport) == 2, "spend is watched: a sync at once")
        #expect(self.feature(sdk)?.offered == ["sale"], "the threshold fires on the change")
    }

    @Test(
        "INAPP-33 / INAPP-63: the app's reports carry the campaign's delivery token; other actions are rejected with a log line"
    )
    func appReports() throws {
        let transport = Self.transport()
        let sdk = self.sdk(transport)
        sdk.start()
        sdk.joryio.trackInAppImpression(campaignId: "sale", action: "displayed")
        sdk.joryio.trackInAppImpression(campaignId: "sale", action: "clicked", elementId: "shop")
        sdk.joryio.trackInAppImpression(campaignId: "sale", action: "shown")
        sdk.joryio.trackInAppImpression(campaignId: "", action: "displayed")
        sdk.scheduler.runUntilIdle()
        let reports = transport.requests.filter { $0.url.path.hasSuffix("/v1/in-app/track") }.compactMap(\.json)
        #expect(reports.compactMap { $0["action"]?.stringValue } == ["displayed", "clicked"])
        #expect(reports.allSatisfy { $0["deliveryToken"]?.stringValue == "tok-sale" })
        #expect(reports.last?["elementId"]?.stringValue == "shop")
        #expect(Set(reports.compactMap { $0["messageId"]?.stringValue }).count == 2)
        let warnings = sdk.messages(at: .warning)
        #expect(warnings.contains { $0.contains("action \"shown\" rejected") })
        #expect(warnings.contains { $0.contains("campaignId must be 1 to 256 characters") })
    }

    @Test("INAPP-53: reports are dropped while opted out and kept before initialize()")
    func reportsAreCollected() {
        let transport = Self.transport()
        let sdk = self.sdk(transport)
        sdk.joryio.trackInAppImpression(campaignId: "sale", action: "dismissed")
        sdk.start()
        sdk.joryio.optOut()
        sdk.joryio.trackInAppImpression(campaignId: "sale", action: "displayed")
        sdk.scheduler.runUntilIdle()
        let actions = transport.requests.filter { $0.url.path.hasSuffix("/v1/in-app/track") }
            .compactMap { $0.json?["action"]?.stringValue }
        #expect(actions == ["dismissed"])
    }

    @Test("INAPP-51: submitInAppForm sends the values the wire takes, with the token, and never throws")
    func forms() async throws {
        let transport = Self.transport()
        let sdk = self.sdk(transport)
        sdk.start()
        let runner = Task.detached { while !Task.isCancelled { sdk.scheduler.runUntilIdle(); await Task.yield() } }
        await sdk.joryio.submitInAppForm(
            campaignId: "sale",
            values: ["email": "a@example.com", "age": 41, "news": true, "blob": Data([1, 2])]
        )
        runner.cancel()
        sdk.scheduler.runUntilIdle()
        let form = try #require(transport.requests.first { $0.url.path.hasSuffix("/v1/in-app/forms") }?.json)
        #expect(form["values"] == .object(["email": .string("a@example.com"), "age": .int(41), "news": .bool(true)]))
        #expect(form["deliveryToken"]?.stringValue == "tok-sale")
        #expect(sdk.messages(at: .warning).contains { $0.contains("submitInAppForm: dropped field blob") })
    }

    @Test("INAPP-16: evaluate and reset are ignored with a warning unless enableDebug")
    func debugGated() async {
        let transport = Self.transport()
        let sdk = self.sdk(transport)
        sdk.start()
        await sdk.joryio.evaluateInAppCampaigns()
        sdk.joryio.resetDisplayedCampaigns()
        sdk.scheduler.runUntilIdle()
        let warnings = sdk.messages(at: .warning)
        #expect(warnings.contains { $0.contains("evaluateInAppCampaigns() is ignored unless") })
        #expect(warnings.contains { $0.contains("resetDisplayedCampaigns() is ignored unless") })
        #expect(self.feature(sdk)?.offered.isEmpty == true)

        let debug = self.sdk(Self.transport())
        debug.start(config: JoryioConfig(enableDebug: true))
        await debug.joryio.evaluateInAppCampaigns()
        debug.scheduler.runUntilIdle()
        #expect(self.feature(debug)?.offered == ["sale", "vip"])
    }
}
