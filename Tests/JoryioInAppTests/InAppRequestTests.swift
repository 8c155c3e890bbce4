import Foundation
import JoryioCore
import JoryioInApp
import JoryioKit
import Testing

/// The in-app request bodies and the answers' tables (protocol.md, "In-app messages"; INAPP-2,
/// INAPP-4, INAPP-5, INAPP-63).
@Suite struct InAppRequestTests {
    private let now = Date(timeIntervalSince1970: 1_800_000_000)
    private let identity = InAppIdentity(userId: "u1", anonymousId: "a1", deviceId: "d1")
    private let builder = InAppRequestBuilder(
        apiHost: URL(string: "http://127.0.0.1:9/api")!,
        sdkKey: "jry_sdk_ios_test",
        userAgent: "joryio-swift/test",
        timeout: 10,
        gzip: { _ in nil }
    )

    private func body(_ request: HTTPRequest) -> [String: JSONValue] {
        request.body.flatMap(JSONValue.parse)?.objectValue ?? [:]
    }

    private func answer(_ status: Int, _ body: String) -> Result<HTTPResponse, TransportError> {
        .success(HTTPResponse(status: status, body: Data(body.utf8)))
    }

    @Test("the sync request: path, headers, ids, platform, app version; absent fields left out")
    func syncRequest() {
        let request = self.builder.sync(InAppSyncRequest(identity: self.identity, appVersion: "2.1"), sentAt: self.now)
        #expect(request.method == "POST")
        #expect(request.url.absoluteString == "http://127.0.0.1:9/api/v1/in-app/sync")
        #expect(request.header("X-Joryio-Sdk-Key") == "jry_sdk_ios_test")
        #expect(
            self.body(request) == [
                "sentAt": "2027-01-15T08:00:00.000Z", "platform": "ios", "appVersion": "2.1", "userId": "u1",
                "anonymousId": "a1", "deviceId": "d1",
            ]
        )
        let anonymous = InAppSyncRequest(identity: InAppIdentity(userId: nil, anonymousId: "a1", deviceId: nil))
        #expect(
            self.body(self.builder.sync(anonymous, sentAt: self.now)) == [
                "sentAt": "2027-01-15T08:00:00.000Z", "platform": "ios", "anonymousId": "a1",
            ]
        )
    }

    @Test("INAPP-2, INAPP-63: every report carries the campaign's token, converted too; messageId kept")
    func trackRequest() {
        for action in InAppReportAction.allCases {
            let report = InAppTrackReport(
                messageId: "m-\(action.rawValue)",
                campaignId: "c1",
                action: action,
                elementId: action == .clicked ? "cta" : nil,
                deliveryToken: "v1.p.s",
                timestamp: self.now.addingTimeInterval(-1),
                identity: self.identity
            )
            let request = self.builder.track(report, sentAt: self.now)
            #expect(request.url.path == "/api/v1/in-app/track")
            var expected: [String: JSONValue] = [
                "messageId": .string("m-\(action.rawValue)"), "campaignId": "c1", "action": .string(action.rawValue),
                "deliveryToken": "v1.p.s", "timestamp": "2027-01-15T07:59:59.000Z",
                "sentAt": "2027-01-15T08:00:00.000Z", "userId": "u1", "anonymousId": "a1", "deviceId": "d1",
            ]
            if action == .clicked { expected["elementId"] = "cta" }
            #expect(self.body(request) == expected)
        }
        let tokenless = InAppTrackReport(
            messageId: "m",
            campaignId: "c1",
            action: .displayed,
            deliveryToken: nil,
            timestamp: self.now,
            identity: self.identity
        )
        #expect(self.body(self.builder.track(tokenless, sentAt: self.now))["deliveryToken"] == nil)
    }

    @Test("a report survives a store round trip unchanged")
    func reportCodable() throws {
        let report = InAppTrackReport(
            messageId: "m",
            campaignId: "c1",
            action: .converted,
            deliveryToken: "t",
            timestamp: self.now,
            identity: self.identity
        )
        let data = try JSONEncoder().encode(report)
        #expect(try JSONDecoder().decode(InAppTrackReport.self, from: data) == report)
        let form = InAppFormSubmission(
            messageId: "f",
            campaignId: "c1",
            values: ["a": .string("x"), "b": .number(2.5), "c": .bool(true)],
            deliveryToken: "t",
            timestamp: self.now,
            identity: self.identity
        )
        #expect(try JSONDecoder().decode(InAppFormSubmission.self, from: JSONEncoder().encode(form)) == form)
    }

    @Test("INAPP-51: the form body: values as strings, numbers (whole ones as integers) and booleans, with the token")
    func formRequest() {
        let form = InAppFormSubmission(
            messageId: "f1",
            campaignId: "c1",
            values: [
                "email": .string("a@example.com"), "age": .number(42), "score": .number(2.5), "news": .bool(true),
            ],
            deliveryToken: "v1.p.s",
            timestamp: self.now,
            identity: self.identity
        )
        let request = self.builder.form(form, sentAt: self.now)
        #expect(request.url.path == "/api/v1/in-app/forms")
        #expect(
            self.body(request) == [
                "messageId": "f1", "campaignId": "c1",
                "values": ["email": "a@example.com", "age": 42, "score": 2.5, "news": true],
                "deliveryToken": "v1.p.s", "timestamp": "2027-01-15T08:00:00.000Z",
                "sentAt": "2027-01-15T08:00:00.000Z", "userId": "u1", "anonymousId": "a1", "deviceId": "d1",
            ]
        )
    }

    @Test("form values the wire cannot take are dropped by name, with a reason each")
    func formValues() {
        var values: [String: JSONValue] = [
            "ok": "x", "n": 1, "d": 1.5, "b": false, "null": .null, "list": [1], "object": ["a": 1],
            "long": .string(String(repeating: "x", count: InAppFormSubmission.maxStringLength + 1)), "": "empty name",
        ]
        let converted = InAppFormSubmission.values(from: values)
        #expect(converted.values == ["ok": .string("x"), "n": .number(1), "d": .number(1.5), "b": .bool(false)])
        #expect(converted.dropped.count == 5)
        values = Dictionary(
            uniqueKeysWithValues: (0..<150).map { (String(format: "k%03d", $0), JSONValue.int(Int64($0))) }
        )
        let capped = InAppFormSubmission.values(from: values)
        #expect(capped.values.count == InAppFormSubmission.maxFields)
        #expect(capped.values["k099"] != nil && capped.values["k100"] == nil)
        #expect(capped.dropped.count == 50)
    }

    @Test("INAPP-4, INAPP-5: the report table: token refusals are permanent, the rest as push reports")
    func reportOutcomes() {
        let classify = { (status: Int, body: String) in
            InAppReportOutcome.classify(self.answer(status, body), now: self.now)
        }
        #expect(classify(200, #"{"success":true}"#) == .delivered)
        #expect(classify(200, #"{"success":true,"duplicate":true}"#) == .delivered)
        #expect(
            classify(400, #"{"success":false,"error":"A delivery token is required"}"#)
                == .rejected(status: 400, error: "A delivery token is required")
        )
        #expect(
            classify(200, #"{"success":false,"error":"A delivery token is required"}"#)
                == .rejected(status: 200, error: "A delivery token is required")
        )
        #expect(
            classify(422, #"{"success":false,"error":"invalid_delivery_token","reason":"expired"}"#)
                == .rejected(status: 422, error: "invalid_delivery_token")
        )
        #expect(classify(413, "") == .rejected(status: 413, error: nil))
        #expect(classify(403, "{}") == .stopped(status: 403, retryAfter: nil))
        #expect(classify(402, "{}") == .stopped(status: 402, retryAfter: nil))
        for (status, body) in [(200, #"{"success":false,"error":"busy"}"#), (500, ""), (429, ""), (404, ""), (401, "")]
        {
            guard case .retry = classify(status, body) else {
                Issue.record("\(status) \(body) is not retried")
                continue
            }
        }
        guard case .unconfirmed = classify(204, "") else {
            Issue.record("204 is not unconfirmed")
            return
        }
        guard case .retry = InAppReportOutcome.classify(.failure(TransportError(.timeout, "t")), now: self.now) else {
            Issue.record("a timeout is not retried")
            return
        }
    }

    @Test("the sync table: the answer is decoded; failures keep the campaigns the SDK has")
    func syncOutcomes() {
        let classify = { (status: Int, body: String) in
            InAppSyncOutcome.classify(self.answer(status, body), now: self.now)
        }
        #expect(
            classify(200, #"{"success":true,"campaigns":[{"id":"c","type":"modal","content":{"html":"x"}}]}"#)
                == .synced(
                    InAppSyncAnswer(
                        campaigns: [InAppCampaign(message: InAppMessage(id: "c", type: .modal, content: .html("x")))],
                        contactRules: InAppContactRules.none
                    )
                )
        )
        guard case .unusable = classify(200, #"{"success":true}"#) else {
            Issue.record("an answer without campaigns is usable")
            return
        }
        #expect(
            classify(422, #"{"success":false,"error":"missing_identity"}"#)
                == .rejected(status: 422, error: "missing_identity")
        )
        #expect(classify(403, "{}") == .stopped(status: 403, retryAfter: nil))
        guard case .retry = classify(503, ""), case .retry = classify(200, #"{"success":false}"#),
            case .unconfirmed = classify(200, "<html>")
        else {
            Issue.record("a failed sync is not retried")
            return
        }
    }
}
