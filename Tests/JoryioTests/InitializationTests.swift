import Foundation
import Joryio
import JoryioCore
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

    @Test("getters return empty values before initialize()")
    func gettersBeforeInit() {
        let sdk = TestSDK(transport: RecordingTransport())
        sdk.track(eventNames(5))
        sdk.joryio.flush()
        sdk.scheduler.runUntilIdle()
        #expect(sdk.joryio.getQueueSize() == 0)
        #expect(sdk.joryio.currentApiEndpoint == "")
        #expect(sdk.joryio.lastTransportError == nil)
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
