import Foundation
import Joryio
import JoryioCore
import JoryioTestLanes
import JoryioTesting
import Testing

/// Push receipts and clicks against the sandbox (protocol.md 5.11; PUSH-19, PUSH-33): the whole
/// `Joryio` product over real HTTP on 127.0.0.1, driven on virtual time.
@Suite("Push receipts and clicks against the sandbox", .tags(.sandbox))
struct SandboxPushReportTests {
    private func launch(_ rig: SandboxRig, _ config: JoryioConfig = JoryioConfig()) -> SandboxSDK {
        rig.launch(config, features: .joryio(push: FakePushPlatform()))
    }

    @Test("PUSH-19: a receipt and a click arrive once each, with the ids of the person and the device")
    func receiptAndClickArrive() async throws {
        let rig = try await SandboxRig()
        defer { rig.tearDown() }
        let sdk = self.launch(rig)
        sdk.joryio.identify("push-user")
        sdk.joryio.reportPushDelivered("trk_sandbox_1")
        sdk.joryio.trackPushClick(trackingId: "trk_sandbox_1")
        await rig.settle(sdk)

        let reports = try await rig.sandbox.pushReports(trackingId: "trk_sandbox_1")
        #expect(reports.receipts.count == 1)
        #expect(reports.clicks.count == 1)
        for report in reports.receipts + reports.clicks {
            #expect(report["trackingId"] as? String == "trk_sandbox_1")
            #expect(report["userId"] as? String == "push-user")
            #expect(report["anonymousId"] as? String == sdk.joryio.getAnonymousId())
            #expect((report["deviceId"] as? String)?.isEmpty == false)
            #expect((report["messageId"] as? String)?.isEmpty == false)
            #expect(report["timestamp"] is String)
            #expect(report["sentAt"] is String)
        }
        let statuses = try await rig.sandbox.requests(path: "/api/v1/push/*").map(\.status)
        #expect(statuses == [200, 200])
    }

    @Test("PUSH-33: while opted out no report reaches the server, nor after opting in again")
    func optedOutSendsNothing() async throws {
        let rig = try await SandboxRig()
        defer { rig.tearDown() }
        let sdk = self.launch(rig, JoryioConfig(optOut: true))
        sdk.joryio.reportPushDelivered("trk_out")
        sdk.joryio.trackPushClick(trackingId: "trk_out")
        await rig.settle(sdk)
        sdk.joryio.optIn()
        await rig.settle(sdk)

        let reports = try await rig.sandbox.pushReports()
        #expect(reports.receipts.isEmpty)
        #expect(reports.clicks.isEmpty)
        #expect(try await rig.sandbox.requests(path: "/api/v1/push/*").isEmpty)
    }

    @Test("HTTP 503 with Retry-After, then recovery: the receipt is recorded exactly once, same messageId")
    func serverErrorThenRecovery() async throws {
        let rig = try await SandboxRig()
        defer { rig.tearDown() }
        try await rig.sandbox.addFault(path: "/api/v1/push/receipt", count: 2, status: 503, retryAfter: "5")
        let sdk = self.launch(rig)
        let start = rig.time.now()
        sdk.joryio.reportPushDelivered("trk_retry")
        await rig.settle(sdk)

        let requests = try await rig.sandbox.requests(path: "/api/v1/push/receipt")
        #expect(requests.map(\.status) == [503, 503, 200])
        let sent = sdk.transport.sent.filter { $0.request.url.path.hasSuffix("/v1/push/receipt") }
        #expect(sent.count == 3)
        if sent.count == 3 {
            #expect(sent[1].virtualTime.timeIntervalSince(sent[0].virtualTime) >= 5, "never before Retry-After")
            #expect(sent[2].virtualTime.timeIntervalSince(sent[1].virtualTime) >= 5)
            #expect(sent[0].virtualTime.timeIntervalSince(start) < 1)
        }
        let receipts = try await rig.sandbox.pushReports(trackingId: "trk_retry").receipts
        #expect(receipts.count == 1)
        let ids = Set(sent.compactMap { $0.request.body.flatMap(JSONValue.parse)?["messageId"]?.stringValue })
        #expect(ids.count == 1, "the same messageId on every attempt")
        #expect(ids.first == receipts.first?["messageId"] as? String)
    }
}
