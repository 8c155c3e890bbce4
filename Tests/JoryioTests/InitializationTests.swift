import Foundation
import Joryio
import JoryioCore
import JoryioPush
import JoryioTesting
import Testing

/// `initialize()`, the pre-init call buffer and configuration clamping (INIT-2 … INIT-7, §2.3).
@Suite struct InitializationTests {
    @Test("calls before initialize() run in order after it, with the timestamps of the calls")
    func preInitCallsRunInOrder() throws {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.joryio.track("a")
        sdk.advance(to: 1)
        sdk.joryio.trackScreen("Home")
        sdk.joryio.track("c", properties: ["k": 1])
        sdk.joryio.flush()
        sdk.advance(to: 10)
        #expect(transport.requests.isEmpty)

        sdk.start()
        #expect(transport.requests.count == 1, "the buffered flush() sends at once")
        let events = try #require(transport.requests.first).events
        #expect(events.map { $0["event"] } == ["a", "Screen Viewed", "c"])
        #expect(
            events.map { $0["timestamp"] } == [
                "2026-01-01T00:00:00.000Z", "2026-01-01T00:00:01.000Z", "2026-01-01T00:00:01.000Z",
            ]
        )
        #expect(sdk.messages(atLeast: .warning).isEmpty)
    }

    @Test("INIT-4: getters return empty values before initialize()")
    func gettersBeforeInit() {
        let sdk = TestSDK(transport: RecordingTransport())
        sdk.track(eventNames(5))
        sdk.joryio.flush()
        sdk.scheduler.runUntilIdle()
        #expect(sdk.joryio.getQueueSize() == 0)
        #expect(sdk.joryio.currentApiEndpoint == "")
        #expect(sdk.joryio.lastTransportError == nil)
    }

    @Test("INIT-4: every public method can be called before initialize(): none crashes or waits, getters stay empty")
    func everyPublicMethodBeforeInit() async {
        struct Failure: Error {}
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport, features: .joryio(push: NoPushPlatform()))
        let joryio = sdk.joryio
        joryio.setSdkAuthenticationToken("")
        joryio.setSdkAuthenticationErrorHandler { _ in }
        joryio.clearSdkAuthenticationErrorHandler()
        joryio.identify("user-1")
        joryio.track("Viewed", properties: ["price": 1])
        joryio.trackScreen("Home")
        joryio.setAttributes(["plan": "pro"])
        joryio.setAttribute("seats", value: 3)
        joryio.incrementAttribute("logins")
        joryio.unsetAttribute("old")
        joryio.addAlias("crm_id", name: "C-1")
        joryio.setSubscription(channel: "email", status: "subscribed")
        joryio.addToSubscriptionGroup("news", channel: "email")
        joryio.removeFromSubscriptionGroup("news", channel: "email")
        joryio.applicationWillEnterForeground()
        joryio.applicationDidEnterBackground()
        joryio.flush()
        joryio.updateConsent(.granted)
        joryio.optOut()
        joryio.optIn()
        joryio.reset()
        joryio.wipeData()
        joryio.didRegisterForRemoteNotifications(deviceToken: Data(repeating: 0x5a, count: 32))
        joryio.didFailToRegisterForRemoteNotifications(error: Failure())
        joryio.registerPushToken(String(repeating: "5a", count: 32)) { _ in }
        joryio.unregisterPush()
        joryio.updateBadgeCount(1)
        joryio.clearBadge()
        joryio.reportPushDelivered("trk-1")
        joryio.trackPushClick(trackingId: "trk-1")
        joryio.didReceiveRemoteNotification([:]) { _ in }
        joryio.setLinkHandler(nil)
        joryio.setInAppMessageCallback({ _ in }, capabilities: ["content.native"])
        joryio.clearInAppMessageCallback()
        joryio.trackInAppImpression(campaignId: "c1", action: "displayed")
        joryio.resetDisplayedCampaigns()
        _ = joryio.ecommerce(config: EcommerceConfig(currency: "USD"))
        await joryio.submitInAppForm(campaignId: "c1", values: ["email": "a@example.com"])
        await joryio.syncInAppCampaigns()
        await joryio.evaluateInAppCampaigns()
        #expect(await joryio.requestPushPermission() == false)
        #expect(await joryio.getPushPermissionStatus() == "")
        #expect(await joryio.isPushEnabled() == false)
        sdk.scheduler.runUntilIdle()
        #expect(joryio.getUserId() == nil && joryio.getAnonymousId() == "" && joryio.getSessionId() == nil)
        #expect(joryio.getDeviceToken() == nil && joryio.getQueueSize() == 0)
        #expect(!joryio.isUserOptedOut() && joryio.getTrackingConsent() == .granted)
        #expect(transport.requests.isEmpty)
    }

    @Test("the 1001st call before initialize() drops the oldest, with one warning once initialized")
    func preInitCapacity() {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        for name in eventNames(1001) {
            sdk.joryio.track(name)
        }
        sdk.start()
        let sent = transport.requests.eventNames
        #expect(sent.count == 1000)
        #expect(sent == eventNames(1000, from: 1))
        #expect(transport.requests.batchSizes == Array(repeating: 50, count: 20))
        let warnings = sdk.messages(atLeast: .warning)
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("1 call") == true)
    }

    @Test(
        "a malformed SDK key is rejected with an error log and nothing starts",
        arguments: ["", "jry_sdk_", "abc", "jry_sdk_ios_bad key", "JRY_SDK_IOS_X", "jry_sdk_ios_ü", "jry_sdk_ios_x\n"]
    )
    func malformedKey(key: String) {
        self.expectRejected(sdkKey: key, apiHost: TestSDK.apiHost, reason: "SDK key")
    }

    @Test(
        "a host that is not https (http only on loopback) is rejected with an error log",
        arguments: [
            "http://api.joryio.com/api", "ftp://api.joryio.com", "api.joryio.com/api", "", "https://",
            "https://api.joryio.com/api?x=1", "https://api.joryio.com/api#top", "https://user@api.joryio.com",
            "http://127.0.0.2/api", "http://localhost.example.com/api",
        ]
    )
    func rejectedHost(host: String) {
        self.expectRejected(sdkKey: TestSDK.sdkKey, apiHost: host, reason: "apiHost")
    }

    // MARK: - Refusals name their reason (issue 12, defect 5; GAP-6)

    @Test(
        "each malformed SDK key is refused with its own reason, and the hint is not redacted",
        arguments: [
            ("", "the SDK key is empty"),
            ("abc", "does not start with jry_sdk_"),
            ("JRY_SDK_IOS_X", "does not start with jry_sdk_"),
            ("jry_sdk_", "nothing after jry_sdk_"),
            ("jry_sdk_ios_bad key", "a space at position 16"),
            ("jry_sdk_ios_x\n", "a line break (U+000A) at position 14"),
            (" jry_sdk_ios_x", "a space at position 1"),
            ("jry_sdk_ios_ü", "a non-ASCII character (U+00FC) at position 13"),
            ("jry_sdk_ios_a-b", "'-' at position 14"),
            ("jry_sdk_ios_\u{200B}x", "an invisible formatting character (U+200B) at position 13"),
        ]
    )
    func malformedKeyReasons(key: String, reason: String) throws {
        let errors = self.refusal(sdkKey: key, apiHost: TestSDK.apiHost)
        let error = try #require(errors.first)
        #expect(errors.count == 1)
        #expect(error.contains("SDK key"), "\(error)")
        #expect(error.contains(reason), "\(error)")
        #expect(error.contains("jry_sdk_ios_…"), "the hint survives the log redactor: \(error)")
        #expect(!error.contains("sdk_…sdk"), "\(error)")
    }

    @Test("an SDK key longer than 256 characters is refused (every request would be refused); 256 are accepted")
    func overlongKey() throws {
        let longest = "jry_sdk_ios_" + String(repeating: "k", count: 256 - 12)
        let transport = RecordingTransport()
        let accepted = TestSDK(transport: transport)
        accepted.start(sdkKey: longest)
        #expect(accepted.joryio.currentApiEndpoint == TestSDK.apiHost)
        #expect(accepted.messages(at: .error).isEmpty)

        for key in [longest + "k", "jry_sdk_ios_" + String(repeating: "k", count: 100_000)] {
            let errors = self.refusal(sdkKey: key, apiHost: TestSDK.apiHost)
            let error = try #require(errors.first)
            #expect(errors.count == 1)
            #expect(error.contains("SDK key has \(key.unicodeScalars.count) characters"), "\(error)")
            #expect(error.contains("at most 256"), "\(error)")
            #expect(!error.contains("kkkk"), "the key itself is not logged")
        }
    }

    @Test(
        "an apiHost with whitespace, control or non-ASCII characters is refused, naming the character and where",
        arguments: [
            ("https://api.joryio.com/a pi", "a space at position 25"),
            ("https://api.joryio.com/api\n", "a line break (U+000A) at position 27"),
            ("https://api.joryio.com/api\r\n", "a line break (U+000D) at position 27"),
            ("https://api.jory\tio.com/api", "a tab (U+0009) at position 17"),
            ("https://api.joryio.com/api\u{0}", "a control character (U+0000) at position 27"),
            ("https://api.joryio.com/\u{7F}api", "a control character (U+007F) at position 24"),
            ("https://api.joryio.com/a\u{200B}pi", "an invisible formatting character (U+200B) at position 25"),
            ("https://api.joryio.com\u{00A0}/api", "a whitespace character (U+00A0) at position 23"),
            ("  https://api.joryio.com/a pi", "a space at position 27"),
        ]
    )
    func hostWithBadCharacters(host: String, reason: String) throws {
        let errors = self.refusal(sdkKey: TestSDK.sdkKey, apiHost: host)
        let error = try #require(errors.first)
        #expect(errors.count == 1)
        #expect(error.contains("apiHost contains \(reason)"), "\(error)")
    }

    @Test(
        "each refused apiHost names its reason",
        arguments: [
            ("", "apiHost is empty"),
            ("https://api.joryio.com/api?x=1", "apiHost has a query"),
            ("https://api.joryio.com/api?", "apiHost has a query"),
            ("https://api.joryio.com/api#top", "apiHost has a fragment"),
            ("https://user@api.joryio.com", "apiHost contains user info"),
            ("https://user:secret@api.joryio.com/api", "apiHost contains user info"),
            ("ftp://api.joryio.com", "apiHost uses the scheme ftp"),
            ("api.joryio.com/api", "apiHost has no scheme"),
            ("localhost:8080/api", "apiHost has no scheme"),
            ("https://", "apiHost has no host name"),
            ("https:///api", "apiHost has no host name"),
            ("http://api.joryio.com/api", "apiHost uses plain http for api.joryio.com"),
            ("http://127.0.0.2/api", "apiHost uses plain http for 127.0.0.2"),
            ("https://api.joryio.com:0/api", "apiHost has port 0"),
            ("https://api.joryio.com:70000/api", "apiHost has port 70000"),
        ]
    )
    func hostReasons(host: String, reason: String) throws {
        let errors = self.refusal(sdkKey: TestSDK.sdkKey, apiHost: host)
        let error = try #require(errors.first)
        #expect(errors.count == 1)
        #expect(error.contains(reason), "\(error)")
        #expect(!error.contains("secret"), "credentials in the host are never logged")
    }

    /// The error lines of an `initialize()` with `sdkKey` and `apiHost`, after checking that nothing
    /// started.
    private func refusal(
        sdkKey: String,
        apiHost: String,
        sourceLocation: SourceLocation = #_sourceLocation
    )
        -> [String]
    {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.joryio.track("waiting")
        sdk.start(apiHost: apiHost, sdkKey: sdkKey)
        sdk.joryio.flush()
        sdk.advance(to: 60)
        #expect(transport.requests.isEmpty, sourceLocation: sourceLocation)
        #expect(sdk.joryio.currentApiEndpoint == "", sourceLocation: sourceLocation)
        return sdk.messages(at: .error)
    }

    private func expectRejected(
        sdkKey: String,
        apiHost: String,
        reason: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.joryio.track("waiting")
        sdk.start(apiHost: apiHost, sdkKey: sdkKey)
        sdk.joryio.flush()
        sdk.advance(to: 60)
        #expect(transport.requests.isEmpty, sourceLocation: sourceLocation)
        #expect(sdk.joryio.currentApiEndpoint == "", sourceLocation: sourceLocation)
        #expect(sdk.joryio.getQueueSize() == 0, sourceLocation: sourceLocation)
        let errors = sdk.messages(at: .error)
        #expect(errors.count == 1, sourceLocation: sourceLocation)
        #expect(errors.first?.contains(reason) == true, "\(errors)", sourceLocation: sourceLocation)

        // The calls keep waiting; a correct initialize() later runs them.
        sdk.start()
        #expect(transport.requests.eventNames == ["waiting"], sourceLocation: sourceLocation)
    }

    @Test(
        "plain http is accepted for loopback hosts",
        arguments: [
            ("http://127.0.0.1:8080/api", "http://127.0.0.1:8080/api/v1/events"),
            ("http://localhost:9/api/", "http://localhost:9/api/v1/events"),
            ("http://[::1]:8080/api", "http://[::1]:8080/api/v1/events"),
        ]
    )
    func loopbackHTTP(host: String, url: String) {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.start(apiHost: host)
        sdk.track(["a"])
        sdk.joryio.flush()
        sdk.scheduler.runUntilIdle()
        #expect(transport.requests.map(\.url.absoluteString) == [url])
        #expect(sdk.messages(at: .error).isEmpty)
    }

    @Test(
        "currentApiEndpoint is normalised: trailing slashes removed",
        arguments: [
            ("https://api-eu1.joryio.com/api", "https://api-eu1.joryio.com/api"),
            ("https://api-eu1.joryio.com/api/", "https://api-eu1.joryio.com/api"),
            ("https://api-eu1.joryio.com/api///", "https://api-eu1.joryio.com/api"),
            (" https://api-eu1.joryio.com/api/ ", "https://api-eu1.joryio.com/api"),
            ("https://api-eu1.joryio.com/", "https://api-eu1.joryio.com"),
        ]
    )
    func endpointNormalised(host: String, expected: String) {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.start(apiHost: host)
        #expect(sdk.joryio.currentApiEndpoint == expected)
        sdk.track(["a"])
        sdk.joryio.flush()
        sdk.scheduler.runUntilIdle()
        #expect(transport.requests.first?.url.absoluteString == expected + "/v1/events")
    }

    @Test("a second successful initialize() is ignored with a warning")
    func secondInitializeIgnored() {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.start(config: JoryioConfig(batchSize: 2))
        sdk.start(apiHost: "https://other.joryio.com/api", config: JoryioConfig(batchSize: 1))
        #expect(sdk.joryio.currentApiEndpoint == TestSDK.apiHost)
        let warnings = sdk.messages(at: .warning)
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("already initialized") == true)
        sdk.track(["a"])
        #expect(transport.requests.isEmpty, "batchSize 1 from the ignored call is not in effect")
        sdk.track(["b"])
        #expect(transport.requests.map(\.url.absoluteString) == [TestSDK.apiHost + "/v1/events"])
    }
}
