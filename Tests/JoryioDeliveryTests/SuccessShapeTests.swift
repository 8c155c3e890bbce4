import Foundation
import JoryioCore
import JoryioDelivery
import Testing

/// Only the protocol's success shape (HTTP 200, a JSON object, `"success": true`, and for events
/// index lists and counts that fit the batch) deletes anything; every other 2xx answer keeps what
/// was sent (issue 12, defect 4; docs/protocol.md §4 "What counts as a success").
@Suite struct SuccessShapeTests {
    private let now = Date(timeIntervalSince1970: 1_767_225_600)

    /// 2xx answers no Joryio server gives, whatever the endpoint.
    static let unclearOnEveryChannel: [(status: Int, body: String)] = [
        (200, "{}"),
        (200, #"{"success":"true"}"#),
        (200, #"{"success":1}"#),
        (200, #"{"success":null}"#),
        (200, #"{"ok":true,"accepted":3}"#),
        (200, #"{"Success":true}"#),
        (201, #"{"success":true}"#),
        (202, #"{"success":true}"#),
        (204, ""),
        (206, #"{"success":true}"#),
        (206, #"{"success":false,"error":"partial"}"#),
        (207, #"<?xml version="1.0"?><multistatus xmlns="DAV:"/>"#),
        (299, #"{"success":true}"#),
        (200, "<html><body>Sign in to Wi-Fi</body></html>"),
        (200, ""),
        (200, "[true]"),
        (200, "true"),
        (200, #"{"success":tru"#),
    ]

    /// Event answers that say `success: true` but whose lists or counts do not fit a batch of 3.
    static let unclearForThreeEvents: [String] = [
        #"{"success":true,"rejectedIndices":"1"}"#,
        #"{"success":true,"rejectedIndices":[3]}"#,
        #"{"success":true,"rejectedIndices":[-1]}"#,
        #"{"success":true,"rejectedIndices":[1.5]}"#,
        #"{"success":true,"rejectedIndices":[1.0]}"#,
        #"{"success":true,"rejectedIndices":["1"]}"#,
        #"{"success":true,"failedIndices":[2,2]}"#,
        #"{"success":true,"failedIndices":{"0":1}}"#,
        #"{"success":true,"rejectedIndices":[1],"failedIndices":[1]}"#,
        #"{"success":true,"accepted":2,"duplicates":0,"rejectedIndices":[],"failedIndices":[]}"#,
        #"{"success":true,"accepted":50,"duplicates":0,"rejectedIndices":[],"failedIndices":[]}"#,
        #"{"success":true,"accepted":4,"duplicates":-1}"#,
        #"{"success":true,"accepted":"3","duplicates":0}"#,
        #"{"success":true,"accepted":3,"duplicates":0.5}"#,
    ]

    private func response(
        _ status: Int,
        _ body: String,
        headers: [String: String] = [:]
    ) -> Result<
        HTTPResponse, TransportError
    > {
        .success(HTTPResponse(status: status, headers: headers, body: Data(body.utf8)))
    }

    private func events(_ status: Int, _ body: String, count: Int = 3) -> BatchOutcome {
        BatchOutcome.classify(self.response(status, body), count: count, now: self.now)
    }

    private func attributes(_ status: Int, _ body: String, count: Int = 2) -> AttributeOutcome {
        AttributeOutcome.classify(self.response(status, body), count: count, now: self.now)
    }

    private func durable(_ status: Int, _ body: String) -> DurableOutcome {
        let write = DurableWrite(
            id: "w1",
            kind: .alias(label: "crm_id", name: "C-1"),
            userId: "u1",
            anonymousId: "a1",
            timestamp: self.now
        )
        return DurableOutcome.classify(self.response(status, body), for: write, now: self.now)
    }

    // MARK: - Events

    @Test("events: a 2xx that is not the success shape keeps every event", arguments: unclearOnEveryChannel)
    func eventsKeptOnUnclear2xx(status: Int, body: String) {
        let outcome = self.events(status, body)
        guard case .unconfirmed(.server(let message?), nil) = outcome else {
            Issue.record("HTTP \(status) \(body): \(outcome)")
            return
        }
        #expect(!message.isEmpty)
    }

    @Test(
        "events: success:true with index lists or counts that do not fit the batch keeps every event",
        arguments: unclearForThreeEvents
    )
    func eventsKeptOnMisfittingLists(body: String) {
        let outcome = self.events(200, body)
        guard case .unconfirmed(.server(let message?), nil) = outcome else {
            Issue.record("\(body): \(outcome)")
            return
        }
        #expect(message.contains("Indices") || message.contains("accepted"), "\(message)")
    }

    @Test("events: the success shape, with or without the optional fields, still delivers (BATCH-7, BATCH-8)")
    func eventsSuccessShapes() {
        #expect(self.events(200, #"{"success":true}"#) == .delivered(rejected: [], failed: []))
        #expect(
            self.events(200, #"{"success":true,"accepted":2,"duplicates":1,"rejectedIndices":[],"failedIndices":[]}"#)
                == .delivered(rejected: [], failed: [])
        )
        #expect(
            self.events(200, #"{"success":true,"accepted":1,"duplicates":0,"rejectedIndices":[2],"failedIndices":[0]}"#)
                == .delivered(rejected: [2], failed: [0])
        )
        #expect(
            self.events(200, #"{"success":true,"rejectedIndices":null,"failedIndices":[1],"extra":{"x":1}}"#)
                == .delivered(rejected: [], failed: [1])
        )
        #expect(self.events(200, #"{"success":true,"accepted":3}"#) == .delivered(rejected: [], failed: []))
    }

    @Test("events: the server's own refusal (200, success:false) and Retry-After are unchanged")
    func eventsRefusal() {
        #expect(
            BatchOutcome.classify(
                self.response(200, #"{"success":false,"error":"busy"}"#, headers: ["Retry-After": "4"]),
                count: 3,
                now: self.now
            ) == .retry(.server(message: "busy"), retryAfter: 4)
        )
        #expect(
            BatchOutcome.classify(
                self.response(206, "{}", headers: ["Retry-After": "4"]),
                count: 3,
                now: self.now
            ) == .unconfirmed(.server(message: "HTTP 206 is not an answer of the Joryio API"), retryAfter: 4)
        )
    }

    // MARK: - Attributes

    @Test("attributes: a 2xx that is not the success shape keeps the writes", arguments: unclearOnEveryChannel)
    func attributesKeptOnUnclear2xx(status: Int, body: String) {
        let outcome = self.attributes(status, body)
        guard case .unconfirmed(.server(let message?), nil) = outcome else {
            Issue.record("HTTP \(status) \(body): \(outcome)")
            return
        }
        #expect(!message.isEmpty)
    }

    @Test("attributes: counts that do not add up to the request's operations keep the writes")
    func attributesCounts() {
        #expect(self.attributes(200, #"{"success":true,"applied":2,"duplicates":0}"#) == .confirmed)
        #expect(self.attributes(200, #"{"success":true,"applied":0,"duplicates":2,"replayed":true}"#) == .confirmed)
        #expect(self.attributes(200, #"{"success":true}"#) == .confirmed)
        for body in [
            #"{"success":true,"applied":1,"duplicates":0}"#, #"{"success":true,"applied":3,"duplicates":0}"#,
            #"{"success":true,"applied":"2","duplicates":0}"#, #"{"success":true,"applied":2,"duplicates":-1}"#,
        ] {
            guard case .unconfirmed = self.attributes(200, body) else {
                Issue.record("\(body): \(self.attributes(200, body))")
                continue
            }
        }
    }

    // MARK: - Durable writes

    @Test(
        "durable writes: a 2xx that is not the success shape is retried, never counted",
        arguments: unclearOnEveryChannel
    )
    func durableKeptOnUnclear2xx(status: Int, body: String) {
        let outcome = self.durable(status, body)
        guard case .unconfirmed(.server(let message?), nil) = outcome else {
            Issue.record("HTTP \(status) \(body): \(outcome)")
            return
        }
        #expect(!message.isEmpty)
    }

    @Test("durable writes: success:true (also duplicate) is done; 200 success:false stays a counted retry")
    func durableShapes() {
        #expect(self.durable(200, #"{"success":true}"#) == .delivered)
        #expect(self.durable(200, #"{"success":true,"duplicate":true}"#) == .delivered)
        #expect(
            self.durable(200, #"{"success":false,"error":"x"}"#) == .counted(.server(message: "x"), retryAfter: nil)
        )
    }
}
