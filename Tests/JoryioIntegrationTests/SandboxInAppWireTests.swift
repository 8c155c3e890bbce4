import Foundation
import JoryioCore
import JoryioInApp
import JoryioKit
import JoryioTestLanes
import JoryioTesting
import JoryioTransport
import Testing

/// The in-app wire against the sandbox over libcurl (protocol.md, "In-app messages"): a campaign
/// made through the control API comes back from a real sync, the SDK's decoder reads it, and the
/// SDK's report bodies meet the sandbox's token checks (INAPP-1 … INAPP-5, INAPP-63).
@Suite("In-app wire against the sandbox", .tags(.sandbox))
struct SandboxInAppWireTests {
    private let identity = InAppIdentity(userId: "inapp-user", anonymousId: "anon-inapp", deviceId: "device-1")

    /// A sandbox, a libcurl transport and the SDK's request builder.
    private struct Peer {
        let sandbox: SandboxServer
        let transport = CurlTransport(workerCount: 1)
        let builder: InAppRequestBuilder

        init(_ sandbox: SandboxServer) {
            self.sandbox = sandbox
            self.builder = InAppRequestBuilder(
                apiHost: sandbox.apiHost,
                sdkKey: "jry_sdk_ios_inapp",
                userAgent: "joryio-swift/test",
                timeout: 10,
                gzip: { _ in nil }
            )
        }

        func send(_ request: HTTPRequest) async -> Result<HTTPResponse, TransportError> {
            await withCheckedContinuation { continuation in
                self.transport.send(request) { continuation.resume(returning: $0) }
            }
        }

        func sync(_ identity: InAppIdentity) async -> InAppSyncOutcome {
            let request = self.builder.sync(InAppSyncRequest(identity: identity, appVersion: "1.0"), sentAt: Date())
            return InAppSyncOutcome.classify(await self.send(request), now: Date())
        }

        func track(_ report: InAppTrackReport) async -> InAppReportOutcome {
            InAppReportOutcome.classify(await self.send(self.builder.track(report, sentAt: Date())), now: Date())
        }

        func form(_ submission: InAppFormSubmission) async -> InAppReportOutcome {
            InAppReportOutcome.classify(await self.send(self.builder.form(submission, sentAt: Date())), now: Date())
        }

        func stop() {
            self.transport.close()
            self.sandbox.stop()
        }
    }

    private func start() async throws -> Peer {
        Peer(try await startSandbox())
    }

    private static func saleCampaign() -> [String: Any] {
        [
            "id": "spring-sale",
            "type": "modal",
            "priority": 2,
            "displayDelay": 1,
            "content": [
                "native": [
                    "headline": "Spring sale", "text": "20% off", "imageUrl": "https://cdn.example.com/sale.png",
                    "buttons": [["id": "shop", "label": "Shop", "url": "myshop://sale"]],
                ]
            ],
            "triggers": [["type": "event", "name": "Product Viewed"]],
            "caps": ["maxImpressions": 2, "window": 86_400],
        ]
    }

    private func report(
        _ messageId: String,
        _ campaign: InAppCampaign,
        _ action: InAppReportAction = .displayed,
        token: String?? = .none
    ) -> InAppTrackReport {
        InAppTrackReport(
            messageId: messageId,
            campaignId: campaign.id,
            action: action,
            elementId: action == .clicked ? "shop" : nil,
            deliveryToken: token ?? campaign.message.deliveryToken,
            timestamp: Date(),
            identity: self.identity
        )
    }

    private func synced(_ peer: Peer) async throws -> InAppSyncAnswer {
        guard case .synced(let answer) = await peer.sync(self.identity) else {
            Issue.record("the sync failed")
            throw SandboxError("no sync answer")
        }
        return answer
    }

    @Test("INAPP-1, INAPP-2, INAPP-63: sync → decode → every action reported with its token, recorded once")
    func syncAndReport() async throws {
        let peer = try await self.start()
        defer { peer.stop() }
        try await peer.sandbox.setInAppCampaign(Self.saleCampaign())
        try await peer.sandbox.setInAppCampaign(
            ["id": "someone-else", "type": "banner", "content": ["html": "<p>x</p>"]],
            userId: "other-user"
        )
        try await peer.sandbox.setInAppContactRules(["maxImpressions": 3, "window": 3_600])

        let answer = try await self.synced(peer)
        #expect(answer.problems.isEmpty)
        #expect(answer.contactRules == InAppContactRules(maxImpressions: 3, window: 3_600))
        let campaign = try #require(answer.campaigns.first)
        #expect(answer.campaigns.map(\.id) == ["spring-sale"])
        #expect(campaign.triggers == [.event(name: "Product Viewed")])
        #expect(campaign.caps == InAppCaps(maxImpressions: 2, window: 86_400))
        #expect(campaign.priority == 2 && campaign.message.displayDelay == 1)
        let token = try #require(campaign.message.deliveryToken)
        let expiry = try #require(campaign.message.deliveryTokenExpiresAt)
        #expect(abs(expiry.timeIntervalSinceNow - 600) < 30, "the sandbox's tokens live 10 minutes")

        for (index, action) in InAppReportAction.allCases.enumerated() {
            #expect(await peer.track(self.report("m\(index)", campaign, action)) == .delivered)
        }
        #expect(await peer.track(self.report("m0", campaign)) == .delivered, "a resend is a duplicate, still done")
        let values = InAppFormSubmission.values(from: ["email": "a@example.com", "age": 30]).values
        let submission = InAppFormSubmission(
            messageId: "f1",
            campaignId: campaign.id,
            values: values,
            deliveryToken: token,
            timestamp: Date(),
            identity: self.identity
        )
        #expect(await peer.form(submission) == .delivered)

        let recorded = try await peer.sandbox.inAppReports(campaignId: "spring-sale")
        #expect(recorded.reports.count == 4)
        #expect(
            recorded.reports.allSatisfy { $0["deliveryToken"] as? String == token && $0["token"] as? String == "valid" }
        )
        #expect(
            recorded.impressions["spring-sale"] == [
                "displayed": 1, "clicked": 1, "dismissed": 1, "converted": 1, "forms": 1,
            ]
        )
        let sent = recorded.forms.first?["values"] as? [String: Any]
        #expect(sent?["email"] as? String == "a@example.com")
        #expect((sent?["age"] as? NSNumber)?.intValue == 30)
    }

    @Test("INAPP-4: a token-less report is accepted by default, dropped for good in required-token mode")
    func requiredTokenMode() async throws {
        let peer = try await self.start()
        defer { peer.stop() }
        try await peer.sandbox.setInAppCampaign(Self.saleCampaign())
        let campaign = try #require(try await self.synced(peer).campaigns.first)

        #expect(await peer.track(self.report("pre-token", campaign, token: .some(nil))) == .delivered)
        try await peer.sandbox.configureInApp(requireDeliveryToken: true)
        #expect(
            await peer.track(self.report("refused", campaign, token: .some(nil)))
                == .rejected(status: 400, error: InAppWire.deliveryTokenRequired)
        )
        #expect(await peer.track(self.report("with-token", campaign)) == .delivered)
        let reports = try await peer.sandbox.inAppReports().reports
        #expect(reports.map { $0["messageId"] as? String } == ["pre-token", "with-token"])
        #expect(reports.map { $0["token"] as? String } == ["missing", "valid"])
    }

    @Test("INAPP-5, INAPP-7: forged and expired tokens are refused in both modes; a new sync brings a fresh token")
    func forgedAndExpired() async throws {
        let peer = try await self.start()
        defer { peer.stop() }
        try await peer.sandbox.setInAppCampaign(Self.saleCampaign())
        let campaign = try #require(try await self.synced(peer).campaigns.first)
        let token = try #require(campaign.message.deliveryToken)
        let forged = String(token.dropLast()) + (token.hasSuffix("A") ? "B" : "A")

        for required in [false, true] {
            try await peer.sandbox.configureInApp(requireDeliveryToken: required)
            #expect(
                await peer.track(self.report("forged-\(required)", campaign, token: .some(forged)))
                    == .rejected(status: 422, error: "invalid_delivery_token")
            )
        }
        try await peer.sandbox.expireInAppTokens(campaignId: "spring-sale")
        #expect(
            await peer.track(self.report("expired", campaign))
                == .rejected(status: 422, error: "invalid_delivery_token")
        )

        let fresh = try #require(try await self.synced(peer).campaigns.first)
        #expect(fresh.message.deliveryToken != token)
        #expect(await peer.track(self.report("expired", fresh)) == .delivered, "the same report, refreshed, goes")
        #expect(try await peer.sandbox.inAppReports().reports.map { $0["messageId"] as? String } == ["expired"])
    }
}
