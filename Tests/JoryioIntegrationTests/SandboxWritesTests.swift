import Foundation
import Joryio
import JoryioCore
import JoryioTestLanes
import JoryioTesting
import Testing

/// Attributes and durable writes end to end over libcurl: the sandbox's *final profile* after
/// hostile sequences (issue 5).
@Suite("Attributes and durable writes against the sandbox", .tags(.sandbox))
struct SandboxWritesTests {
    @Test("An increment retried through timeouts is counted once")
    func incrementThroughTimeouts() async throws {
        let rig = try await SandboxRig()
        defer { rig.tearDown() }
        let sdk = rig.launch()
        // The server applies the first two attempts, then the connection drops before the answer.
        try await rig.sandbox.addFault(path: "/api/v1/attributes", count: 2, dropAfterProcessing: true)
        sdk.joryio.incrementAttribute("visits", by: 5)
        rig.time.runUntilIdle()
        sdk.joryio.incrementAttribute("visits", by: 2)  // waits for the request on the wire
        await rig.settle(sdk)

        let anonymousId = sdk.joryio.getAnonymousId()
        let profile = try #require(try await rig.sandbox.profile(anonymousId: anonymousId))
        #expect(profile.attributes["visits"] as? Int == 7, "each delta applied exactly once")
        let requests = try await rig.sandbox.requests(path: "/api/v1/attributes")
        #expect(requests.count == 4, "two attempts lost their answer, one replayed, then the second delta")
        let keys = requests.map { $0.header("idempotency-key") ?? "" }
        #expect(keys[0] == keys[1] && keys[1] == keys[2], "a retry reuses its idempotency key")
        #expect(keys[3] != keys[0])
        #expect(requests.map(\.operationIDs.count) == [1, 1, 1, 1])
    }

    @Test("A burst of 500 attribute calls arrives as a handful of requests with the right values")
    func burstOf500() async throws {
        let rig = try await SandboxRig()
        defer { rig.tearDown() }
        let sdk = rig.launch()
        sdk.joryio.identify("burst-user")
        var expected: [String: Int] = [:]
        var increments = 0
        for index in 0..<500 {
            switch index % 5 {
            case 0, 1, 2:
                sdk.joryio.setAttribute("k\(index % 20)", value: index)
                expected["k\(index % 20)"] = index
            case 3:
                sdk.joryio.incrementAttribute("count")
                increments += 1
            default:
                sdk.joryio.setAttributes(["k\(index % 20)": index, "ignored_nan": Double.nan])
                expected["k\(index % 20)"] = index
            }
        }
        await rig.settle(sdk)

        let requests = try await rig.sandbox.requests(path: "/api/v1/attributes")
        #expect((1...5).contains(requests.count), "\(requests.count) requests")
        #expect(requests.allSatisfy { $0.status == 200 })
        let profile = try #require(try await rig.sandbox.profile(userId: "burst-user"))
        var want: [String: Any] = expected
        want["count"] = increments
        #expect(profile.attributes.count == want.count)
        for (key, value) in expected {
            #expect(profile.attributes[key] as? Int == value, "\(key)")
        }
        #expect(profile.attributes["count"] as? Int == increments)
        #expect(sdk.messages(atLeast: .warning).filter { $0.contains("ignored_nan") }.count == 100)
    }

    // IDENT-3: identify, alias and subscribe made offline survive a restart and arrive in order
    @Test("DURABLE-2 / SUB-5: identify, alias and subscribe made offline survive a restart and arrive in order")
    func offlineRestartInOrder() async throws {
        let rig = try await SandboxRig()
        defer { rig.tearDown() }
        let refusing = try RefusingPort()
        let first = rig.launch(offlineTarget: refusing.url)
        first.joryio.identify("user-9")
        first.joryio.addAlias("loyalty_id", name: "L-12345")
        first.joryio.setSubscription(channel: "email", status: "subscribed")
        first.joryio.addToSubscriptionGroup("list_abc123", channel: "email")
        await rig.settle(first, virtualLimit: 120)
        #expect(try await rig.sandbox.requests(path: "/api/v1/*").isEmpty)
        first.crash()

        let second = rig.launch()
        await rig.settle(second)
        let paths = try await rig.sandbox.requests(path: "/api/v1/*").filter { $0.path != "/api/v1/events" }.map(\.path)
        #expect(paths == ["/api/v1/identify", "/api/v1/alias", "/api/v1/subscriptions", "/api/v1/subscriptions"])
        let profile = try #require(try await rig.sandbox.profile(userId: "user-9"))
        #expect(profile.aliases == ["loyalty_id": "L-12345"])
        #expect(profile.subscriptions == ["email": "subscribed"])
        #expect(profile.groups == ["email": ["list_abc123"]])
        #expect(
            try await rig.sandbox.profile(anonymousId: second.joryio.getAnonymousId())?.userId == "user-9",
            "the anonymous history joined the user"
        )
    }

    @Test("A user switch without reset sends the first user's pending writes with the first user's ids")
    func userSwitchWithoutReset() async throws {
        let rig = try await SandboxRig()
        defer { rig.tearDown() }
        let sdk = rig.launch()
        for path in ["/api/v1/attributes", "/api/v1/identify", "/api/v1/alias"] {
            try await rig.sandbox.addFault(path: path, count: -1, status: 503)
        }
        sdk.joryio.identify("alice")
        sdk.joryio.setAttributes(["plan": "gold", "seats": 3])
        sdk.joryio.incrementAttribute("logins")
        sdk.joryio.addAlias("crm_id", name: "A-1")
        await rig.settle(sdk, virtualLimit: 30)
        sdk.joryio.identify("bob")
        sdk.joryio.setAttribute("plan", value: "silver")
        sdk.joryio.addAlias("crm_id", name: "B-1")
        await rig.settle(sdk, virtualLimit: 30)
        try await rig.sandbox.clearFaults()
        sdk.joryio.applicationWillEnterForeground()
        await rig.settle(sdk)

        let alice = try #require(try await rig.sandbox.profile(userId: "alice"))
        let bob = try #require(try await rig.sandbox.profile(userId: "bob"))
        #expect(alice.attributes["plan"] as? String == "gold")
        #expect(alice.attributes["seats"] as? Int == 3)
        #expect(alice.attributes["logins"] as? Int == 1)
        #expect(alice.aliases == ["crm_id": "A-1"])
        #expect(bob.attributes["plan"] as? String == "silver")
        #expect(bob.attributes["seats"] == nil && bob.attributes["logins"] == nil)
        #expect(bob.aliases == ["crm_id": "B-1"])
        let delivered = try await rig.sandbox.requests(path: "/api/v1/attributes").filter { $0.status == 200 }
        for request in delivered {
            let body = request.body as? [String: Any]
            let keys = (body?["operations"] as? [[String: Any]] ?? []).compactMap { $0["key"] as? String }
            let user = body?["userId"] as? String
            #expect(user == (keys.contains("seats") || keys.contains("logins") ? "alice" : user))
            if user == "bob" { #expect(keys == ["plan"]) }
        }
    }

    // OPTOUT-7: the opt-out is a record on the profile (tracking_opted_out), not an enforcement.
    @Test("SUB-7: Unsubscribes are withdrawals: delivered while opted out; sign-ups are not")
    func withdrawalsWhileOptedOut() async throws {
        let rig = try await SandboxRig()
        defer { rig.tearDown() }
        let sdk = rig.launch()
        sdk.joryio.identify("carol")
        sdk.joryio.setSubscription(channel: "sms", status: "subscribed")
        await rig.settle(sdk)
        sdk.joryio.optOut()
        sdk.joryio.setSubscription(channel: "sms", status: "unsubscribed")
        sdk.joryio.setSubscription(channel: "email", status: "subscribed")
        sdk.joryio.addToSubscriptionGroup("news", channel: "email")
        sdk.joryio.setAttribute("plan", value: "dropped")
        await rig.settle(sdk)

        let profile = try #require(try await rig.sandbox.profile(userId: "carol"))
        #expect(profile.subscriptions == ["sms": "unsubscribed"])
        #expect(profile.groups.isEmpty)
        #expect(profile.attributes["tracking_opted_out"] as? Bool == true)
        #expect(profile.attributes["plan"] == nil)
    }

    @Test("Lengths at the limit in code points are what the server accepts; one code point more never leaves")
    func codePointLimitsAgreeWithTheServer() async throws {
        let rig = try await SandboxRig()
        defer { rig.tearDown() }
        let sdk = rig.launch()
        // "é" as e + U+0301 (2 code points, 1 grapheme); a ZWJ family (5 code points, 1 grapheme).
        let accent = "e\u{301}"
        let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}"
        let key = String(repeating: accent, count: 127) + "x"  // 255 code points, 128 graphemes
        let tooLongKey = String(repeating: accent, count: 128)  // 256 code points, 128 graphemes
        let name = String(repeating: family, count: 51)  // 255 code points
        let group = String(repeating: accent, count: 64)  // 128 code points
        sdk.joryio.identify("dora")
        sdk.joryio.setAttributes([key: 1, tooLongKey: 2])
        sdk.joryio.addAlias("crm_id", name: name)
        sdk.joryio.addAlias("erp_id", name: name + "x")
        sdk.joryio.addToSubscriptionGroup(group, channel: "email")
        sdk.joryio.addToSubscriptionGroup(group + "x", channel: "email")
        await rig.settle(sdk)

        let profile = try #require(try await rig.sandbox.profile(userId: "dora"))
        #expect(profile.attributes.keys.map { $0.unicodeScalars.count } == [255])
        #expect(profile.aliases.mapValues { $0.unicodeScalars.count } == ["crm_id": 255])
        #expect(profile.groups["email"]?.map { $0.unicodeScalars.count } == [128])
        let refused = try await rig.sandbox.requests().filter { ($0.status ?? 0) >= 400 }
        #expect(refused.isEmpty, "the server refused nothing: \(refused.map(\.path))")
        #expect(sdk.messages(atLeast: .warning).count == 3, "one warning per call refused on the device")
    }
}

extension Dictionary where Key == String, Value == Any {
    /// A sandbox profile's computed attributes.
    var attributes: [String: Any] { self["attributes"] as? [String: Any] ?? [:] }
    /// A sandbox profile's aliases.
    var aliases: [String: String] { self["aliases"] as? [String: String] ?? [:] }
    /// A sandbox profile's channel subscriptions.
    var subscriptions: [String: String] { self["subscriptions"] as? [String: String] ?? [:] }
    /// A sandbox profile's groups per channel.
    var groups: [String: [String]] { self["groups"] as? [String: [String]] ?? [:] }
    /// A sandbox profile's user id.
    var userId: String? { self["userId"] as? String }
}

extension SandboxServer.RecordedRequest {
    /// The operation ids of an attribute request.
    var operationIDs: [String] {
        ((self.body as? [String: Any])?["operations"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }
}
