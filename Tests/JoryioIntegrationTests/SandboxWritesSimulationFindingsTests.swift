import Foundation
import Joryio
import JoryioCore
import JoryioTestLanes
import JoryioTesting
import Testing

/// Cases the writes simulation (WritesSimulationTests.swift) keeps out of its model, probed one by one.
/// Each test pins an SDK bug the simulation found (all fixed), or a decision it made visible.
@Suite("Writes simulation findings", .tags(.sandbox))
struct SandboxWritesSimulationFindingsTests {
    @Test("A user id identified while denied is identified when a launch's config grants consent (IDENT-5)")
    func keptIdentifyAfterGrantAtLaunch() async throws {
        let rig = try await SandboxRig()
        defer { rig.tearDown() }
        let first = rig.launch()
        let anonymousId = first.joryio.getAnonymousId()
        first.joryio.setAttribute("plan", value: "pro")
        await rig.settle(first)
        first.joryio.updateConsent(.denied)
        first.joryio.identify("kept-user")
        await rig.settle(first)
        first.crash()

        var config = JoryioConfig()
        config.trackingConsent = .granted
        let second = rig.launch(config)
        second.joryio.setAttribute("level", value: 2)
        await rig.settle(second)
        let profile = try #require(try await rig.sandbox.profile(userId: "kept-user"))
        #expect(profile.attributes["level"] as? Int == 2)
        #expect(
            try await rig.sandbox.profile(anonymousId: anonymousId)?.userId == "kept-user",
            "the kept identify joined the anonymous history"
        )
    }

    @Test("An unsubscribe waiting offline survives a sign-up made while pending that a denial then drops")
    func withdrawalReplacedByDroppedSignUp() async throws {
        let rig = try await SandboxRig()
        defer { rig.tearDown() }
        let refusing = try RefusingPort()
        let sdk = rig.launch()
        sdk.joryio.identify("dana")
        sdk.joryio.setSubscription(channel: "email", status: "subscribed")
        await rig.settle(sdk)
        sdk.joryio.updateConsent(.pending)
        sdk.transport.target = refusing.url
        sdk.joryio.setSubscription(channel: "email", status: "unsubscribed")  // a withdrawal: goes whatever the consent
        rig.time.runUntilIdle()
        _ = rig.time.advance(by: 0.01)
        sdk.joryio.setSubscription(channel: "email", status: "subscribed")  // held while pending
        rig.time.runUntilIdle()
        _ = rig.time.advance(by: 0.01)
        sdk.transport.target = nil
        await rig.settle(sdk)
        sdk.joryio.updateConsent(.denied)  // drops the held sign-up (DURABLE-12)
        await rig.settle(sdk)
        let profile = try #require(try await rig.sandbox.profile(userId: "dana"))
        #expect(
            profile.subscriptions == ["email": "unsubscribed"],
            "the withdrawal was made and must be delivered (SUB-6)"
        )
    }

    @Test("A subscription change made anonymously offline reaches the person after identify (DURABLE-5)")
    func anonymousSubscriptionThenIdentify() async throws {
        let rig = try await SandboxRig()
        defer { rig.tearDown() }
        let refusing = try RefusingPort()
        let sdk = rig.launch()
        let anonymousId = sdk.joryio.getAnonymousId()
        sdk.joryio.setAttribute("plan", value: "free")  // the anonymous profile exists
        await rig.settle(sdk)
        #expect(try await rig.sandbox.profile(anonymousId: anonymousId) != nil)
        sdk.transport.target = refusing.url
        sdk.joryio.setSubscription(channel: "sms", status: "subscribed")
        rig.time.runUntilIdle()
        _ = rig.time.advance(by: 0.01)
        sdk.joryio.identify("erin")
        rig.time.runUntilIdle()
        sdk.transport.target = nil
        sdk.joryio.applicationWillEnterForeground()
        for _ in 0..<3 {  // the channel stops after failures in a row: give it triggers
            sdk.joryio.applicationWillEnterForeground()
            await rig.settle(sdk)
        }
        #expect(sdk.joryio.pendingWrites == (0, 0))
        let erin = try #require(try await rig.sandbox.profile(userId: "erin"), "the identify arrives in the end")
        #expect(try await rig.sandbox.profile(anonymousId: anonymousId)?.userId == "erin")
        let notFound = try await rig.sandbox.requests(path: "/api/v1/subscriptions").filter { $0.status == 404 }
        #expect(erin.subscriptions == ["sms": "subscribed"], "\(notFound.count) answers of 404")
    }

    @Test("Fractional increments compacted into an integral delta arrive as that whole number")
    func compactedFractionalIncrements() async throws {
        let rig = try await SandboxRig()
        defer { rig.tearDown() }
        var config = JoryioConfig()
        config.trackingConsent = .pending  // held: the two increments are compacted into one write
        let sdk = rig.launch(config)
        sdk.joryio.identify("fran")
        sdk.joryio.incrementAttribute("score", by: 0.5)
        rig.time.runUntilIdle()
        _ = rig.time.advance(by: 0.01)
        sdk.joryio.incrementAttribute("score", by: 1.5)
        rig.time.runUntilIdle()
        sdk.joryio.updateConsent(.granted)
        await rig.settle(sdk)
        let profile = try #require(try await rig.sandbox.profile(userId: "fran"))
        let score = try #require(profile.attributes["score"] as? NSNumber)
        #expect(score.doubleValue == 2)
        // Decision (docs/decisions.md): an integral delta travels as a JSON integer, also when it is
        // the sum of compacted fractional deltas, so the server stores the same number as the integer 2.
        #expect(score.doubleValue == 2.0, "0.5 + 1.5")
    }

    @Test(
        "A user id kept while opted out is identified on grant, also across a launch while pending (IDENT-5)",
        arguments: [false, true]
    )
    func keptIdentifyAcrossPendingLaunch(restart: Bool) async throws {
        let rig = try await SandboxRig()
        defer { rig.tearDown() }
        var sdk = rig.launch()
        sdk.joryio.optOut()
        let anonymousId = sdk.joryio.getAnonymousId()
        sdk.joryio.identify("gil")  // kept on the device only
        sdk.joryio.updateConsent(.pending)
        sdk.joryio.optIn()  // still not allowed: consent is pending
        await rig.settle(sdk)
        if restart {
            sdk.crash()
            var config = JoryioConfig()
            config.trackingConsent = .pending  // the consent manager still has no answer
            sdk = rig.launch(config)
        }
        sdk.joryio.updateConsent(.denied)
        sdk.joryio.updateConsent(.granted)  // tracking allowed again: the kept identify runs
        await rig.settle(sdk)
        let linked = try await rig.sandbox.profile(anonymousId: anonymousId)?.userId
        guard restart else {
            #expect(linked == "gil", "without a restart the kept identify runs on grant")
            return
        }
        #expect(linked == "gil", "the same calls with a restart in between")
    }

    @Test(
        "After a launch while pending, a user switch before the grant joins the anonymous id to the new user (IDENT-5)"
    )
    func keptIdentifyThenSwitchAcrossPendingLaunch() async throws {
        let rig = try await SandboxRig()
        defer { rig.tearDown() }
        let first = rig.launch()
        first.joryio.optOut()
        let anonymousId = first.joryio.getAnonymousId()
        first.joryio.identify("old-user")  // kept on the device only
        first.joryio.updateConsent(.pending)
        first.joryio.optIn()
        await rig.settle(first)
        first.crash()
        var config = JoryioConfig()
        config.trackingConsent = .pending
        let second = rig.launch(config)
        second.joryio.identify("new-user")  // held while pending; replaces the kept id
        second.joryio.updateConsent(.granted)
        await rig.settle(second)
        let linked = try await rig.sandbox.profile(anonymousId: anonymousId)?.userId
        #expect(linked == "new-user")
    }
}
