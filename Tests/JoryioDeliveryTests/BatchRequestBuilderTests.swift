import Foundation
import JoryioCore
import JoryioDelivery
import Testing

@Suite struct BatchRequestBuilderTests {
    private let sentAt = Date(timeIntervalSince1970: 1_767_225_600.123)
    private let endpoint = URL(string: "https://api.test.joryio.com/api/v1/events") ?? URL(fileURLWithPath: "/")

    /// A builder whose "gzip" marks the body, so tests see whether and what it compressed.
    private func builder(gzip: @escaping @Sendable (Data) -> Data? = { Data("GZ".utf8) + $0 }) -> BatchRequestBuilder {
        BatchRequestBuilder(
            endpoint: self.endpoint,
            sdkKey: "jry_sdk_ios_k",
            userAgent: "joryio-swift/t (Linux)",
            timeout: 7,
            gzip: gzip
        )
    }

    private func record(_ id: Int64, _ event: JSONValue) -> QueueRecord {
        QueueRecord(id: id, payload: event.encoded())
    }

    @Test("the body is valid JSON: sentAt plus the stored events, in order, unchanged")
    func bodyIsJSON() throws {
        let events: [JSONValue] = [
            ["messageId": "m1", "event": "A", "properties": ["price": 9.5, "name": "Café \"Noir\"\n"]],
            ["messageId": "m2", "event": "B", "properties": [:]],
            ["messageId": "m3", "event": "C", "properties": ["list": [1, [2, nil], true]]],
        ]
        let request = self.builder().request(
            for: events.enumerated().map { self.record(Int64($0), $1) },
            sentAt: self.sentAt
        )
        let body = try #require(request.body)
        let parsed = try #require(JSONValue.parse(body))
        #expect(parsed == ["sentAt": "2026-01-01T00:00:00.123Z", "batch": .array(events)])
        // Foundation's own parser agrees that this is JSON.
        #expect((try? JSONSerialization.jsonObject(with: body)) != nil)
        #expect(request.header("Content-Encoding") == nil)
    }

    @Test("one event and no event still make valid JSON")
    func edgeCounts() throws {
        let one = self.builder().request(for: [self.record(1, ["a": 1])], sentAt: self.sentAt)
        #expect(JSONValue.parse(try #require(one.body))?["batch"] == [["a": 1]])
        let none = self.builder().request(for: [], sentAt: self.sentAt)
        #expect(JSONValue.parse(try #require(none.body))?["batch"] == [])
    }

    @Test("method, URL, timeout and headers")
    func headers() {
        let request = self.builder().request(for: [self.record(1, ["a": 1])], sentAt: self.sentAt)
        #expect(request.method == "POST")
        #expect(request.url == self.endpoint)
        #expect(request.timeout == 7)
        #expect(request.header("Content-Type") == "application/json")
        #expect(request.header("X-Joryio-Sdk-Key") == "jry_sdk_ios_k")
        #expect(request.header("User-Agent") == "joryio-swift/t (Linux)")
    }

    @Test("bodies of 1024 bytes or more are compressed, smaller ones are not")
    func gzipThreshold() throws {
        let overhead = BatchRequestBuilder.overhead()
        // One record of `size` bytes makes a body of exactly overhead + size bytes.
        func body(ofSize total: Int) -> [QueueRecord] {
            let filler = String(repeating: "x", count: total - overhead - #"{"a":""}"#.utf8.count)
            return [self.record(1, ["a": .string(filler)])]
        }
        let below = self.builder().request(for: body(ofSize: 1023), sentAt: self.sentAt)
        #expect(below.body?.count == 1023)
        #expect(below.header("Content-Encoding") == nil)

        let at = self.builder().request(for: body(ofSize: 1024), sentAt: self.sentAt)
        let compressed = try #require(at.body)
        #expect(at.header("Content-Encoding") == "gzip")
        #expect(compressed.prefix(2) == Data("GZ".utf8))
        #expect(compressed.count == 1026)

        let failing = self.builder { _ in nil }.request(for: body(ofSize: 4000), sentAt: self.sentAt)
        #expect(failing.header("Content-Encoding") == nil)
        #expect(failing.body?.count == 4000)
    }

    @Test("overhead() is the exact envelope size; records add their bytes and one comma each")
    func exactSize() throws {
        let records = (1...5).map { self.record(Int64($0), ["i": .int(Int64($0))]) }
        let request = self.builder { _ in nil }.request(for: records, sentAt: self.sentAt)
        let payload = records.reduce(0) { $0 + $1.payload.count }
        #expect(request.body?.count == BatchRequestBuilder.overhead() + payload + records.count - 1)
    }

    @Test(
        "payloads within payloadBudget never make a body over the byte budget",
        arguments: [1, 2, 50, 500]
    )
    func byteBudget(limit: Int) throws {
        let budget = 921_600
        let available = BatchRequestBuilder.payloadBudget(bodyBytes: budget, limit: limit)
        // `limit` records that use up the payload budget exactly.
        let envelope = #"{"a":""}"#.utf8.count
        var remaining = available
        var records: [QueueRecord] = []
        for index in 0..<limit {
            let share = remaining / (limit - index)
            remaining -= share
            records.append(self.record(Int64(index), ["a": .string(String(repeating: "y", count: share - envelope))]))
        }
        #expect(records.reduce(0) { $0 + $1.payload.count } == available)
        let request = self.builder { _ in nil }.request(for: records, sentAt: self.sentAt)
        let size = try #require(request.body?.count)
        #expect(size <= budget)
        #expect(size >= budget - limit)
    }
}
