import Foundation
import Joryio
import JoryioCore
import JoryioTestLanes
import JoryioTesting
import Testing

/// The consent × opt-out matrix (CONSENT-18) end to end: what reaches the sandbox over libcurl, for
/// calls made before and after `initialize()`, including a denial stored by an earlier launch, and
/// a push token's registration (CONSENT-16).
@Suite("Consent and opt-out against the sandbox", .tags(.sandbox))
struct SandboxPrivacyTests {
    enum Consent: String, CaseIterable, Sendable {
        case unset, pending, granted, denied, storedDenial
    }

    enum OptOut: String, CaseIterable, Sendable {
        case optedIn, configOptOut, preInitOptOut, preInitOptInOverConfig
    }

    static let pushToken = Data(repeating: 0x5a, count: 32)
    static let features = FeatureCatalog.joryio(push: NoPushPlatform(), environment: .production, bundleId: nil)

    // CONSENT-5, CONSENT-13, OPTOUT-1, OPTOUT-2: nothing collected leaves; the opt-out record and withdrawals do.
    @Test(arguments: Consent.allCases, OptOut.allCases)
    func whatIsSent(consent: Consent, optOut: OptOut) async throws {
        let rig = try await SandboxRig()
        defer { rig.tearDown() }
        if consent == .storedDenial {
            let earlier = rig.launch()
            earlier.joryio.updateConsent(.denied)
            await rig.settle(earlier)
            earlier.crash()
        }
        var config = JoryioConfig()
        switch consent {
        case .pending: config.trackingConsent = .pending
        case .granted: config.trackingConsent = .granted
        case .denied: config.trackingConsent = .denied
        case .unset, .storedDenial: break
        }
        if optOut == .configOptOut || optOut == .preInitOptInOverConfig { config.optOut = true }
        // One call of each kind the matrix distinguishes, before and after initialize(): events,
        // attributes, identify, and a withdrawal (an unsubscribe).
        let sdk = rig.launch(config, features: Self.features) { joryio in
            if optOut == .preInitOptOut { joryio.optOut() }
            if optOut == .preInitOptInOverConfig { joryio.optIn() }
            joryio.identify("user-7")
            joryio.track("Before Start", properties: ["i": 0])
            joryio.setAttribute("plan", value: "pre")
            // A push token (PUSH-6, PUSH-8): registered only while collection is allowed.
            joryio.didRegisterForRemoteNotifications(deviceToken: Self.pushToken)
            joryio.reportPushDelivered("trk-matrix")
        }
        sdk.joryio.track("After Start", properties: ["i": 1])
        sdk.joryio.incrementAttribute("visits")
        sdk.joryio.setSubscription(channel: "email", status: "unsubscribed")
        sdk.joryio.trackPushClick(trackingId: "trk-matrix")
        sdk.joryio.flush()
        await rig.settle(sdk)

        let context = "\(consent) × \(optOut)"
        let optedOut = optOut == .configOptOut || optOut == .preInitOptOut
        let denied = consent == .denied || consent == .storedDenial
        func sent(_ path: String) async throws -> [SandboxServer.RecordedRequest] {
            try await rig.sandbox.requests(path: "/api/v1/" + path)
        }
        let received = try await rig.sandbox.events()
        // A withdrawal is sent in every state (SUB-6), with the id identify kept (IDENT-5).
        let unsubscribes = try await sent("subscriptions")
        #expect(!unsubscribes.isEmpty, "\(context): the unsubscribe is sent whatever the state")
        for request in unsubscribes {
            let body = request.body as? [String: Any]
            #expect(
                body?["status"] as? String == "unsubscribed" && body?["userId"] as? String == "user-7",
                "\(context)"
            )
        }
        // The opt-out record is sent when the opt-out changed, whatever the consent (OPTOUT-5).
        let records = try await sent("opt-out").compactMap { ($0.body as? [String: Any])?["optedOut"] as? Bool }
        #expect(Set(records) == (optedOut ? [true] : []), "\(context): opt-out records \(records)")
        let pushTokens = { () async throws -> [String] in
            let profile = try await rig.sandbox.profile(userId: "user-7")
            return ((profile?["pushTokens"] as? [[String: Any]]) ?? []).compactMap { $0["token"] as? String }
        }
        if optedOut || denied {
            #expect(received.isEmpty, "\(context): nothing collected may reach the server")
            #expect(try await sent("push/register").isEmpty, "\(context): no push registration (CONSENT-16)")
            #expect(try await sent("push/receipt").isEmpty, "\(context): no push receipt (PUSH-33)")
            #expect(try await sent("push/click").isEmpty, "\(context): no push click (PUSH-33)")
            #expect(try await sent("attributes").isEmpty, "\(context): attribute writes are dropped")
            #expect(try await sent("identify").isEmpty, "\(context): identify is kept on the device only")
            #expect(sdk.joryio.getQueueSize() == 0, "\(context)")
            #expect(sdk.joryio.pendingWrites.attributes == 0, "\(context)")
        } else {
            if consent == .pending {
                #expect(received.isEmpty, "\(context): nothing is sent while pending")
                #expect(try await sent("attributes").isEmpty, "\(context): held while pending")
                #expect(try await sent("identify").isEmpty, "\(context): held while pending")
                #expect(try await sent("push/register").isEmpty, "\(context): push waits for consent (PUSH-6)")
                #expect(try await sent("push/receipt").isEmpty, "\(context): receipts wait for consent")
                #expect(sdk.joryio.getQueueSize() == 2, "\(context): held on the device")
                #expect(sdk.joryio.pendingWrites.attributes == 2, "\(context): held on the device")
                sdk.joryio.updateConsent(.granted)
                #expect(
                    await rig.drive(sdk) { (try? await rig.sandbox.events().count) == 2 },
                    "\(context): released on grant"
                )
                await rig.settle(sdk)
            }
            #expect(try await rig.sandbox.events().count == 2, "\(context)")
            #expect(try await sent("identify").count == 1, "\(context)")
            let profile = try #require(try await rig.sandbox.profile(userId: "user-7"), "\(context)")
            #expect(profile.attributes["plan"] as? String == "pre", "\(context)")
            #expect(profile.attributes["visits"] as? Int == 1, "\(context)")
            #expect(profile.subscriptions == ["email": "unsubscribed"], "\(context)")
            #expect(try await pushTokens() == [String(repeating: "5a", count: 32)], "\(context): token registered")
            let reports = try await rig.sandbox.pushReports(trackingId: "trk-matrix")
            #expect(reports.receipts.count == 1 && reports.clicks.count == 1, "\(context): one receipt, one click")
        }
        // The push unregister is a withdrawal: it reaches the server in every state (DURABLE-13).
        sdk.joryio.unregisterPush()
        await rig.settle(sdk)
        #expect(
            try await rig.sandbox.pushUnregistered() == [String(repeating: "5a", count: 32)],
            "\(context): the unregister is sent whatever the state"
        )
        let delivered = try await rig.sandbox.events()
        #expect(delivered.allSatisfy { $0["userId"] as? String == "user-7" }, "\(context)")
        #expect(sdk.joryio.isUserOptedOut() == optedOut, "\(context)")
        let expectedConsent: TrackingConsent =
            denied ? .denied : (consent == .pending && optedOut ? .pending : .granted)  // pending was granted above
        #expect(sdk.joryio.getTrackingConsent() == expectedConsent, "\(context)")
        #expect(sdk.joryio.getUserId() == "user-7", "\(context): identify is always kept")
    }
}
