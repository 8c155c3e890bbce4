import Foundation
import Joryio
import JoryioCore
import JoryioTestLanes
import JoryioTesting
import Testing

/// 2xx answers that are not the protocol's success shape, scripted at the sandbox and received over
/// libcurl: nothing is deleted, one log line per streak, retries with backoff, and in the end every
/// item arrives exactly once, also when the server had applied the request behind the rewritten
/// answer (issue 12, defect 4).
@Suite("Unconfirmed 2xx answers against the sandbox", .tags(.sandbox))
struct SandboxUnconfirmedAnswerTests {
    /// A fault rule answering `status` with `body` (JSON) or `bodyText` (verbatim), before or after
    /// the sandbox processed the request.
    struct Answer: Sendable, CustomTestStringConvertible {
        var status: Int
        var body: String?
        var bodyText: String?
        var contentType: String?
        var afterProcessing: Bool

        var testDescription: String {
            "\(self.status) \(self.body ?? self.bodyText.map { "\"\($0)\"" } ?? "")"
                + (self.afterProcessing ? " after processing" : "")
        }

        func rule(path: String, count: Int) throws -> [String: Any] {
            var rule: [String: Any] = ["path": path, "count": count, "status": self.status]
            if let body = self.body {
                rule["body"] = try JSONSerialization.jsonObject(with: Data(body.utf8), options: .fragmentsAllowed)
            }
            rule["bodyText"] = self.bodyText
            rule["contentType"] = self.contentType
            if self.afterProcessing { rule["statusAfterProcessing"] = true }
            return rule
        }
    }

    static let answers: [Answer] = [
        Answer(status: 200, body: #"{"success":"true"}"#, afterProcessing: false),
        Answer(status: 200, body: "{}", afterProcessing: true),
        Answer(status: 206, body: #"{"success":true,"accepted":10,"duplicates":0}"#, afterProcessing: true),
        Answer(status: 207, bodyText: "<multistatus/>", contentType: "application/xml", afterProcessing: true),
        Answer(status: 200, bodyText: "<html>Sign in</html>", contentType: "text/html", afterProcessing: false),
        Answer(status: 200, bodyText: "", afterProcessing: true),
        Answer(status: 204, bodyText: "", afterProcessing: false),
    ]

    /// The warning lines that report an unconfirmed answer.
    private func reported(_ sdk: SandboxSDK) -> [String] {
        sdk.messages(atLeast: .warning).filter { $0.contains("did not confirm") }
    }

    @Test(
        "events: kept through 3 unclear answers, retried 1, 2 and 4 s apart, one log line, delivered once",
        arguments: answers
    )
    func events(answer: Answer) async throws {
        let rig = try await SandboxRig()
        defer { rig.tearDown() }
        try await rig.sandbox.addFault(rule: answer.rule(path: "/api/v1/events", count: 3))
        let sdk = rig.launch()
        for i in 0..<10 {
            sdk.joryio.track("Item Viewed", properties: ["i": i])
        }
        sdk.joryio.flush()
        let drained = await rig.drive(sdk) { sdk.isDrained }
        #expect(drained)

        let requests = try await rig.sandbox.eventRequests()
        #expect(requests.map(\.status) == [answer.status, answer.status, answer.status, 200])
        #expect(Set(requests.map(\.messageIDs)).count == 1, "the same 10 events every time")
        #expect(requests.first?.messageIDs.count == 10)
        let times = sdk.transport.sent.map(\.virtualTime)
        #expect(zip(times.dropFirst(), times).map { $0.timeIntervalSince($1) } == [1, 2, 4])
        let stored = try await rig.sandbox.events().compactMap { $0["messageId"] as? String }
        #expect(stored.count == 10 && Set(stored).count == 10, "every event stored exactly once")
        let lines = self.reported(sdk)
        #expect(lines.count == 1, "\(lines)")
        #expect(lines.first?.contains("HTTP \(answer.status)") == true, "\(lines)")
        #expect(sdk.joryio.lastTransportError == nil)
    }

    @Test("attributes: an increment answered unclearly after it was applied is counted once", arguments: answers)
    func attributes(answer: Answer) async throws {
        let rig = try await SandboxRig()
        defer { rig.tearDown() }
        try await rig.sandbox.addFault(rule: answer.rule(path: "/api/v1/attributes", count: 2))
        let sdk = rig.launch()
        sdk.joryio.incrementAttribute("visits", by: 5)
        await rig.settle(sdk)

        let requests = try await rig.sandbox.requests(path: "/api/v1/attributes")
        #expect(requests.map(\.status) == [answer.status, answer.status, 200])
        let profile = try #require(try await rig.sandbox.profile(anonymousId: sdk.joryio.getAnonymousId()))
        #expect(profile.attributes["visits"] as? Int == 5, "applied exactly once")
        #expect(self.reported(sdk).count == 1, "\(self.reported(sdk))")
        #expect(sdk.joryio.lastTransportError == nil)
    }

    @Test(
        "durable writes: 12 unclear answers (more than the 11 sends counted answers allow) never drop an alias",
        arguments: answers
    )
    func durable(answer: Answer) async throws {
        let rig = try await SandboxRig()
        defer { rig.tearDown() }
        try await rig.sandbox.addFault(rule: answer.rule(path: "/api/v1/alias", count: 12))
        let sdk = rig.launch(JoryioConfig(maxRetries: 20))
        sdk.joryio.identify("user-12")
        sdk.joryio.addAlias("crm_id", name: "C-1042")
        await rig.settle(sdk, virtualLimit: 4 * 3600)

        let requests = try await rig.sandbox.requests(path: "/api/v1/alias")
        #expect(requests.map(\.status) == Array(repeating: answer.status, count: 12) + [200])
        let profile = try #require(try await rig.sandbox.profile(userId: "user-12"))
        #expect(profile.aliases["crm_id"] == "C-1042")
        #expect(!sdk.messages(atLeast: .warning).contains { $0.contains("dropped") })
        #expect(self.reported(sdk).count == 1, "\(self.reported(sdk))")
    }
}
