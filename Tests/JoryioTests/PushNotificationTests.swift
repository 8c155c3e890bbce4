import Foundation
import Joryio
import JoryioCore
import JoryioFeature
import JoryioKit
import JoryioPush
import JoryioTesting
import Testing

/// What notification handling reported and asked for: a receipts-and-clicks feature and an in-app
/// sync, found by the handler among the engine's features like the real ones.
final class PushRecorder: EngineFeature, PushReporting, PushInAppSyncing {
    enum Call: Equatable {
        /// A receipt, at seconds since the test's origin.
        case delivered(String, at: TimeInterval)
        /// A click, with how many calls the platform had seen by then (links come after).
        case clicked(String, platformCallsBefore: Int)
        case sync
    }

    private struct State {
        var calls: [Call] = []
        var held: [@Sendable (PushSyncOutcome) -> Void] = []
    }

    private let state = Locked(State())
    private let origin: Date
    private let platform: FakePushPlatform?
    /// What a sync answers at once; `nil` holds it until ``finishSyncs(_:)``.
    private let outcome: PushSyncOutcome?

    init(origin: Date, platform: FakePushPlatform? = nil, outcome: PushSyncOutcome? = .noData) {
        self.origin = origin
        self.platform = platform
        self.outcome = outcome
    }

    var calls: [Call] { self.state.withLock { $0.calls } }

    func reportDelivered(trackingId: String, at timestamp: Date) {
        let seconds = timestamp.timeIntervalSince(self.origin)
        self.state.withLock { $0.calls.append(.delivered(trackingId, at: seconds)) }
    }

    func reportClicked(trackingId: String, at timestamp: Date) {
        let before = self.platform?.actions.count ?? 0
        self.state.withLock { $0.calls.append(.clicked(trackingId, platformCallsBefore: before)) }
    }

    /// Taps seen by push-tap triggers, with their tracking ids.
    let taps = Locked<[String?]>([])

    func pushTapped(trackingId: String?) {
        self.taps.withLock { $0.append(trackingId) }
    }

    func syncForPush(_ completion: @escaping @Sendable (PushSyncOutcome) -> Void) {
        self.state.withLock {
            $0.calls.append(.sync)
            if self.outcome == nil { $0.held.append(completion) }
        }
        if let outcome = self.outcome { completion(outcome) }
    }

    /// Finishes the held syncs with `outcome`.
    func finishSyncs(_ outcome: PushSyncOutcome) {
        let held = self.state.withLock { state in
            defer { state.held = [] }
            return state.held
        }
        for completion in held { completion(outcome) }
    }
}

/// The completions a `didReceiveRemoteNotification` call got.
final class Completions: Sendable {
    private let results = Locked<[Joryio.BackgroundFetchResult]>([])

    var all: [Joryio.BackgroundFetchResult] { self.results.withLock { $0 } }

    var handler: @Sendable (Joryio.BackgroundFetchResult) -> Void {
        { result in self.results.withLock { $0.append(result) } }
    }
}

/// APNs payloads as JSON text, read the way UIKit hands them over (`userInfo`).
enum APNs {
    static func userInfo(_ json: String) -> [AnyHashable: Any] {
        let object = try? JSONSerialization.jsonObject(with: Data(json.utf8), options: [.fragmentsAllowed])
        var userInfo: [AnyHashable: Any] = [:]
        for (key, value) in (object as? [String: Any]) ?? [:] { userInfo[key] = value }
        return userInfo
    }

    static func payload(_ json: String) -> PushPayload? {
        PushPayload(userInfo: self.userInfo(json))
    }

    static let deepLink = #"""
        {"aps":{"alert":{"title":"Spring sale","body":"20% off"},"sound":"chime.caf","badge":3},
         "joryio":{"trackingId":"trk_deep","url":"myshop://promotion?id=42"}}
        """#
    static let universalLink = #"""
        {"aps":{"alert":{"title":"Your order shipped","body":"Track it"},"sound":"default"},
         "joryio":{"trackingId":"trk_ulink","url":"https://shop.example.com/orders/981?ref=push"}}
        """#
    static let silentSync = #"{"aps":{"content-available":1},"joryio":{"trackingId":"trk_sync","sync":true}}"#
    static let plain = #"{"aps":{"alert":"Hello"},"joryio":{"trackingId":"trk_plain"}}"#
    static let foreign = #"{"aps":{"alert":"From another SDK","sound":"default"},"url":"myshop://x","l":"https://a.b"}"#

    static let deepURL = URL(string: "myshop://promotion?id=42")
    static let universalURL = URL(string: "https://shop.example.com/orders/981?ref=push")
}

@Suite struct PushNotificationTests {
    private struct Setup {
        let sdk: TestSDK
        let platform: FakePushPlatform
        let recorder: PushRecorder
    }

    private func setup(
        outcome: PushSyncOutcome? = .noData,
        platform: FakePushPlatform = FakePushPlatform(authorization: .authorized),
        deadlines: ManualScheduler? = nil,
        start: Bool = true
    ) -> Setup {
        let scheduler = ManualScheduler()
        let recorder = PushRecorder(origin: scheduler.now(), platform: platform, outcome: outcome)
        let catalog = FeatureCatalog.joryio(push: platform).adding { _ in [FeatureRegistration { _ in recorder }] }
        let sdk = TestSDK(
            transport: RecordingTransport(),
            scheduler: scheduler,
            features: catalog,
            deadlines: deadlines
        )
        if start { sdk.start() }
        return Setup(sdk: sdk, platform: platform, recorder: recorder)
    }

    private func tap(_ setup: Setup, _ json: String, action: PushResponseAction = .open, active: Bool = true) -> Bool {
        let ours = setup.sdk.joryio.notificationResponse(APNs.payload(json), action: action, appIsActive: active)
        setup.sdk.scheduler.runUntilIdle()
        return ours
    }

    // MARK: - Receipts and presentation

    @Test("PUSH-21, PUSH-27, GAP-16, GAP-37: in the foreground a Joryio push is presented and its receipt reported")
    func willPresent() throws {
        let setup = self.setup()
        setup.sdk.advance(to: 5)
        let presentation = setup.sdk.joryio.notificationWillPresent(APNs.payload(APNs.deepLink))
        setup.sdk.scheduler.runUntilIdle()
        #expect(presentation == [.banner, .list, .sound, .badge])
        #expect(setup.recorder.calls == [.delivered("trk_deep", at: 5)])
        #expect(setup.platform.actions.isEmpty, "no link is followed on presentation")
    }

    @Test("SOUND-5: a sound that is not .aif/.caf/.wav still presents (default sound) and warns")
    func willPresentBadSound() {
        let setup = self.setup()
        let json = #"{"aps":{"alert":"Hi","sound":"alarm.mp3"},"joryio":{"trackingId":"trk_s"}}"#
        let presentation = setup.sdk.joryio.notificationWillPresent(APNs.payload(json))
        setup.sdk.scheduler.runUntilIdle()
        #expect(presentation == [.banner, .list, .sound])
        #expect(setup.sdk.messages(at: .warning).contains { $0.contains("alarm.mp3") })
    }

    @Test("PUSH-24, PUSH-27: a background Joryio push is reported and completes .noData exactly once")
    func backgroundReceipt() {
        let setup = self.setup()
        let completions = Completions()
        setup.sdk.joryio.didReceiveRemoteNotification(APNs.userInfo(APNs.plain), completionHandler: completions.handler)
        setup.sdk.scheduler.runUntilIdle()
        #expect(completions.all == [.noData])
        #expect(setup.recorder.calls == [.delivered("trk_plain", at: 0)])
        setup.sdk.advance(to: 60)
        #expect(completions.all == [.noData], "the budget does not complete it again")
    }

    @Test("PUSH-25, GAP-37: a silent sync push runs the in-app sync and completes with its outcome")
    func silentSync() {
        let setup = self.setup(outcome: nil)
        let completions = Completions()
        setup.sdk.joryio.didReceiveRemoteNotification(
            APNs.userInfo(APNs.silentSync),
            completionHandler: completions.handler
        )
        setup.sdk.scheduler.runUntilIdle()
        #expect(setup.recorder.calls == [.delivered("trk_sync", at: 0), .sync])
        #expect(completions.all.isEmpty, "waits for the sync")
        setup.sdk.advance(to: 3)
        setup.recorder.finishSyncs(.newData)
        #expect(completions.all == [.newData])
        setup.sdk.advance(to: 60)
        #expect(completions.all == [.newData])
    }

    @Test("PUSH-24: a sync that never finishes is completed .noData at the 20 s budget, once")
    func syncBudget() {
        let setup = self.setup(outcome: nil)
        let completions = Completions()
        setup.sdk.joryio.didReceiveRemoteNotification(
            APNs.userInfo(APNs.silentSync),
            completionHandler: completions.handler
        )
        setup.sdk.advance(to: Joryio.remoteNotificationBudget - 0.001)
        #expect(completions.all.isEmpty)
        setup.sdk.advance(to: Joryio.remoteNotificationBudget)
        #expect(completions.all == [.noData])
        setup.recorder.finishSyncs(.failed)
        #expect(completions.all == [.noData], "the late outcome is not delivered twice")
    }

    @Test("PUSH-25: with no in-app feature a sync push completes .noData at once")
    func syncWithoutInApp() {
        let platform = FakePushPlatform()
        let sdk = TestSDK(transport: RecordingTransport(), features: .joryio(push: platform))
        sdk.start()
        let completions = Completions()
        sdk.joryio.didReceiveRemoteNotification(APNs.userInfo(APNs.silentSync), completionHandler: completions.handler)
        sdk.scheduler.runUntilIdle()
        #expect(completions.all == [.noData])
    }

    @Test("PUSH-24, INIT-6: before initialize() the completion comes at the budget; the receipt when the SDK starts")
    func beforeInitialize() {
        let setup = self.setup(start: false)
        let completions = Completions()
        setup.sdk.joryio.didReceiveRemoteNotification(APNs.userInfo(APNs.plain), completionHandler: completions.handler)
        setup.sdk.advance(to: Joryio.remoteNotificationBudget)
        #expect(completions.all == [.noData])
        #expect(setup.recorder.calls.isEmpty)
        setup.sdk.start()
        #expect(setup.recorder.calls == [.delivered("trk_plain", at: 0)], "timestamped when it arrived")
        #expect(completions.all == [.noData])
    }

    @Test("PUSH-24: before initialize() but started within the budget, the completion follows the handling")
    func initializedWithinBudget() {
        let setup = self.setup(start: false)
        let completions = Completions()
        setup.sdk.joryio.didReceiveRemoteNotification(APNs.userInfo(APNs.plain), completionHandler: completions.handler)
        setup.sdk.advance(to: 4)
        #expect(completions.all.isEmpty)
        setup.sdk.start()
        #expect(completions.all == [.noData])
        #expect(setup.recorder.calls == [.delivered("trk_plain", at: 0)])
        setup.sdk.advance(to: 60)
        #expect(completions.all == [.noData])
    }

    @Test("PUSH-24: a busy engine cannot hold the completion back: the budget runs on its own queue")
    func busyEngine() {
        let deadlines = ManualScheduler()
        let setup = self.setup(deadlines: deadlines)
        let completions = Completions()
        setup.sdk.joryio.didReceiveRemoteNotification(APNs.userInfo(APNs.plain), completionHandler: completions.handler)
        // The engine runs nothing meanwhile.
        deadlines.advance(by: Joryio.remoteNotificationBudget)
        #expect(completions.all == [.noData])
        #expect(setup.recorder.calls.isEmpty)
        setup.sdk.scheduler.runUntilIdle()
        #expect(setup.recorder.calls == [.delivered("trk_plain", at: 0)], "handled once the engine gets to it")
        #expect(completions.all == [.noData])
    }

    // MARK: - Start

    @Test(
        "INIT-16, PUSH-20: the product's start hook (where the delegate is installed) runs once, with the push handler in place"
    )
    func startHook() {
        let seen = Locked<[Bool]>([])
        let catalog = FeatureCatalog.joryio(push: FakePushPlatform()).onInitialize { joryio in
            seen.withLock { $0.append(joryio.feature(PushNotificationHandler.self) != nil) }
        }
        let sdk = TestSDK(transport: RecordingTransport(), features: catalog)
        #expect(seen.withLock { $0 }.isEmpty)
        sdk.start()
        #expect(seen.withLock { $0 } == [true], "called on the initialize() thread, before the engine ran anything")
        sdk.start()
        #expect(seen.withLock { $0 } == [true], "a second initialize() is ignored (INIT-2)")
    }

    @Test(
        "INIT-16, PUSH-20: the delegate's hook runs inside initialize(), on its thread, before a first-unlock wait; once; not for a refused key"
    )
    func delegateHookBeforeFirstUnlock() {
        // Before issue 26 the delegate was installed by the start hook (onInitialize), which waits
        // for the first unlock: a tap that launched the app meanwhile found no delegate.
        struct Seen: Sendable, Equatable {
            var started: Bool
            var pending: Bool
        }
        let seen = Locked<[Seen]>([])
        let started = Locked<Int>(0)
        let catalog = FeatureCatalog.joryio(push: FakePushPlatform())
            .onInitializeCall { joryio in
                seen.withLock {
                    $0.append(Seen(started: joryio.facade.isStarted, pending: joryio.isInitializationPending))
                }
            }
            .onInitialize { _ in started.withLock { $0 += 1 } }
        let device = ManualStorageAvailability()
        let sdk = TestSDK(transport: RecordingTransport(), features: catalog, storageAvailability: device)
        sdk.start(sdkKey: "not a key")
        #expect(seen.withLock { $0 }.isEmpty, "a refused key attaches nothing")
        sdk.start()
        #expect(seen.withLock { $0 } == [Seen(started: false, pending: false)], "before the wait and the engine")
        #expect(sdk.joryio.isInitializationPending)
        #expect(started.withLock { $0 } == 0, "the start hook still waits for the unlock")
        sdk.start()
        device.unlock()
        sdk.scheduler.runUntilIdle()
        #expect(started.withLock { $0 } == 1)
        #expect(seen.withLock { $0 }.count == 1, "once per instance")
    }

    @Test("INIT-16: hooks added to a catalog run in order, and adding features keeps them")
    func startHooksChain() {
        let order = Locked<[String]>([])
        let catalog = FeatureCatalog.analytics
            .onInitialize { _ in order.withLock { $0.append("first") } }
            .onInitialize { _ in order.withLock { $0.append("second") } }
            .onInitializeCall { _ in order.withLock { $0.append("call") } }
            .adding { _ in [] }
        TestSDK(transport: RecordingTransport(), features: catalog).start()
        #expect(order.withLock { $0 } == ["call", "first", "second"])
    }

    // MARK: - Foreign notifications

    @Test("PUSH-22, PUSH-24: a foreign notification is left to the app everywhere and completes .noData at once")
    func foreign() {
        let setup = self.setup()
        let completions = Completions()
        setup.sdk.joryio.didReceiveRemoteNotification(
            APNs.userInfo(APNs.foreign),
            completionHandler: completions.handler
        )
        #expect(completions.all == [.noData], "at once, before the engine runs")
        #expect(setup.sdk.joryio.notificationWillPresent(APNs.payload(APNs.foreign)) == nil)
        #expect(!self.tap(setup, APNs.foreign))
        setup.sdk.advance(to: 60)
        #expect(setup.recorder.calls.isEmpty)
        #expect(setup.platform.actions.isEmpty, "its url and l keys are not ours (GAP-71)")
        #expect(completions.all == [.noData])
    }

    @Test("PUSH-24: a foreign notification completes .noData at once before initialize() too")
    func foreignBeforeInitialize() {
        let setup = self.setup(start: false)
        let completions = Completions()
        setup.sdk.joryio.didReceiveRemoteNotification(
            APNs.userInfo(APNs.foreign),
            completionHandler: completions.handler
        )
        #expect(completions.all == [.noData])
        setup.sdk.start()
        setup.sdk.advance(to: 60)
        #expect(completions.all == [.noData])
        #expect(setup.recorder.calls.isEmpty)
    }

    // MARK: - Taps and links

    // DEEPLINK-2: the URL is opened as sent (host `promotion`, query `id=42`), for the app's openURL handler to parse.
    @Test("DEEPLINK-5, PUSH-26: a tap records the click, then opens the deep link, then syncs")
    func tapOpensDeepLink() throws {
        let setup = self.setup()
        #expect(self.tap(setup, APNs.deepLink))
        #expect(setup.recorder.calls == [.clicked("trk_deep", platformCallsBefore: 0), .sync])
        #expect(setup.platform.actions == [.open(try #require(APNs.deepURL))])
    }

    @Test("PUSH-21: an action button counts as a tap; a dismissal does nothing")
    func actions() throws {
        let setup = self.setup()
        #expect(self.tap(setup, APNs.deepLink, action: .custom("buy")))
        #expect(setup.recorder.calls == [.clicked("trk_deep", platformCallsBefore: 0), .sync])
        let before = setup.recorder.calls.count
        #expect(self.tap(setup, APNs.deepLink, action: .dismiss), "ours, so not forwarded")
        #expect(setup.recorder.calls.count == before)
        #expect(setup.platform.actions == [.open(try #require(APNs.deepURL))])
    }

    @Test("DEEPLINK-7: on a cold start the link waits until the app is active; the click does not")
    func linkWaitsForActive() throws {
        let platform = FakePushPlatform(isActive: false)
        let setup = self.setup(platform: platform)
        #expect(self.tap(setup, APNs.deepLink, active: false))
        #expect(setup.recorder.calls == [.clicked("trk_deep", platformCallsBefore: 0), .sync])
        #expect(platform.actions.isEmpty)
        #expect(platform.waitingForActive == 1)
        platform.becomeActive()
        #expect(platform.actions == [.open(try #require(APNs.deepURL))])
        platform.resignActive()
        platform.becomeActive()
        #expect(platform.actions.count == 1, "opened once")
    }

    // ULINK-2, ULINK-5: the push's https URL (path and query as sent) goes to the app's handlers, Safari only as a fallback.
    @Test("ULINK-7, ULINK-8, GAP-72: an https link is delivered as a user activity, opened only when not handled")
    func universalLinks() throws {
        let url = try #require(APNs.universalURL)
        let cases: [(UniversalLinkDelivery, [FakePushPlatform.Call])] = [
            (.scene, [.continueUserActivity(url)]),
            (.appDelegate(handled: true), [.continueUserActivity(url)]),
            (.appDelegate(handled: false), [.continueUserActivity(url), .open(url)]),
            (.noHandler, [.continueUserActivity(url), .open(url)]),
        ]
        for (delivery, expected) in cases {
            let setup = self.setup(platform: FakePushPlatform(universalLinks: delivery))
            #expect(self.tap(setup, APNs.universalLink))
            #expect(setup.platform.actions == expected, "\(delivery)")
            #expect(setup.recorder.calls == [.clicked("trk_ulink", platformCallsBefore: 0), .sync])
        }
    }

    @Test("DEEPLINK-6, GAP-73: the app's link handler sees the link first; true stops the SDK, false lets it go on")
    func linkHandler() throws {
        let seen = Locked<[URL]>([])
        let handles = Locked(true)
        let setup = self.setup()
        setup.sdk.joryio.setLinkHandler { url in
            seen.withLock { $0.append(url) }
            return handles.withLock { $0 }
        }
        #expect(self.tap(setup, APNs.deepLink))
        #expect(self.tap(setup, APNs.universalLink))
        #expect(seen.withLock { $0 } == [try #require(APNs.deepURL), try #require(APNs.universalURL)])
        #expect(setup.platform.actions.isEmpty)

        handles.withLock { $0 = false }
        #expect(self.tap(setup, APNs.deepLink))
        #expect(setup.platform.actions == [.open(try #require(APNs.deepURL))])

        setup.sdk.joryio.setLinkHandler(nil)
        #expect(self.tap(setup, APNs.deepLink))
        #expect(seen.withLock { $0.count } == 3, "removed: not asked again")
        #expect(setup.platform.actions.count == 2)
    }

    @Test("DEEPLINK-6: a link handler set before initialize() is in place for the first tap")
    func linkHandlerBeforeInitialize() {
        let setup = self.setup(start: false)
        setup.sdk.joryio.setLinkHandler { _ in true }
        setup.sdk.start()
        #expect(self.tap(setup, APNs.deepLink))
        #expect(setup.platform.actions.isEmpty)
    }

    @Test("DEEPLINK-7: the link handler waits for the active app too")
    func linkHandlerWaitsForActive() {
        let seen = Locked(0)
        let platform = FakePushPlatform(isActive: false)
        let setup = self.setup(platform: platform)
        setup.sdk.joryio.setLinkHandler { _ in
            seen.withLock { $0 += 1 }
            return true
        }
        #expect(self.tap(setup, APNs.deepLink, active: false))
        #expect(seen.withLock { $0 } == 0)
        platform.becomeActive()
        #expect(seen.withLock { $0 } == 1)
    }

    @Test("PUSH-26, INIT-6: a tap before initialize() is handled in order when the SDK starts")
    func tapBeforeInitialize() throws {
        let setup = self.setup(start: false)
        #expect(setup.sdk.joryio.notificationResponse(APNs.payload(APNs.deepLink), action: .open, appIsActive: true))
        #expect(setup.recorder.calls.isEmpty)
        setup.sdk.start()
        #expect(setup.recorder.calls == [.clicked("trk_deep", platformCallsBefore: 0), .sync])
        #expect(setup.platform.actions == [.open(try #require(APNs.deepURL))])
    }

    @Test("a refused link is not followed and warns; the click is still reported and the tap syncs")
    func refusedLink() {
        let setup = self.setup()
        let json = #"{"aps":{"alert":"x"},"joryio":{"trackingId":"trk_js","url":"javascript:alert(1)"}}"#
        #expect(self.tap(setup, json))
        #expect(setup.recorder.calls == [.clicked("trk_js", platformCallsBefore: 0), .sync])
        #expect(setup.platform.actions.isEmpty)
        #expect(setup.sdk.messages(at: .warning).contains { $0.contains("the scheme javascript is never opened") })
    }

    @Test("on a platform without UI (Linux) a tap's link goes nowhere, without waiting")
    func noPushPlatform() {
        let platform = NoPushPlatform()
        let ran = Locked(false)
        platform.whenActive { ran.withLock { $0 = true } }
        #expect(ran.withLock { $0 })
        #expect(platform.continueUserActivity(webpageURL: URL(fileURLWithPath: "/")) == .noHandler)
    }

    @Test("a Joryio push without a tracking id still follows its link and syncs, reporting nothing")
    func tapWithoutTrackingId() throws {
        let setup = self.setup()
        #expect(self.tap(setup, #"{"aps":{"alert":"x"},"joryio":{"url":"myshop://a"}}"#))
        #expect(setup.recorder.calls == [.sync])
        #expect(setup.platform.actions == [.open(try #require(URL(string: "myshop://a")))])
    }
}
