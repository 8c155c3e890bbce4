import Foundation
import JoryioCore
import JoryioFeature
import JoryioPush
import Testing

/// The receipts-and-clicks table, request and stored item as values (protocol.md 5.11).
@Suite struct PushReportOutcomeTests {
    private let now = Date(timeIntervalSince1970: 1_800_000_000)

    private typealias Answer = Result<HTTPResponse, TransportError>

    private func answer(_ status: Int, _ body: String, headers: [String: String] = [:]) -> Answer {
        .success(HTTPResponse(status: status, headers: headers, body: Data(body.utf8)))
    }

    @Test("the success shape, with or without duplicate: true, is delivered")
    func delivered() {
        #expect(PushReportOutcome.classify(self.answer(200, #"{"success":true}"#), now: self.now) == .delivered)
        #expect(
            PushReportOutcome.classify(self.answer(200, #"{"success":true,"duplicate":true}"#), now: self.now)
                == .delivered
        )
    }

    @Test("400, 413 and 422 are rejected; 402 and 403 stop the instance with their Retry-After")
    func rejectedAndStopped() {
        for status in [400, 413, 422] {
            #expect(PushReportOutcome.classify(self.answer(status, "{}"), now: self.now) == .rejected(status: status))
        }
        for status in [402, 403] {
            #expect(
                PushReportOutcome.classify(self.answer(status, "{}", headers: ["Retry-After": "7"]), now: self.now)
                    == .stopped(status: status, retryAfter: 7)
            )
        }
    }

    @Test("success:false, another 2xx, 401 without SDK auth, 404, 405, 429, 5xx and no answer are retried")
    func retried() {
        for status in [401, 404, 405, 429, 500, 503] {
            guard case .retry = PushReportOutcome.classify(self.answer(status, "{}"), now: self.now) else {
                Issue.record("HTTP \(status) is not retried")
                continue
            }
        }
        guard
            case .retry(_, let retryAfter) = PushReportOutcome.classify(
                self.answer(200, #"{"success":false}"#, headers: ["Retry-After": "12"]),
                now: self.now
            )
        else {
            Issue.record("success:false is not retried")
            return
        }
        #expect(retryAfter == 12)
        guard case .unconfirmed = PushReportOutcome.classify(self.answer(204, ""), now: self.now) else {
            Issue.record("204 is not unconfirmed")
            return
        }
        guard case .retry = PushReportOutcome.classify(.failure(TransportError(.timeout, "slow")), now: self.now)
        else {
            Issue.record("a timeout is not retried")
            return
        }
    }

    @Test("the request: the kind's endpoint, the common headers, and the body of protocol.md 5.11")
    func request() throws {
        let builder = PushReportRequestBuilder(
            apiHost: try #require(URL(string: "https://api.example.com/api")),
            sdkKey: "jry_sdk_ios_k",
            userAgent: "ua",
            timeout: 10,
            gzip: { _ in nil }
        )
        let report = PushReport(
            kind: .click,
            messageId: "m1",
            trackingId: "trk",
            timestamp: self.now,
            userId: nil,
            anonymousId: "a1",
            deviceId: "d1"
        )
        let request = builder.request(for: report, sentAt: self.now.addingTimeInterval(1))
        #expect(request.url.absoluteString == "https://api.example.com/api/v1/push/click")
        #expect(request.method == "POST")
        #expect(request.header("X-Joryio-Sdk-Key") == "jry_sdk_ios_k")
        let body = try #require(request.body.flatMap(JSONValue.parse)?.objectValue)
        #expect(
            body == [
                "messageId": .string("m1"), "trackingId": .string("trk"), "anonymousId": .string("a1"),
                "deviceId": .string("d1"), "timestamp": .string(JSONTimestamp.string(from: self.now)),
                "sentAt": .string(JSONTimestamp.string(from: self.now.addingTimeInterval(1))),
            ],
            "an absent userId is left out"
        )
    }

    @Test("the stored item round-trips; bytes of another format or version are not read")
    func book() throws {
        var book = PushReportBook()
        book.reports = [
            PushReport(
                kind: .receipt,
                messageId: "m",
                trackingId: "t",
                timestamp: self.now,
                userId: "u",
                anonymousId: "a",
                deviceId: nil
            )
        ]
        book.recent = ["receipt:t"]
        let data = try #require(book.encoded())
        #expect(PushReportBook.decode(data) == book)
        #expect(PushReportBook.decode(Data("not json".utf8)) == nil)
        #expect(PushReportBook.decode(Data(#"{"version":2,"reports":[],"recent":[]}"#.utf8)) == nil)
    }

    @Test("PUSH-27: one trackingId check for payloads and the facade")
    func trackingIdCheck() {
        #expect(PushPayload.isValidTrackingId("trk_1"))
        #expect(PushPayload.isValidTrackingId(String(repeating: "x", count: PushPayload.maxTrackingIdLength)))
        #expect(!PushPayload.isValidTrackingId(""))
        #expect(!PushPayload.isValidTrackingId(String(repeating: "x", count: PushPayload.maxTrackingIdLength + 1)))
        #expect(!PushPayload.isValidTrackingId("a\tb"))
    }
}
