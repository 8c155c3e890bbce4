import Foundation
import Joryio
import JoryioCore
import JoryioFeature
import JoryioInApp
import JoryioKit
import JoryioPush
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

    // IDENT-1, IDENT-8: identify and reset() re-sync in-app messages at once.
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

    @Test("INAPP-55: with notifications declined, a silent sync push still syncs the campaigns at once")
    func silentSyncWithPushDeclined() {
        let transport = Self.transport()
        let sdk = TestSDK(transport: transport, features: .joryio(push: FakePushPlatform(authorization: .denied)))
        sdk.start()
        #expect(self.syncs(transport) == 1)
        let completions = Completions()
        sdk.joryio.didReceiveRemoteNotification(APNs.userInfo(APNs.silentSync), completionHandler: completions.handler)
        sdk.scheduler.runUntilIdle()
        #expect(self.syncs(transport) == 2, "within syncInterval, so only the push asked for it")
        #expect(completions.all.count == 1)
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

    // ATTR-18: a change to an attribute a campaign watches syncs at once.
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
        #expect(self.feature(sdk)?.offered == ["sale", "vip"], "the threshold fires on the change")
    }

    // INAPP-3 / INAPP-6: the app passes no token; the SDK attaches the campaign's own to every report.
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

    @Test("INAPP-53, OPTOUT-1: reports are dropped while opted out and kept before initialize()")
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

    @Test(
        "GAP-25: a form submitted while consent is pending is held on the device, sent on grant, deleted on denial",
        arguments: [(TrackingConsent.granted, 1), (.denied, 0)]
    )
    func formsWhileConsentIsPending(answer: TrackingConsent, sent: Int) async {
        let transport = Self.transport()
        let sdk = self.sdk(transport)
        sdk.start(config: JoryioConfig(trackingConsent: .pending))
        let runner = Task.detached { while !Task.isCancelled { sdk.scheduler.runUntilIdle(); await Task.yield() } }
        await sdk.joryio.submitInAppForm(campaignId: "sale", values: ["email": "a@example.com"])
        runner.cancel()
        sdk.advance(to: 600)
        let forms = { transport.requests.filter { $0.url.path.hasSuffix("/v1/in-app/forms") } }
        #expect(forms().isEmpty, "sent while consent was pending")

        sdk.joryio.updateConsent(answer)
        sdk.scheduler.runUntilIdle()
        #expect(forms().count == sent)
        #expect(forms().first?.json?["values"] == (sent == 1 ? .object(["email": .string("a@example.com")]) : nil))
    }

    // INAPP-16, LOG-3, LOG-4: evaluate and reset are ignored with a warning unless enableDebug
    @Test("INAPP-16 / GAP-61: evaluate (async) and reset (synchronous) are ignored with a warning unless enableDebug")
    func debugGated() async {
        let transport = Self.transport()
        let sdk = self.sdk(transport)
        sdk.start()
        // The scheduler runs the call while the facade awaits it (issue 26: it waits for the evaluation).
        let runner = Task.detached { while !Task.isCancelled { sdk.scheduler.runUntilIdle(); await Task.yield() } }
        await sdk.joryio.evaluateInAppCampaigns()
        runner.cancel()
        sdk.joryio.resetDisplayedCampaigns()
        sdk.scheduler.runUntilIdle()
        let warnings = sdk.messages(at: .warning)
        #expect(warnings.contains { $0.contains("evaluateInAppCampaigns() is ignored unless") })
        #expect(warnings.contains { $0.contains("resetDisplayedCampaigns() is ignored unless") })
        #expect(self.feature(sdk)?.offered.isEmpty == true)

        let debug = self.sdk(Self.transport())
        debug.start(config: JoryioConfig(enableDebug: true))
        let debugRunner = Task.detached {
            while !Task.isCancelled { debug.scheduler.runUntilIdle(); await Task.yield() }
        }
        await debug.joryio.evaluateInAppCampaigns()
        debugRunner.cancel()
        debug.scheduler.runUntilIdle()
        #expect(self.feature(debug)?.offered == ["sale", "vip"])
    }

    @Test("INAPP-17: the read-only diagnostics answer without enableDebug, with no warning")
    func diagnosticsNotGated() {
        let sdk = TestSDK(
            transport: Self.transport(),
            features: .joryio(push: FakePushPlatform(authorization: .authorized))
        )
        sdk.start(config: JoryioConfig(userId: "u1"))
        sdk.joryio.didRegisterForRemoteNotifications(deviceToken: Data(repeating: 0xab, count: 32))
        sdk.track(["a", "b", "c"])
        #expect(sdk.joryio.getQueueSize() == 3)
        #expect(sdk.joryio.getIdentity().userId == "u1")
        #expect(sdk.joryio.getSessionInfo().sessionId != nil)
        #expect(sdk.joryio.getDeviceToken() == String(repeating: "ab", count: 32))
        #expect(sdk.messages(atLeast: .warning).isEmpty)
    }
}

/// Display through the SDK (issue 16): the machine's decisions carried out on a fake platform.
@Suite struct InAppDisplayThroughSDKTests {
    private func sdk(_ platform: FakeInAppPlatform) -> (TestSDK, RespondingTransport) {
        let transport = InAppFeatureTests.transport()
        let sdk = TestSDK(transport: transport, features: .joryio(push: NoPushPlatform(), inApp: platform))
        return (sdk, transport)
    }

    private func reports(_ transport: RespondingTransport) -> [String] {
        transport.requests.filter { $0.url.path.hasSuffix("/v1/in-app/track") }.compactMap { request in
            guard let json = request.json else { return nil }
            return
                "\(json["action"]?.stringValue ?? "?") \(json["campaignId"]?.stringValue ?? "?") \(json["deliveryToken"]?.stringValue ?? "no token")"
        }
    }

    @Test(
        "INAPP-30 / INAPP-56 / INAPP-62: a presenter's message is reported displayed after 1 s on screen, with its token; a tap after it"
    )
    func presenterPath() throws {
        let platform = FakeInAppPlatform()
        let (sdk, transport) = self.sdk(platform)
        sdk.joryio.inAppPresenter = StubInAppPresenter()
        sdk.start()
        sdk.track(["Product Viewed"])
        #expect(platform.calls == ["present sale"])
        sdk.advance(to: 0.999)
        #expect(self.reports(transport).isEmpty, "not yet counted")
        sdk.advance(to: 1.001)
        #expect(self.reports(transport) == ["displayed sale tok-sale"])
        let feature = try #require(sdk.joryio.feature(InAppFeature.self))
        // What the presenter's delegate does: the events reach the feature on the engine.
        sdk.scheduler.enqueue { feature.viewEvent(campaignId: "sale", clicked: "shop") }
        sdk.scheduler.enqueue { feature.viewEvent(campaignId: "sale", clicked: nil) }
        sdk.scheduler.runUntilIdle()
        #expect(
            self.reports(transport) == ["displayed sale tok-sale", "clicked sale tok-sale", "dismissed sale tok-sale"]
        )
    }

    @Test(
        "INAPP-58 / INAPP-60: a close before the dwell second reports displayed first; a message removed earlier reports nothing"
    )
    func earlyClose() throws {
        let platform = FakeInAppPlatform()
        let (sdk, transport) = self.sdk(platform)
        sdk.joryio.inAppPresenter = StubInAppPresenter()
        sdk.start()
        sdk.track(["Product Viewed"])
        sdk.advance(to: 0.5)
        let feature = try #require(sdk.joryio.feature(InAppFeature.self))
        sdk.scheduler.enqueue { feature.viewEvent(campaignId: "sale", clicked: nil) }
        sdk.scheduler.runUntilIdle()
        #expect(self.reports(transport) == ["displayed sale tok-sale", "dismissed sale tok-sale"])
    }

    @Test(
        "INAPP-41 / RMQ-5: without a presenter nothing is shown, the warning is logged, and nothing is reported or counted"
    )
    func noPresenter() {
        let platform = FakeInAppPlatform()
        let (sdk, transport) = self.sdk(platform)
        sdk.start()
        sdk.track(["Product Viewed"])
        sdk.advance(to: 5)
        #expect(platform.calls == ["present sale (no presenter)"])
        #expect(sdk.messages(at: .warning).contains { $0.contains("No in-app presenter found") })
        #expect(self.reports(transport).isEmpty)
    }

    @Test("INAPP-42: with the app's own presenter assigned, the built-in one is never looked for")
    func customPresenterSkipsDiscovery() {
        let platform = FakeInAppPlatform()
        let (sdk, _) = self.sdk(platform)
        sdk.joryio.inAppPresenter = StubInAppPresenter()
        sdk.start()
        sdk.track(["Product Viewed"])
        sdk.advance(to: 5)
        #expect(platform.calls == ["present sale"])
        #expect(platform.discoveries == 0)
        #expect(!sdk.messages(at: .warning).contains { $0.contains("No in-app presenter found") })

        let without = FakeInAppPlatform()
        let (other, _) = self.sdk(without)
        other.start()
        other.track(["Product Viewed"])
        other.advance(to: 5)
        #expect(without.discoveries == 1, "without one, the SDK looks for the built-in presenter")
    }

    @Test(
        "INAPP-32 / INAPP-34: in callback mode the message goes to the callback, and only the app's own displayed is sent"
    )
    func callbackMode() {
        let platform = FakeInAppPlatform()
        let (sdk, transport) = self.sdk(platform)
        sdk.joryio.setInAppMessageCallback({ _ in }, capabilities: ["content.native"])
        sdk.start()
        sdk.track(["Product Viewed"])
        sdk.advance(to: 5)
        #expect(platform.calls == ["deliver sale"])
        #expect(self.reports(transport).isEmpty, "nothing until the app reports")
        sdk.joryio.trackInAppImpression(campaignId: "sale", action: "displayed")
        sdk.joryio.trackInAppImpression(campaignId: "sale", action: "dismissed")
        sdk.scheduler.runUntilIdle()
        #expect(self.reports(transport) == ["displayed sale tok-sale", "dismissed sale tok-sale"])
    }

    @Test("INAPP-57: nothing is presented while the app is not active; it is once the app returns")
    func waitsForActive() {
        let platform = FakeInAppPlatform()
        platform.isActive = false
        let (sdk, _) = self.sdk(platform)
        sdk.joryio.inAppPresenter = StubInAppPresenter()
        sdk.start()
        sdk.joryio.applicationDidEnterBackground()
        sdk.track(["Product Viewed"])
        sdk.advance(to: 5)
        #expect(platform.calls.isEmpty)
        platform.isActive = true
        sdk.joryio.applicationWillEnterForeground()
        sdk.joryio.applicationDidBecomeActive()
        sdk.advance(to: 10)
        #expect(platform.calls == ["present sale"])
    }

    @Test(
        "INAPP-57: a cold launch that starts inactive shows the message once the app becomes active (didBecomeActive), without a foreground"
    )
    func coldLaunchBecomesActive() {
        // Before issue 26 only willEnterForeground made the app active, and a cold launch has none:
        // the first session's messages never showed.
        let platform = FakeInAppPlatform()
        platform.isActive = false
        let (sdk, _) = self.sdk(platform)
        sdk.joryio.inAppPresenter = StubInAppPresenter()
        sdk.start()
        sdk.track(["Product Viewed"])
        sdk.advance(to: 2)
        #expect(platform.calls.isEmpty)
        platform.isActive = true
        sdk.joryio.applicationDidBecomeActive()
        sdk.advance(to: 3)
        #expect(platform.calls == ["present sale"])
    }

    @Test("INAPP-57: entering the foreground is not being active: nothing shows until didBecomeActive")
    func foregroundIsNotActive() {
        // Before issue 26 willEnterForeground fed `.appActive(true)`.
        let platform = FakeInAppPlatform()
        platform.isActive = false
        let (sdk, _) = self.sdk(platform)
        sdk.joryio.inAppPresenter = StubInAppPresenter()
        sdk.start()
        sdk.track(["Product Viewed"])
        sdk.joryio.applicationWillEnterForeground()
        sdk.advance(to: 5)
        #expect(platform.calls.isEmpty)
        sdk.joryio.applicationDidBecomeActive()
        sdk.advance(to: 6)
        #expect(platform.calls == ["present sale"])
    }

    @Test("INAPP-59: the 1 s dwell does not count while the app is inactive (willResignActive), and resumes after")
    func dwellPausesWhileInactive() {
        // Before issue 26 willResignActive was not observed: a message under Control Center or a
        // call counted as displayed.
        let platform = FakeInAppPlatform()
        let (sdk, transport) = self.sdk(platform)
        sdk.joryio.inAppPresenter = StubInAppPresenter()
        sdk.start()
        sdk.joryio.applicationDidBecomeActive()
        sdk.track(["Product Viewed"])
        #expect(platform.calls == ["present sale"])
        sdk.advance(to: 0.5)
        sdk.joryio.applicationWillResignActive()
        sdk.advance(to: 10)
        #expect(self.reports(transport).isEmpty, "half a second active so far")
        sdk.joryio.applicationDidBecomeActive()
        sdk.advance(to: 10.9)
        #expect(self.reports(transport).isEmpty, "the second is counted again from the return")
        sdk.advance(to: 11.1)
        #expect(self.reports(transport) == ["displayed sale tok-sale"])
    }

    @Test(
        "INAPP-49: onMessageDisplay, onMessageClick and onMessageDismiss are handed to the platform's main-thread runner, never run on the engine"
    )
    func hooksRunOnMain() throws {
        let platform = FakeInAppPlatform()
        let (sdk, _) = self.sdk(platform)
        let ran = Locked(0)
        sdk.joryio.inAppPresenter = StubInAppPresenter()
        sdk.start(
            config: JoryioConfig(
                inApp: InAppConfig(
                    onMessageDisplay: { _ in ran.withLock { $0 += 1 } },
                    onMessageClick: { _, _ in ran.withLock { $0 += 1 } },
                    onMessageDismiss: { _ in ran.withLock { $0 += 1 } }
                )
            )
        )
        sdk.track(["Product Viewed"])
        sdk.advance(to: 1.5)
        let feature = try #require(sdk.joryio.feature(InAppFeature.self))
        sdk.scheduler.enqueue { feature.viewEvent(campaignId: "sale", clicked: "shop") }
        sdk.scheduler.enqueue { feature.viewEvent(campaignId: "sale", clicked: nil) }
        sdk.scheduler.runUntilIdle()
        #expect(
            platform.calls == ["present sale", "hook", "hook", "hook"],
            "display, click, dismiss: each via runOnMain"
        )
        #expect(ran.withLock { $0 } == 0, "the fake's runner never runs them: nothing called them on the engine")
    }

    @Test("WIPE-11: wipeData() clears the displayed history: a campaign capped at one display shows again")
    func wipeClearsTheDisplayedHistory() {
        let capped = #"""
            {"success":true,"campaigns":[
              {"id":"once","type":"modal","deliveryToken":"tok-once","caps":{"maxImpressions":1},
               "content":{"native":{"headline":"Once"}},
               "triggers":[{"type":"event","name":"Product Viewed"}]}]}
            """#
        let transport = RespondingTransport { request in
            request.url.path.hasSuffix("/v1/in-app/sync") ? .success(.json(200, capped)) : .success(.ok)
        }
        let platform = FakeInAppPlatform()
        let sdk = TestSDK(transport: transport, features: .joryio(push: NoPushPlatform(), inApp: platform))
        sdk.joryio.setInAppMessageCallback({ _ in }, capabilities: ["content.native"])
        sdk.start()
        sdk.track(["Product Viewed"])
        sdk.joryio.trackInAppImpression(campaignId: "once", action: "displayed")
        sdk.joryio.trackInAppImpression(campaignId: "once", action: "dismissed")
        sdk.advance(to: 5)
        sdk.track(["Product Viewed"])
        sdk.advance(to: 10)
        #expect(platform.calls == ["deliver once"], "capped at one display")
        sdk.joryio.wipeData()
        sdk.advance(to: 4000)
        sdk.joryio.applicationWillEnterForeground()  // the campaigns are synced again
        sdk.advance(to: 4005)
        sdk.track(["Product Viewed"])
        sdk.advance(to: 4010)
        #expect(platform.calls == ["deliver once", "deliver once"], "the wiped history no longer caps it")
    }
}

/// Take-down (issue 17): a reset, a user change or an opt-out while the built-in presenter shows a
/// message removes it through the presenter that showed it, and reports nothing (INAPP-58,
/// OPTOUT-12), so the next message is not blocked.
@Suite struct InAppTakeDownTests {
    enum Change: String, CaseIterable, Sendable {
        case reset, anotherUser, optOut
    }

    private func reports(_ transport: RespondingTransport) -> [String] {
        transport.requests.filter { $0.url.path.hasSuffix("/v1/in-app/track") }.compactMap {
            $0.json?["action"]?.stringValue
        }
    }

    @Test(
        "INAPP-58 / OPTOUT-12: a reset, identify of another user or opt-out before the dwell second takes the message down through its presenter, reporting nothing",
        arguments: Change.allCases
    )
    func takenDownBeforeDwell(change: Change) async throws {
        let platform = FakeInAppPlatform()
        let transport = InAppFeatureTests.transport()
        let sdk = TestSDK(transport: transport, features: .joryio(push: NoPushPlatform(), inApp: platform))
        let presenter = StubInAppPresenter()
        sdk.joryio.inAppPresenter = presenter
        sdk.start()
        sdk.joryio.identify("u1")
        sdk.scheduler.runUntilIdle()
        sdk.track(["Product Viewed"])
        sdk.advance(to: 0.5)
        #expect(platform.calls == ["present sale"])
        switch change {
        case .reset: sdk.joryio.reset()
        case .anotherUser: sdk.joryio.identify("u2")
        case .optOut: sdk.joryio.optOut()
        }
        sdk.scheduler.runUntilIdle()
        #expect(platform.calls == ["present sale", "takeDown sale"])
        #expect(presenter.takenDown.isEmpty, "removed on the main thread, not before")
        let ran = await MainActor.run { platform.performTakeDowns() }
        #expect(ran == 1)
        #expect(presenter.takenDown == ["sale"])
        // A late dismissal from the presenter (it must not send one) is ignored too.
        let feature = try #require(sdk.joryio.feature(InAppFeature.self))
        sdk.scheduler.enqueue { feature.viewEvent(campaignId: "sale", clicked: nil) }
        sdk.advance(to: 5)
        #expect(self.reports(transport).isEmpty, "no displayed, click or dismissal sent")
        #expect(feature.reports.pending.isEmpty, "nor queued")
    }

    @Test(
        "IDENT-19 / INAPP-31: an anonymous visitor who identifies is not someone else: the message on screen stays and is reported"
    )
    func anonymousVisitorIdentifiesWhileShown() {
        let platform = FakeInAppPlatform()
        let transport = InAppFeatureTests.transport()
        let sdk = TestSDK(transport: transport, features: .joryio(push: NoPushPlatform(), inApp: platform))
        sdk.joryio.inAppPresenter = StubInAppPresenter()
        sdk.start()
        sdk.track(["Product Viewed"])
        sdk.advance(to: 0.5)
        #expect(platform.calls == ["present sale"])
        sdk.joryio.identify("u1")
        sdk.scheduler.runUntilIdle()
        sdk.advance(to: 5)
        #expect(platform.calls == ["present sale"], "not taken down")
        #expect(self.reports(transport) == ["displayed"], "its dwell second passed and counted")
    }

    @Test("INAPP-58: after a take-down the next message is presented; the presenter that showed it is the one asked")
    func nextMessageAfterTakeDown() async {
        let platform = FakeInAppPlatform()
        let transport = InAppFeatureTests.transport()
        let sdk = TestSDK(transport: transport, features: .joryio(push: NoPushPlatform(), inApp: platform))
        let first = StubInAppPresenter()
        let second = StubInAppPresenter()
        sdk.joryio.inAppPresenter = first
        sdk.start()
        sdk.track(["Product Viewed"])
        sdk.advance(to: 0.5)
        sdk.joryio.inAppPresenter = second
        sdk.joryio.reset()
        sdk.scheduler.runUntilIdle()
        _ = await MainActor.run { platform.performTakeDowns() }
        #expect(first.takenDown == ["sale"])
        #expect(second.takenDown.isEmpty)
        sdk.track(["Product Viewed"])
        sdk.advance(to: 2)
        #expect(platform.calls == ["present sale", "takeDown sale", "present sale"])
    }

    @Test("INAPP-58: without a presenter that can take messages down, the take-down still reports nothing")
    func presenterThatCannotTakeDown() async {
        let platform = FakeInAppPlatform()
        let transport = InAppFeatureTests.transport()
        let sdk = TestSDK(transport: transport, features: .joryio(push: NoPushPlatform(), inApp: platform))
        sdk.joryio.inAppPresenter = AppOwnPresenter()
        sdk.start()
        sdk.track(["Product Viewed"])
        sdk.advance(to: 0.5)
        sdk.joryio.optOut()
        sdk.scheduler.runUntilIdle()
        #expect(platform.calls == ["present sale", "takeDown sale"])
        let ran = await MainActor.run { platform.performTakeDowns() }
        #expect(ran == 0)
        #expect(
            sdk.messages(at: .warning).contains {
                $0.contains("AppOwnPresenter") && $0.contains("does not adopt InAppMessageTakingDown")
            }
        )
        sdk.advance(to: 5)
        #expect(self.reports(transport).isEmpty)
    }

    @Test("INAPP-58: an app's own presenter that adopts InAppMessageTakingDown is asked to take the message down")
    func appPresenterThatTakesDown() async {
        let platform = FakeInAppPlatform()
        let transport = InAppFeatureTests.transport()
        let sdk = TestSDK(transport: transport, features: .joryio(push: NoPushPlatform(), inApp: platform))
        let presenter = AppPresenterTakingDown()
        sdk.joryio.inAppPresenter = presenter
        sdk.start()
        sdk.track(["Product Viewed"])
        sdk.advance(to: 0.5)
        sdk.joryio.reset()
        sdk.scheduler.runUntilIdle()
        let ran = await MainActor.run { platform.performTakeDowns() }
        #expect(ran == 1)
        #expect(await MainActor.run { presenter.removed } == ["sale"])
        #expect(!sdk.messages(at: .warning).contains { $0.contains("does not adopt") })
        sdk.advance(to: 5)
        #expect(self.reports(transport).isEmpty)
    }
}

/// An app's own presenter that can take messages down, as an app writes one (public API only).
@MainActor
private final class AppPresenterTakingDown: InAppMessagePresenter, InAppMessageTakingDown {
    var removed: [String] = []

    func present(
        campaign: InAppMessage,
        in viewController: InAppPresentationContext,
        delegate: any InAppMessageViewDelegate
    ) -> Bool {
        true
    }

    func takeDown(_ message: InAppMessage) {
        self.removed.append(message.id)
    }
}

/// An app's own presenter that does not adopt the take-down protocol.
private final class AppOwnPresenter: InAppMessagePresenter {
    @MainActor
    func present(
        campaign: InAppMessage,
        in viewController: InAppPresentationContext,
        delegate: any InAppMessageViewDelegate
    ) -> Bool {
        true
    }
}

/// Events tracked while a sync is on the wire (GAP-39): the campaigns its answer brings are
/// checked against them, so an event tracked in the first moments after launch still triggers.
@Suite struct InAppHeldEventTests {
    static let sale = HTTPResponse(status: 200, body: Data(InAppFeatureTests.syncAnswer.utf8))

    /// An SDK whose requests wait on the wire until the test answers them.
    private func sdk() -> (TestSDK, HoldingTransport) {
        let transport = HoldingTransport()
        return (
            TestSDK(transport: transport, features: .joryio(push: NoPushPlatform(), inApp: FakeInAppPlatform())),
            transport
        )
    }

    private func offered(_ sdk: TestSDK) -> [String] {
        sdk.joryio.feature(InAppFeature.self)?.offered ?? []
    }

    @Test("GAP-39: an event tracked before the launch sync answers triggers the campaign the answer brings, once")
    func beforeTheLaunchSync() {
        let (sdk, transport) = self.sdk()
        sdk.start()
        #expect(transport.inFlight == 1, "the launch sync is on the wire")
        sdk.track(["Product Viewed", "Other", "Product Viewed"])
        #expect(self.offered(sdk).isEmpty, "nothing known yet")
        transport.answer(.success(Self.sale))
        sdk.scheduler.runUntilIdle()
        #expect(self.offered(sdk) == ["sale"], "once, however often it was tracked")
        sdk.track(["Product Viewed"])
        #expect(self.offered(sdk) == ["sale", "sale"], "and as usual afterwards")
    }

    @Test("GAP-39: held events older than 30 s, beyond the last 32, or of another user trigger nothing")
    func limits() {
        let (sdk, transport) = self.sdk()
        sdk.start()
        sdk.track(["Product Viewed"])
        sdk.advance(to: 31)
        transport.answer(.success(Self.sale))
        sdk.scheduler.runUntilIdle()
        #expect(self.offered(sdk).isEmpty, "tracked 31 s before the answer")

        sdk.joryio.identify("u1")
        sdk.scheduler.runUntilIdle()
        // The identify's sync is on the wire; a new campaign set will come. 33 events push the first out.
        let fresh = HTTPResponse(
            status: 200,
            body: Data(InAppFeatureTests.syncAnswer.replacingOccurrences(of: "Product Viewed", with: "Signed Up").utf8)
        )
        sdk.track(["Signed Up"] + (0..<32).map { "filler \($0)" })
        transport.answer(.success(fresh))
        sdk.scheduler.runUntilIdle()
        #expect(self.offered(sdk).isEmpty, "the 33rd event pushed it out")

        sdk.joryio.identify("u2")
        sdk.scheduler.runUntilIdle()
        sdk.track(["Signed Up"])
        sdk.joryio.identify("u3")
        sdk.scheduler.runUntilIdle()
        while transport.answer(.success(fresh)) { sdk.scheduler.runUntilIdle() }
        #expect(self.offered(sdk).isEmpty, "u2's event does not trigger u3's campaigns")
    }

    @Test("GAP-39: an anonymous visitor who identifies at launch keeps the held events for the identify's sync")
    func anonymousThenIdentified() {
        let (sdk, transport) = self.sdk()
        sdk.start()
        sdk.track(["Product Viewed"])
        sdk.joryio.identify("u1")
        sdk.scheduler.runUntilIdle()
        while transport.answer(.success(Self.sale)) { sdk.scheduler.runUntilIdle() }
        #expect(self.offered(sdk) == ["sale"])
    }
}

/// Push-tap campaigns (INAPP-13, PUSH-26): a tap on a Joryio push shows the campaign that waits
/// for it, under the same rules as any message.
@Suite struct InAppPushTapTests {
    static let answer = #"""
        {"success":true,"campaigns":[
          {"id":"tap","type":"modal","deliveryToken":"tok-tap","content":{"native":{"headline":"Welcome back"}},
           "triggers":[{"type":"pushTap","trackingId":"trk_9"}]}]}
        """#

    @Test("INAPP-13 / PUSH-26: the tap of the push a campaign names shows it, then syncs; another push's tap does not")
    func pushTapShowsItsCampaign() throws {
        let transport = RespondingTransport { request in
            request.url.path.hasSuffix("/v1/in-app/sync") ? .success(.json(200, Self.answer)) : .success(.ok)
        }
        let platform = FakeInAppPlatform()
        let sdk = TestSDK(transport: transport, features: .joryio(push: FakePushPlatform(), inApp: platform))
        sdk.joryio.inAppPresenter = StubInAppPresenter()
        sdk.start()
        func tap(_ trackingId: String) {
            let payload = PushPayload(
                json: Data(#"{"aps":{"alert":"Hi"},"joryio":{"trackingId":"\#(trackingId)"}}"#.utf8)
            )
            _ = sdk.joryio.notificationResponse(payload, action: .open, appIsActive: true)
            sdk.scheduler.runUntilIdle()
        }
        tap("trk_other")
        #expect(platform.calls.isEmpty)
        tap("trk_9")
        #expect(platform.calls == ["present tap"])
        let syncs = transport.requests.filter { $0.url.path.hasSuffix("/v1/in-app/sync") }.count
        #expect(syncs == 3, "launch, then each tap syncs at once (INAPP-11)")
    }
}

/// ATTR-17 through the SDK: attribute thresholds count from the server profile the sync answers.
@Suite struct InAppServerAttributesTests {
    static func answer(purchases: Int?) -> String {
        let attributes = purchases.map { #","attributes":{"purchases":\#($0),"plan":"pro"}"# } ?? ""
        return #"""
            {"success":true,"campaigns":[
              {"id":"loyal","type":"modal","deliveryToken":"tok-loyal","content":{"native":{"headline":"Thanks"}},
               "triggers":[{"type":"attribute","key":"purchases","comparison":"gte","value":5}]}]\#(attributes)}
            """#
    }

    /// `purchases` from the second sync on when `fromSecondSync` (the first answer has no snapshot).
    private func sdk(purchases: Int?, attributesFail: Bool = false, fromSecondSync: Bool = false) -> TestSDK {
        let syncs = Locked(0)
        let transport = RespondingTransport { request in
            if request.url.path.hasSuffix("/v1/in-app/sync") {
                let count = syncs.withLock {
                    $0 += 1; return $0
                }
                let served = fromSecondSync && count == 1 ? nil : purchases
                return .success(.json(200, Self.answer(purchases: served)))
            }
            if attributesFail, request.url.path.hasSuffix("/v1/attributes") {
                return .success(.json(500, #"{"success":false,"error":"internal"}"#))
            }
            return .success(.ok)
        }
        let sdk = TestSDK(transport: transport, features: .joryio(push: NoPushPlatform()))
        sdk.start()
        return sdk
    }

    @Test("ATTR-17: an increment counts from the server's value, which another device may have written")
    func incrementFromTheServersValue() {
        let sdk = self.sdk(purchases: 4)
        sdk.joryio.incrementAttribute("purchases")
        sdk.scheduler.runUntilIdle()
        #expect(sdk.joryio.feature(InAppFeature.self)?.offered == ["loyal"], "4 on the server, +1 here: 5")

        // An older server sends no snapshot: an increment of a value never set here stays unknown.
        let older = self.sdk(purchases: nil)
        older.joryio.incrementAttribute("purchases")
        older.scheduler.runUntilIdle()
        #expect(older.joryio.feature(InAppFeature.self)?.offered == [])
    }

    @Test(
        "ATTR-17 / ATTR-18: an increment the server has not confirmed counts on top of its snapshot and fires the threshold"
    )
    func unconfirmedIncrementOnTheSnapshot() {
        // The launch's answer has no snapshot: the base is unknown here when the app increments.
        let sdk = self.sdk(purchases: 3, attributesFail: true, fromSecondSync: true)
        let feature = sdk.joryio.feature(InAppFeature.self)
        // Unconfirmed (the attributes endpoint fails): the watched key re-syncs, the snapshot says 3.
        sdk.joryio.incrementAttribute("purchases", by: 2)
        sdk.scheduler.runUntilIdle()
        #expect(feature?.offered == ["loyal"], "3 on the server + 2 not yet confirmed: 5")
    }

    @Test("ATTR-17: the server profile is authoritative: a value this SDK wrote earlier gives way to it")
    func serverWins() {
        let sdk = self.sdk(purchases: 1)
        sdk.joryio.setAttribute("purchases", value: 3)
        sdk.scheduler.runUntilIdle()
        // The next sync, minutes later, answers 1: another device set the counter after this write.
        sdk.advance(to: 301)
        sdk.joryio.applicationWillEnterForeground()
        sdk.scheduler.runUntilIdle()
        sdk.joryio.incrementAttribute("purchases", by: 3)
        sdk.scheduler.runUntilIdle()
        #expect(sdk.joryio.feature(InAppFeature.self)?.offered == [], "1 + 3 is 4, below 5; 3 + 3 would have fired")
    }
}
