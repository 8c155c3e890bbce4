import Foundation
import JoryioCore
import JoryioDelivery
import Testing

@Suite struct BatchOutcomeTests {
    private let now = Date(timeIntervalSince1970: 1_767_225_600)  // Thu, 01 Jan 2026 00:00:00 GMT

    private func classify(
        _ status: Int,
        _ body: String = "",
        headers: [String: String] = [:],
        count: Int = 10
    ) -> BatchOutcome {
        let response = HTTPResponse(status: status, headers: headers, body: Data(body.utf8))
        return BatchOutcome.classify(.success(response), count: count, now: self.now)
    }

    // MARK: - 2xx

    @Test("200 with success:true delivers everything")
    func delivered() {
        #expect(self.classify(200, #"{"success":true,"accepted":10}"#) == .delivered(rejected: [], failed: []))
    }

    @Test("another 2xx with success:true delivers nothing (a proxy answered)", arguments: [201, 202, 206, 299])
    func otherTwoHundreds(status: Int) {
        #expect(
            self.classify(status, #"{"success":true,"accepted":10}"#)
                == .unconfirmed(.server(message: "HTTP \(status) is not an answer of the Joryio API"), retryAfter: nil)
        )
    }

    @Test("rejectedIndices and failedIndices are read")
    func indices() {
        let body = #"{"success":true,"accepted":6,"rejectedIndices":[1,7],"failedIndices":[2,9]}"#
        #expect(self.classify(200, body) == .delivered(rejected: [1, 7], failed: [2, 9]))
    }

    @Test(
        "index lists that are not distinct positions of the batch, or overlap, delete nothing",
        arguments: [
            #"{"success":true,"rejectedIndices":[-1,3]}"#, #"{"success":true,"rejectedIndices":[3,10]}"#,
            #"{"success":true,"rejectedIndices":[1.5]}"#, #"{"success":true,"rejectedIndices":["4"]}"#,
            #"{"success":true,"rejectedIndices":[null]}"#, #"{"success":true,"rejectedIndices":[2.0]}"#,
            #"{"success":true,"failedIndices":"5"}"#, #"{"success":true,"rejectedIndices":[[0]]}"#,
            #"{"success":true,"failedIndices":{"0":1}}"#, #"{"success":true,"failedIndices":[3,3]}"#,
            #"{"success":true,"rejectedIndices":[1,7],"failedIndices":[2,7,9]}"#,
        ]
    )
    func badIndices(body: String) {
        #expect(
            self.classify(200, body, count: 10)
                == .unconfirmed(
                    .server(
                        message:
                            "HTTP 200 whose rejectedIndices or failedIndices are not positions of the 10 events sent"
                    ),
                    retryAfter: nil
                )
        )
    }

    @Test("2xx with success:false keeps everything and honours Retry-After")
    func successFalse() {
        #expect(
            self.classify(200, #"{"success":false,"error":"busy"}"#, headers: ["Retry-After": "4"])
                == .retry(.server(message: "busy"), retryAfter: 4)
        )
        #expect(self.classify(200, #"{"success":false}"#) == .retry(.server(message: nil), retryAfter: nil))
    }

    @Test(
        "a 200 body that is not a JSON object keeps everything (a captive portal or proxy answered)",
        arguments: ["", "<html>Sign in to Wi-Fi</html>", "[1,2]", "true", #""ok""#, "{\"success\":tru"]
    )
    func unparseable2xx(body: String) {
        #expect(self.classify(200, body) == .unconfirmed(.notJoryioResponse, retryAfter: nil))
    }

    // MARK: - Errors

    @Test("400, 413 and 422 split the batch", arguments: [400, 413, 422])
    func split(status: Int) {
        #expect(self.classify(status, #"{"success":false,"error":"invalid_event"}"#) == .split(status: status))
    }

    @Test("402 and 403 stop sending, whatever the body or Retry-After", arguments: [402, 403])
    func stop(status: Int) {
        #expect(self.classify(status, "", headers: ["Retry-After": "1"]) == .stop(status: status))
    }

    @Test(
        "429, 5xx and every other status keep everything and back off",
        arguments: [100, 301, 304, 401, 404, 405, 408, 409, 418, 429, 500, 502, 503, 504, 599]
    )
    func retryStatuses(status: Int) {
        #expect(
            self.classify(status, #"{"error":"x"}"#)
                == .retry(.http(status: status, body: #"{"error":"x"}"#), retryAfter: nil)
        )
    }

    @Test("Retry-After in seconds or as an HTTP date; garbage is ignored")
    func retryAfter() {
        #expect(
            self.classify(503, headers: ["Retry-After": "7"]) == .retry(.http(status: 503, body: nil), retryAfter: 7)
        )
        #expect(
            self.classify(429, headers: ["retry-after": "Thu, 01 Jan 2026 00:00:30 GMT"])
                == .retry(.http(status: 429, body: nil), retryAfter: 30)
        )
        #expect(
            self.classify(503, headers: ["Retry-After": "soon"])
                == .retry(.http(status: 503, body: nil), retryAfter: nil)
        )
    }

    @Test("an error body is kept for diagnostics, cut to 512 bytes")
    func errorBodyIsCut() {
        let long = String(repeating: "x", count: 2000)
        guard case .retry(.http(500, let body?), _) = self.classify(500, long) else {
            Issue.record("expected a retry with a body")
            return
        }
        #expect(body == String(repeating: "x", count: 512))
    }

    // MARK: - No response

    @Test("a timeout maps to .timeout")
    func timeout() {
        let outcome = BatchOutcome.classify(.failure(TransportError(.timeout, "10 s")), count: 3, now: self.now)
        #expect(outcome == .retry(.timeout, retryAfter: nil))
    }

    @Test(
        "connection failures map to .network and keep everything",
        arguments: [TransportError.Code.cannotConnect, .connectionLost, .tls, .cancelled, .other, .invalidRequest]
    )
    func network(code: TransportError.Code) {
        let error = TransportError(code, "boom")
        let outcome = BatchOutcome.classify(.failure(error), count: 3, now: self.now)
        #expect(outcome == .retry(.network(error.description), retryAfter: nil))
    }

    @Test("GAP-47: JoryioTransportError.isRetryable matches the outcome classes")
    func retryable() {
        #expect(JoryioTransportError.timeout.isRetryable)
        #expect(JoryioTransportError.network("x").isRetryable)
        #expect(JoryioTransportError.server(message: nil).isRetryable)
        for status in [429, 500, 503, 404] {
            #expect(JoryioTransportError.http(status: status, body: nil).isRetryable)
        }
        for status in [400, 402, 403, 413, 422] {
            #expect(!JoryioTransportError.http(status: status, body: nil).isRetryable)
        }
        #expect(JoryioTransportError.http(status: 503, body: "x").description == "HTTP 503")
    }
}
