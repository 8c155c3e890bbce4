import Foundation
import JoryioCore
import JoryioDelivery
import Testing

@Suite struct DurableWireTests {
    private let builder = DurableRequestBuilder(
        apiHost: URL(string: "https://api.test.joryio.com/base") ?? URL(fileURLWithPath: "/"),
        sdkKey: "jry_sdk_k",
        userAgent: "joryio-swift/t (Linux)",
        timeout: 7
    )
    private let sentAt = Date(timeIntervalSince1970: 1_767_225_660.5)

    private func text(_ request: HTTPRequest) -> String {
        String(decoding: request.body ?? Data(), as: UTF8.self)
    }

    @Test("DURABLE-1 / SUB-2: each kind goes to its endpoint with the wire-v2 body, compact with sorted keys")
    func bodies() {
        let cases: [(DurableWrite.Kind, String, String)] = [
            (.identify, "/base/v1/identify", ""),
            (.alias(label: "crm_id", name: "C-1"), "/base/v1/alias", #""label":"crm_id","name":"C-1","#),
            (
                .subscription(channel: "email", status: "subscribed"), "/base/v1/subscriptions",
                #""channel":"email","status":"subscribed","#
            ),
            (
                .subscriptionGroup(channel: "sms", groupId: "list_1", join: true), "/base/v1/subscriptions",
                #""action":"join","channel":"sms","groupId":"list_1","#
            ),
            (
                .subscriptionGroup(channel: "sms", groupId: "list_1", join: false), "/base/v1/subscriptions",
                #""action":"leave","channel":"sms","groupId":"list_1","#
            ),
            (.optOutRecord(optedOut: true), "/base/v1/opt-out", #""optedOut":true,"#),
            (.pushUnregister(token: "tok"), "/base/v1/push/unregister", #""token":"tok","#),
        ]
        for (kind, path, fields) in cases {
            let request = self.builder.request(
                for: write("w1", kind, user: "u1"),
                userId: "u1",
                anonymousId: "anon-1",
                sentAt: self.sentAt
            )
            #expect(request.url.path == path)
            #expect(request.method == "POST")
            #expect(request.timeout == 7)
            #expect(request.header("Content-Type") == "application/json")
            #expect(request.header("X-Joryio-Sdk-Key") == "jry_sdk_k")
            #expect(request.header("User-Agent") == "joryio-swift/t (Linux)")
            // Keys sorted: action, anonymousId, channel, groupId, label, name, optedOut, sentAt, status, timestamp, token, userId, writeId.
            let expected = Self.expectedBody(fields: fields)
            #expect(self.text(request) == expected, "\(kind)")
        }
    }

    /// Splices the kind's fields into the common body at their sorted positions.
    private static func expectedBody(fields: String) -> String {
        var members = [
            #""anonymousId":"anon-1""#, #""sentAt":"2026-01-01T00:01:00.500Z""#,
            #""timestamp":"2026-01-01T00:00:00.250Z""#, #""userId":"u1""#, #""writeId":"w1""#,
        ]
        members += fields.split(separator: ",", omittingEmptySubsequences: true).map(String.init)
        members.sort()
        return "{" + members.joined(separator: ",") + "}"
    }

    @Test("absent ids are left out of the body")
    func absentIds() throws {
        let request = self.builder.request(
            for: write("w9", .optOutRecord(optedOut: false), anon: nil),
            userId: nil,
            anonymousId: "a",
            sentAt: self.sentAt
        )
        #expect(
            self.text(request)
                == #"{"anonymousId":"a","optedOut":false,"sentAt":"2026-01-01T00:01:00.500Z","timestamp":"2026-01-01T00:00:00.250Z","writeId":"w9"}"#
        )
    }

    @Test("the stored payload is compact JSON and every kind round-trips exactly")
    func codecRoundTrip() throws {
        let writes = [
            write("a", .identify, user: "u1", at: Date(timeIntervalSince1970: 1_767_225_600.123)),
            write("b", .alias(label: "crm", name: "Zoë \"Q\""), user: nil, anon: "anon-1"),
            write("c", .subscription(channel: "email", status: "unsubscribed"), user: "u1", anon: nil),
            write("d", .subscriptionGroup(channel: "push", groupId: "g", join: true)),
            write("e", .subscriptionGroup(channel: "push", groupId: "g", join: false)),
            write("f", .optOutRecord(optedOut: true)),
            write("g", .pushUnregister(token: "t0k")),
        ]
        for original in writes {
            let decoded = DurableWriteCodec.decode(DurableWriteCodec.encode(original))
            #expect(decoded == original)
        }
        let payload = String(decoding: DurableWriteCodec.encode(writes[2]), as: UTF8.self)
        #expect(
            payload
                == #"{"id":"c","kind":{"fields":{"channel":"email","status":"unsubscribed"},"method":"POST","name":"unsubscribe","path":"v1/subscriptions","replacement":{"key":"sub|email","scope":"person"},"rules":{"404":"afterEvents"},"withdrawal":true},"timestamp":1767225600250,"userId":"u1","v":2}"#
        )
    }

    @Test("timestamps are kept to the millisecond: the wire timestamp of a reloaded write is unchanged")
    func codecMilliseconds() throws {
        let dates = [1_767_225_600.123_456_7, 1_767_225_600.999_9, -0.001, 0, 1_767_225_600.000_999_9].map(
            Date.init(timeIntervalSince1970:)
        )
        for date in dates {
            let decoded = try #require(
                DurableWriteCodec.decode(DurableWriteCodec.encode(write("a", .identify, user: "u", at: date)))
            )
            #expect(
                JSONTimestamp.string(from: decoded.timestamp) == JSONTimestamp.string(from: date),
                "\(date.timeIntervalSince1970)"
            )
            #expect(abs(decoded.timestamp.timeIntervalSince(date)) < 0.001)
        }
    }

    @Test("payloads of another version, kind or shape do not decode")
    func codecRejects() {
        let bad = [
            #"{"id":"c","kind":"identify","timestamp":1,"v":3}"#,
            #"{"id":"c","kind":"identify","timestamp":1,"v":2}"#,
            #"{"id":"c","kind":"rename","timestamp":1,"v":1}"#,
            #"{"id":"c","kind":"alias","label":"x","timestamp":1,"v":1}"#,
            #"{"id":"","kind":"identify","timestamp":1,"v":1}"#,
            #"{"id":"c","kind":"identify","v":1}"#,
            #"[1,2]"#,
            "not json",
        ]
        for text in bad {
            #expect(DurableWriteCodec.decode(Data(text.utf8)) == nil, "\(text)")
        }
        #expect(DurableWriteCodec.decode(Data(#"{"id":"c","kind":"identify","timestamp":1,"v":1}"#.utf8)) != nil)
    }

    @Test("a stored timestamp a Date cannot hold to the millisecond does not decode (a fuzzer's find)")
    func codecRejectsHugeTimestamps() throws {
        let record = { (milliseconds: Int64) in
            Data(#"{"id":"c","kind":"identify","timestamp":\#(milliseconds),"v":1}"#.utf8)
        }
        for milliseconds: Int64 in [1_767_225_607_125_600_123, -4_000_000_000_001, 4_000_000_000_001, .max, .min] {
            #expect(DurableWriteCodec.decode(record(milliseconds)) == nil, "\(milliseconds)")
        }
        for milliseconds: Int64 in [4_000_000_000_000, -4_000_000_000_000, 4_000_000_000_000 - 1] {
            let decoded = try #require(DurableWriteCodec.decode(record(milliseconds)))
            #expect(DurableWriteCodec.decode(DurableWriteCodec.encode(decoded)) == decoded, "\(milliseconds)")
        }
    }

    @Test("response classes (wire v2, SDK handling summary)")
    func outcomes() {
        let now = Date(timeIntervalSince1970: 1_767_225_600)
        let sub = write("s", .subscription(channel: "email", status: "subscribed"))
        let alias = write("a", .alias(label: "l", name: "n"))
        func classify(_ response: HTTPResponse, _ target: DurableWrite = sub) -> DurableOutcome {
            DurableOutcome.classify(.success(response), for: target, now: now)
        }
        #expect(classify(.ok) == .delivered)
        #expect(classify(.json(200, #"{"success":true,"duplicate":true}"#)) == .delivered)
        #expect(classify(.notOK) == .counted(.server(message: "storage_unavailable"), retryAfter: nil))
        for status in [400, 403, 409, 413, 422] {
            #expect(classify(.json(status, "{}")) == .rejected(status: status))
        }
        #expect(classify(.json(401, "")) == .counted(.http(status: 401, body: nil), retryAfter: nil))
        #expect(classify(.json(404, "")) == .profileNotFound(retryAfter: nil))
        #expect(classify(.json(404, ""), alias) == .retry(.http(status: 404, body: nil), retryAfter: nil))
        #expect(classify(.json(405, "")) == .retry(.http(status: 405, body: nil), retryAfter: nil))
        #expect(classify(.json(402, "", headers: ["Retry-After": "9"])) == .paymentRequired(retryAfter: 9))
        #expect(
            classify(.json(429, "", headers: ["Retry-After": "5"]))
                == .retry(.http(status: 429, body: nil), retryAfter: 5)
        )
        #expect(
            classify(.json(200, "<html>"))
                == .unconfirmed(.server(message: "HTTP 200 with a body that is not a JSON object"), retryAfter: nil)
        )
        #expect(
            DurableOutcome.classify(.failure(TransportError(.timeout, "t")), for: sub, now: now)
                == .retry(.timeout, retryAfter: nil)
        )
    }
}
