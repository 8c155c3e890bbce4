import Foundation
import Joryio
import JoryioCore
import JoryioTesting
import Testing

/// 2xx answers that are not the protocol's success shape (a gateway, a proxy, a captive portal, a
/// server that is not Joryio's): nothing is deleted, the channel logs it once, not once per retry,
/// and retries with backoff until a real success arrives (issue 12, defect 4; BATCH-9, DURABLE-9).
@Suite struct UnconfirmedAnswerTests {
    /// Answers that look like a success to a lenient client, and the words the one log line names.
    static let answers: [(status: Int, body: String, contentType: String)] = [
        (200, "{}", "application/json"),
        (200, #"{"success":"true"}"#, "application/json"),
        (206, #"{"success":true,"accepted":3,"duplicates":0,"applied":1}"#, "application/json"),
        (207, #"<?xml version="1.0"?><multistatus xmlns="DAV:"/>"#, "application/xml"),
        (204, "", "application/json"),
        (200, "<html><body>Sign in to Wi-Fi</body></html>", "text/html"),
        (200, "", "application/json"),
    ]

    private static func response(
        _ status: Int,
        _ body: String,
        _ contentType: String
    ) -> Result<
        HTTPResponse, TransportError
    > {
        .success(HTTPResponse(status: status, headers: ["Content-Type": contentType], body: Data(body.utf8)))
    }

    /// Warnings and errors that say an answer was not a confirmation.
    private func unconfirmedLines(_ sdk: TestSDK) -> [String] {
        sdk.messages(atLeast: .warning).filter { $0.contains("not confirm") || $0.contains("failed") }
    }

    @Test(
        "events: kept through every unclear 2xx, one log line, backoff 1, 2, 4 s, then delivered once",
        arguments: answers
    )
    func events(status: Int, body: String, contentType: String) throws {
        let transport = RespondingTransport { _ in Self.response(status, body, contentType) }
        let sdk = TestSDK(transport: transport)
        sdk.start(config: JoryioConfig(maxRetries: 3, retryBackoffMs: 1000))
        sdk.track(["a", "b", "c"])
        sdk.joryio.flush()
        sdk.scheduler.runUntilIdle()
        #expect(transport.requests.count == 1)
        #expect(sdk.joryio.getQueueSize() == 3, "nothing is deleted on an unclear answer")

        sdk.advance(to: 0.999)
        #expect(transport.requests.count == 1, "backoff, not a tight loop")
        sdk.advance(to: 60)
        #expect(transport.requests.count == 4, "retries at 1, 3 and 7 s (maxRetries 3)")
        #expect(Set(transport.requests.map(\.eventNames)) == [["a", "b", "c"]])
        #expect(sdk.joryio.getQueueSize() == 3)
        let lines = self.unconfirmedLines(sdk)
        #expect(lines.count == 1, "logged once, not once per retry: \(lines)")
        #expect(lines.first?.contains("HTTP \(status)") == true, "\(lines)")
        #expect(lines.first?.contains("3 events") == true, "\(lines)")
        guard case .server(let message?) = sdk.joryio.lastTransportError else {
            Issue.record("lastTransportError is \(String(describing: sdk.joryio.lastTransportError))")
            return
        }
        #expect(!message.isEmpty)

        // A real success delivers them once and clears the error; a later unclear answer is logged again.
        transport.answer { _ in .success(.ok) }
        sdk.joryio.flush()
        sdk.scheduler.runUntilIdle()
        #expect(sdk.joryio.getQueueSize() == 0)
        #expect(sdk.joryio.lastTransportError == nil)
        #expect(transport.requests.last?.eventNames == ["a", "b", "c"])
        transport.answer { _ in Self.response(status, body, contentType) }
        sdk.track(["d"])
        sdk.joryio.flush()
        sdk.scheduler.runUntilIdle()
        #expect(sdk.joryio.getQueueSize() == 1)
        #expect(self.unconfirmedLines(sdk).count == 2, "a new streak is reported again")
    }

    @Test("events: an answer whose rejectedIndices do not fit the batch deletes nothing (BATCH-8)")
    func eventsWithMisfittingIndices() {
        let transport = RespondingTransport { _ in
            .success(.json(200, #"{"success":true,"accepted":1,"duplicates":0,"rejectedIndices":[0,1,7]}"#))
        }
        let sdk = TestSDK(transport: transport)
        sdk.start()
        sdk.track(["a", "b"])
        sdk.joryio.flush()
        sdk.advance(to: 60)
        #expect(sdk.joryio.getQueueSize() == 2)
        #expect(transport.requests.count == 4)
        #expect(self.unconfirmedLines(sdk).count == 1)
        #expect(!sdk.messages(atLeast: .warning).contains { $0.contains("dropped") })
    }

    @Test(
        "attributes: kept through every unclear 2xx, one log line, then confirmed once",
        arguments: answers
    )
    func attributes(status: Int, body: String, contentType: String) {
        let transport = RespondingTransport { _ in Self.response(status, body, contentType) }
        let sdk = TestSDK(transport: transport)
        sdk.start(config: JoryioConfig(maxRetries: 3, retryBackoffMs: 1000))
        sdk.joryio.setAttribute("plan", value: "pro")
        sdk.advance(to: 120)
        let attempts = transport.requests.filter { $0.url.path.hasSuffix("/v1/attributes") }
        #expect(attempts.count == 4, "the first try and 3 retries with backoff")
        let ids = Set(attempts.map { $0.json?["operations"]?.arrayValue?.first?["id"] })
        #expect(ids.count == 1, "the same write every time")
        let lines = self.unconfirmedLines(sdk)
        #expect(lines.count == 1, "logged once, not once per retry: \(lines)")
        #expect(lines.first?.contains("HTTP \(status)") == true, "\(lines)")

        transport.answer { _ in .success(.ok) }
        sdk.joryio.applicationDidEnterBackground()
        sdk.joryio.setAttribute("seen", value: true)
        sdk.advance(to: 600)
        let confirmed = transport.requests.filter { $0.url.path.hasSuffix("/v1/attributes") }
        #expect(confirmed.count > attempts.count)
        let keys = confirmed.dropFirst(attempts.count).flatMap { $0.json?["operations"]?.arrayValue ?? [] }
            .compactMap { $0["key"]?.stringValue }
        #expect(keys.contains("plan"), "the kept write is sent again and confirmed")
        let after = transport.requests.count
        sdk.advance(to: 1200)
        #expect(transport.requests.count == after, "confirmed writes are gone")
        #expect(sdk.joryio.lastTransportError == nil)
    }

    @Test(
        "durable writes: an unclear 2xx is never counted toward dropping the write (DURABLE-8, DURABLE-9)",
        arguments: answers
    )
    func durable(status: Int, body: String, contentType: String) {
        let transport = RespondingTransport { _ in Self.response(status, body, contentType) }
        let sdk = TestSDK(transport: transport)
        sdk.start(config: JoryioConfig(maxRetries: 15, retryBackoffMs: 1000))
        sdk.joryio.addAlias("crm_id", name: "C-1042")
        sdk.advance(to: 3 * 3600)
        let attempts = transport.requests.filter { $0.url.path.hasSuffix("/v1/alias") }
        #expect(attempts.count == 16, "the first try and 15 retries, more than the 10 counted retries")
        #expect(!sdk.messages(atLeast: .warning).contains { $0.contains("dropped") })
        let lines = self.unconfirmedLines(sdk)
        #expect(lines.count == 1, "logged once, not once per retry: \(lines)")
        #expect(lines.first?.contains("HTTP \(status)") == true, "\(lines)")

        transport.answer { _ in .success(.ok) }
        sdk.joryio.applicationDidEnterBackground()
        sdk.joryio.addAlias("loyalty_id", name: "L-1")
        sdk.advance(to: 4 * 3600)
        let names = transport.requests.filter { $0.url.path.hasSuffix("/v1/alias") }.dropFirst(attempts.count)
            .compactMap { $0.json?["name"]?.stringValue }
        #expect(names.first == "C-1042", "the kept write goes first, then the new one")
        #expect(names.last == "L-1")
        let after = transport.requests.count
        sdk.advance(to: 5 * 3600)
        #expect(transport.requests.count == after)
    }
}
