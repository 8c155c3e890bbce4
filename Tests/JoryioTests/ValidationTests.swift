import Foundation
import Joryio
import JoryioCore
import JoryioTesting
import Testing

/// What `track()` refuses, at call time and with one log line each (EVT-2 … EVT-5).
@Suite struct ValidationTests {
    /// Tracks one event, flushes, and returns what was sent and the warning-or-worse log lines.
    private func send(
        _ name: String,
        properties: [String: Any]? = nil
    ) -> (events: [JSONValue], queued: Int, logs: [String]) {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.start()
        sdk.joryio.track(name, properties: properties)
        sdk.scheduler.runUntilIdle()
        let queued = sdk.joryio.getQueueSize()
        sdk.joryio.flush()
        sdk.scheduler.runUntilIdle()
        return (transport.requests.flatMap(\.events), queued, sdk.messages(atLeast: .warning))
    }

    /// Expects `name`/`properties` to be dropped with exactly one warning containing `reason`.
    private func expectDropped(
        _ name: String,
        properties: [String: Any]? = nil,
        reason: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let result = self.send(name, properties: properties)
        #expect(result.events.isEmpty, sourceLocation: sourceLocation)
        #expect(result.queued == 0, sourceLocation: sourceLocation)
        #expect(result.logs.count == 1, "\(result.logs)", sourceLocation: sourceLocation)
        #expect(result.logs.first?.contains(reason) == true, "\(result.logs)", sourceLocation: sourceLocation)
    }

    /// Expects the event to be sent unchanged, with no warning.
    private func expectAccepted(
        _ name: String,
        properties: [String: Any]? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let result = self.send(name, properties: properties)
        #expect(result.events.count == 1, sourceLocation: sourceLocation)
        #expect(result.events.first?["event"]?.stringValue == name, sourceLocation: sourceLocation)
        #expect(result.logs.isEmpty, "\(result.logs)", sourceLocation: sourceLocation)
    }

    @Test("an empty name logs a warning and stores nothing")
    func emptyName() {
        self.expectDropped("", reason: "empty")
        self.expectDropped("", properties: ["a": 1], reason: "empty")
    }

    @Test("names count Unicode scalars: 255 pass, 256 are dropped")
    func nameLength() {
        self.expectAccepted(String(repeating: "a", count: 255))
        self.expectDropped(String(repeating: "a", count: 256), reason: "256 characters")
        // 255 emoji are 510 UTF-16 units but 255 scalars: accepted.
        self.expectAccepted(String(repeating: "😀", count: 255))
        // 128 "é" written as e + combining acute are 128 characters but 256 scalars: dropped.
        self.expectDropped(String(repeating: "e\u{301}", count: 128), reason: "256 characters")
    }

    @Test("properties of 51,200 canonical bytes pass, 51,201 are dropped")
    func propertiesSize() {
        // {"p":"…"} is 8 bytes of JSON around the string.
        let fits = ["p": String(repeating: "x", count: 51_200 - 8)]
        #expect(JSONValue.convert(fits).value.encodedByteCountAsObject == 51_200)
        self.expectAccepted("Big", properties: fits)
        self.expectDropped("Big", properties: ["p": String(repeating: "x", count: 51_201 - 8)], reason: "51201 bytes")
        // Multi-byte characters count in UTF-8 bytes, escapes as written: 25,596 "é" are 51,192 bytes.
        self.expectAccepted("Big", properties: ["p": String(repeating: "é", count: 25_596)])
        self.expectDropped(
            "Big",
            properties: ["p": String(repeating: "é", count: 25_596) + "\n"],
            reason: "51202 bytes"
        )
    }

    @Test("200 top-level keys pass, 201 are dropped")
    func keyCount() {
        let keys = { (count: Int) in Dictionary(uniqueKeysWithValues: (0..<count).map { ("k\($0)", $0 as Any) }) }
        self.expectAccepted("Keys", properties: keys(200))
        self.expectDropped("Keys", properties: keys(201), reason: "201 top-level keys")
        // Nested keys do not count.
        self.expectAccepted("Keys", properties: ["nested": keys(300)])
    }

    @Test("nesting depth 5 passes, 6 is dropped (arrays and empty containers count)")
    func depth() {
        self.expectAccepted("Deep", properties: ["a": ["b": ["c": ["d": ["e": 1]]]]])
        self.expectAccepted("Deep", properties: ["a": [[[[1]]]]])
        // Refused while converting, on the caller's thread: nothing past level 6 is looked at.
        self.expectDropped(
            "Deep",
            properties: ["a": ["b": ["c": ["d": ["e": [String: Any]()]]]]],
            reason: "more than 5 levels deep (at a.b.c.d.e)"
        )
        self.expectDropped(
            "Deep",
            properties: ["a": [[[[[Int]()]]]]],
            reason: "more than 5 levels deep (at a[0][0][0][0])"
        )
    }

    @Test("non-finite numbers are dropped with one warning each; the rest of the event is sent")
    func nonFinite() throws {
        let result = self.send(
            "Numbers",
            properties: ["price": 9.5, "nan": Double.nan, "nested": ["inf": Double.infinity, "ok": 1 as Int]]
        )
        let event = try #require(result.events.first)
        #expect(event["properties"] == ["price": 9.5, "nested": ["ok": 1]])
        #expect(result.logs.count == 2)
        #expect(result.logs.contains { $0.contains("nan") && $0.contains("non-finite") })
        #expect(result.logs.contains { $0.contains("nested.inf") && $0.contains("non-finite") })

        let single = self.send("Numbers", properties: ["x": -Double.infinity, "y": "kept"])
        #expect(single.events.first?["properties"] == ["y": "kept"])
        #expect(single.logs.count == 1)
        let inArray = self.send("Numbers", properties: ["list": [1.0, Double.nan, 3.0]])
        #expect(inArray.events.first?["properties"] == ["list": [1.0, 3.0]])
        #expect(inArray.logs.count == 1)
    }

    @Test("trackScreen records Screen Viewed with screen_name merged into the properties")
    func trackScreen() throws {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.start()
        sdk.joryio.trackScreen("ProductDetail", properties: ["product_id": "abc123"])
        sdk.joryio.trackScreen("Home")
        sdk.joryio.flush()
        sdk.scheduler.runUntilIdle()
        let events = transport.requests.flatMap(\.events)
        #expect(events.count == 2)
        #expect(events.first?["event"] == "Screen Viewed")
        #expect(events.first?["properties"] == ["screen_name": "ProductDetail", "product_id": "abc123"])
        #expect(events.last?["properties"] == ["screen_name": "Home"])
        #expect(sdk.messages(atLeast: .warning).isEmpty)
    }

    @Test("trackScreen with an empty screen name logs a warning and stores nothing")
    func emptyScreenName() {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.start()
        sdk.joryio.trackScreen("", properties: ["a": 1])
        sdk.scheduler.runUntilIdle()
        #expect(sdk.joryio.getQueueSize() == 0)
        #expect(sdk.messages(atLeast: .warning).count == 1)
        sdk.joryio.flush()
        sdk.scheduler.runUntilIdle()
        #expect(transport.requests.isEmpty)
    }
}

extension [String: JSONValue] {
    /// The canonical size of this dictionary as a JSON object.
    var encodedByteCountAsObject: Int {
        JSONValue.object(self).encodedByteCount
    }
}
