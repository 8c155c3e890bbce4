import Foundation
import Joryio
import JoryioCore
import JoryioTesting
import Testing

@Suite struct SmokeTests {
    // INIT-1: initialize(sdkKey:apiHost:config:) with the default config starts the SDK.
    // LOG-4: a dropped non-finite number is a warning in the log (EVT-4).
    @Test("EVT-1: track(_:properties:) records one event with its properties, sent after 5 s")
    func oneEventLeavesAsOneRequestAfterFiveSeconds() throws {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.start()
        sdk.joryio.track("Button Tapped", properties: ["price": 9.5, "bad": Double.nan])
        sdk.scheduler.runUntilIdle()
        #expect(sdk.joryio.getQueueSize() == 1)
        sdk.scheduler.advance(by: 4.999)
        #expect(transport.requests.isEmpty)
        sdk.scheduler.advance(by: 0.001)
        #expect(transport.requests.count == 1)
        let request = try #require(transport.requests.first)
        #expect(request.url.absoluteString == "https://api.test.joryio.com/api/v1/events")
        #expect(request.header("X-Joryio-Sdk-Key") == TestSDK.sdkKey)
        let event = try #require(request.events.first)
        #expect(event["event"] == "Button Tapped")
        #expect(event["properties"] == ["price": 9.5])
        #expect(event["timestamp"] == "2026-01-01T00:00:00.000Z")
        #expect(sdk.joryio.getQueueSize() == 0)
        #expect(sdk.messages(atLeast: .warning).contains { $0.contains("bad") && $0.contains("non-finite") })
    }
}
