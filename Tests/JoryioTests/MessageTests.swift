import Foundation
import Joryio
import JoryioCore
import JoryioTesting
import JoryioTransport
import Testing

/// What each event and request carries on the wire (protocol.md §2, §5.1; GAP-2, EVT-6).
@Suite struct MessageTests {
    @Test("every event has its own messageId, and the wire fields of protocol.md")
    func messageIds() throws {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.start()
        sdk.track(eventNames(120))
        sdk.joryio.flush()
        sdk.scheduler.runUntilIdle()
        let events = transport.requests.flatMap(\.events)
        #expect(events.count == 120)
        let ids = events.compactMap { $0["messageId"]?.stringValue }
        #expect(ids.count == 120)
        #expect(Set(ids).count == 120)
        let first = try #require(events.first)
        #expect(first["type"] == "track")
        #expect(first["properties"] == [:])
        #expect(first["anonymousId"]?.stringValue?.isEmpty == false)
        #expect(first["deviceId"]?.stringValue?.isEmpty == false)
        #expect(first["userId"] == nil)
    }

    @Test("the timestamp is taken at the call, not when the engine runs or sends")
    func timestampAtCall() throws {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.start()
        sdk.advance(to: 1.234)
        sdk.joryio.track("a")
        sdk.joryio.trackScreen("Home")
        sdk.advance(to: 3)  // the engine runs the calls only now
        sdk.joryio.flush()
        sdk.scheduler.runUntilIdle()
        let request = try #require(transport.requests.first)
        #expect(request.events.map { $0["timestamp"] } == ["2026-01-01T00:00:01.234Z", "2026-01-01T00:00:01.234Z"])
        #expect(request.json?["sentAt"] == "2026-01-01T00:00:03.000Z")
    }

    @Test("anonymousId and deviceId persist across a restart; config.userId is sent")
    func identityPersists() throws {
        try withTemporaryDirectory { directory in
            let transport = RecordingTransport()
            let first = TestSDK(transport: transport, storage: .sqlite(directory: directory))
            first.start(config: JoryioConfig(userId: "user-42"))
            first.track(["a"])
            first.joryio.flush()
            first.scheduler.runUntilIdle()

            // A later launch: a new instance whose generator would hand out different ids.
            let second = TestSDK(
                transport: transport,
                storage: .sqlite(directory: directory),
                identifiers: SequentialIdentifierGenerator(first: 1000)
            )
            second.start()
            second.track(["b"])
            second.joryio.flush()
            second.scheduler.runUntilIdle()

            let events = transport.requests.flatMap(\.events)
            #expect(events.count == 2)
            let (a, b) = (try #require(events.first), try #require(events.last))
            #expect(a["userId"] == "user-42")
            #expect(a["anonymousId"]?.stringValue?.isEmpty == false)
            #expect(a["anonymousId"] == b["anonymousId"])
            #expect(a["deviceId"] == b["deviceId"])
            #expect(a["deviceId"] != a["anonymousId"])
            #expect(a["messageId"] != b["messageId"])
        }
    }

    @Test("config.anonymousId replaces the generated one")
    func customAnonymousId() throws {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.start(config: JoryioConfig(anonymousId: "anon-7"))
        sdk.track(["a"])
        sdk.joryio.flush()
        sdk.scheduler.runUntilIdle()
        #expect(transport.requests.first?.events.first?["anonymousId"] == "anon-7")
    }

    @Test("bodies of 1024 bytes or more are gzipped and decode to the same batch; small ones are plain")
    func gzip() throws {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.start()
        sdk.track(["small"])
        sdk.joryio.flush()
        sdk.scheduler.runUntilIdle()
        sdk.joryio.track("large", properties: ["text": String(repeating: "joryio ", count: 400)])
        sdk.joryio.flush()
        sdk.scheduler.runUntilIdle()
        let small = try #require(transport.requests.first)
        let large = try #require(transport.requests.last)
        #expect(transport.requests.count == 2)

        #expect(small.header("Content-Encoding") == nil)
        #expect(try #require(small.body).count < 1024)
        #expect(JSONValue.parse(try #require(small.body))?["batch"]?.arrayValue?.count == 1)

        #expect(large.header("Content-Encoding") == "gzip")
        let wire = try #require(large.body)
        #expect(wire.prefix(2) == Data([0x1f, 0x8b]))
        let inflated = try Gzip.decompress(wire, maxOutputBytes: 1 << 20)
        #expect(inflated.count >= 1024)
        #expect(wire.count < inflated.count)
        #expect(large.eventNames == ["large"])
        #expect(large.events.first?["properties"]?["text"]?.stringValue == String(repeating: "joryio ", count: 400))
    }

    @Test("every request carries the SDK key, User-Agent and JSON content type, to apiHost/v1/events")
    func headers() throws {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.start(config: JoryioConfig(requestTimeout: 3))
        sdk.track(["a"])
        sdk.joryio.flush()
        sdk.scheduler.runUntilIdle()
        let request = try #require(transport.requests.first)
        #expect(request.method == "POST")
        #expect(request.url.absoluteString == "https://api.test.joryio.com/api/v1/events")
        #expect(request.header("X-Joryio-Sdk-Key") == TestSDK.sdkKey)
        #expect(request.header("User-Agent") == "joryio-swift/test (Linux)")
        #expect(request.header("Content-Type") == "application/json")
        #expect(request.timeout == 3)
    }

    @Test("the live User-Agent follows joryio-swift/<version> (<os> <version>)")
    func liveUserAgent() {
        let agent = JoryioEnvironment.live().userAgent
        #expect(agent.hasPrefix("joryio-swift/\(JoryioEnvironment.sdkVersion) ("))
        #expect(agent.hasSuffix(")"))
    }
}
