import Foundation
import Joryio
import JoryioCore
import JoryioTesting
import Testing

/// Attributes, aliases, subscriptions and the durable identify through the public API, on virtual
/// time: what is sent, held, dropped and logged (ATTR, IDENT, SUB, DURABLE).
@Suite struct WritesTests {
    private func requests(_ transport: RecordingTransport, _ path: String) -> [HTTPRequest] {
        transport.requests.filter { $0.url.path.hasSuffix("/v1/" + path) }
    }

    private func operations(_ transport: RecordingTransport) -> [JSONValue] {
        self.requests(transport, "attributes").flatMap { $0.json?["operations"]?.arrayValue ?? [] }
    }

    @Test func attributeInputIsCheckedAndConverted() {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.start()
        let date = Date(timeIntervalSince1970: 1_700_000_000.25)
        sdk.joryio.setAttributes([
            "plan": "pro", "nickname": nil, "gone": NSNull(), "since": date, "bad": Double.nan, "": 1,
        ])
        sdk.joryio.setAttribute("tracking_opted_out", value: true)
        sdk.joryio.incrementAttribute("visits")
        sdk.joryio.incrementAttribute("spent", by: 99.5)
        sdk.joryio.incrementAttribute("broken", by: .infinity)
        sdk.joryio.unsetAttribute("")
        sdk.scheduler.runUntilIdle()
        sdk.advance(to: 5)

        let byKey = Dictionary(self.operations(transport).map { ($0["key"]?.stringValue ?? "", $0) }) { _, last in last
        }
        #expect(byKey["plan"]?["op"] == "set" && byKey["plan"]?["value"] == "pro")
        #expect(
            byKey["nickname"]?["op"] == "unset" && byKey["gone"]?["op"] == "unset",
            "nil and NSNull remove (ATTR-1)"
        )
        #expect(byKey["since"]?["value"] == "2023-11-14T22:13:20.250Z")
        #expect(
            byKey["visits"]?["op"] == "increment" && byKey["visits"]?["by"] == 1,
            "default step 1, an integer delta"
        )
        #expect(byKey["spent"]?["by"] == .double(99.5))
        #expect(Set(byKey.keys) == ["plan", "nickname", "gone", "since", "visits", "spent"])
        let warnings = sdk.messages(at: .warning)
        #expect(warnings.contains { $0.contains("bad") && $0.contains("non-finite") }, "ATTR-6")
        #expect(warnings.contains { $0.contains("setAttributes") && $0.contains("empty") }, "ATTR-5")
        #expect(warnings.contains { $0.contains("tracking_opted_out") && $0.contains("SDK itself") })
        #expect(warnings.contains { $0.contains("broken") && $0.contains("finite") })
        #expect(warnings.contains { $0.contains("unsetAttribute") && $0.contains("empty") })
    }

    @Test("IDENT-17: phone numbers are sent as given, never normalised (the server reads them)")
    func phoneNumbersAreSentAsGiven() {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.start()
        let numbers = ["phone": "+972501234567", "mobile": "050-123 4567", "fax": "00972 (50) 1234567"]
        sdk.joryio.setAttributes(numbers)
        sdk.scheduler.runUntilIdle()
        sdk.advance(to: 5)
        let operations = self.operations(transport)
        let sent = Dictionary(operations.map { ($0["key"]?.stringValue ?? "", $0["value"]) }) { _, last in last }
        #expect(sent == numbers.mapValues { JSONValue.string($0) })
        #expect(sdk.messages(atLeast: .warning).isEmpty)
    }

    @Test(
        "IDENT-12, IDENT-14, IDENT-1: an anonymous visitor's alias is theirs; the identify names that anonymous id"
    )
    func anAliasBeforeIdentifyIsTheAnonymousVisitors() {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.start()
        let anonymousId = sdk.joryio.getAnonymousId()
        sdk.joryio.addAlias("crm_id", name: "C-1")
        sdk.scheduler.runUntilIdle()
        sdk.advance(to: 5)
        sdk.joryio.identify("user-1")
        sdk.scheduler.runUntilIdle()
        sdk.advance(to: 10)
        #expect(transport.requests.map { $0.url.lastPathComponent } == ["alias", "identify"])
        let alias = self.requests(transport, "alias").first?.json
        #expect(alias?["anonymousId"]?.stringValue == anonymousId)
        #expect(alias?["userId"] == nil, "made before identify: the anonymous visitor's")
        #expect(alias?["label"] == "crm_id" && alias?["name"] == "C-1")
        // The identify joins that anonymous id (and the alias on it) to the user on the server.
        let identify = self.requests(transport, "identify").first?.json
        #expect(identify?["userId"] == "user-1")
        #expect(identify?["anonymousId"]?.stringValue == anonymousId)
    }

    @Test("SUB-2 / SUB-3: alias and subscription input is checked; a channel status, a group leave")
    func aliasAndSubscriptionInputIsChecked() {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.start()
        sdk.joryio.addAlias("Loyalty-ID", name: "L-1")
        sdk.joryio.addAlias("loyalty_id", name: "")
        sdk.joryio.setSubscription(channel: "fax", status: "subscribed")
        sdk.joryio.setSubscription(channel: "email", status: "maybe")
        sdk.joryio.addToSubscriptionGroup("", channel: "email")
        sdk.joryio.addAlias("loyalty_id", name: "L-12345")
        sdk.joryio.setSubscription(channel: "sms", status: "optedIn")
        sdk.joryio.removeFromSubscriptionGroup("list_abc123", channel: "email")
        sdk.scheduler.runUntilIdle()

        #expect(transport.requests.map { $0.url.lastPathComponent } == ["alias", "subscriptions", "subscriptions"])
        let alias = self.requests(transport, "alias").first?.json
        #expect(alias?["label"] == "loyalty_id" && alias?["name"] == "L-12345", "label first, value as name: (GAP-66)")
        let leave = self.requests(transport, "subscriptions").last?.json
        #expect(leave?["groupId"] == "list_abc123" && leave?["action"] == "leave" && leave?["channel"] == "email")
        let warnings = sdk.messages(at: .warning)
        #expect(warnings.filter { $0.contains("nothing sent") }.count == 5)
        #expect(warnings.contains { $0.contains("Loyalty-ID") && $0.contains("lowercase") })
        #expect(warnings.contains { $0.contains("fax") })
        #expect(warnings.contains { $0.contains("maybe") })
    }

    // OPTOUT-1, OPTOUT-2, IDENT-15: identify, attributes, aliases and sign-ups stop; withdrawals still go.
    @Test("SUB-1 / SUB-7: while opted out only withdrawals leave; sign-ups are dropped, no subscription changes")
    func whileOptedOutOnlyWithdrawalsLeave() {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.start()
        sdk.joryio.optOut()
        sdk.joryio.identify("user-1")
        sdk.joryio.setAttribute("plan", value: "pro")
        sdk.joryio.addAlias("crm_id", name: "C-1")
        sdk.joryio.setSubscription(channel: "email", status: "subscribed")
        sdk.joryio.addToSubscriptionGroup("news", channel: "email")
        sdk.joryio.setSubscription(channel: "sms", status: "unsubscribed")
        sdk.joryio.removeFromSubscriptionGroup("news", channel: "email")
        sdk.scheduler.runUntilIdle()
        sdk.advance(to: 60)

        #expect(transport.requests.map { $0.url.lastPathComponent } == ["opt-out", "subscriptions", "subscriptions"])
        #expect(
            transport.requests.first?.json?["userId"] == nil,
            "the opt-out record was made (and sent) before identify"
        )
        for request in self.requests(transport, "subscriptions") {
            #expect(request.json?["userId"] == "user-1", "withdrawals carry the id kept during opt-out (IDENT-5)")
        }
        #expect(sdk.joryio.pendingWrites == (0, 0))

        // optIn sends tracking_opted_out=false and the identify owed since (IDENT-5, OPTOUT-8).
        sdk.joryio.optIn()
        sdk.scheduler.runUntilIdle()
        #expect(transport.requests.map { $0.url.lastPathComponent }.suffix(2) == ["opt-out", "identify"])
        #expect(self.requests(transport, "opt-out").map { $0.json?["optedOut"] } == [true, false])
        #expect(self.requests(transport, "identify").first?.json?["userId"] == "user-1")
    }

    @Test("ATTR-2 / ATTR-4: setAttribute with nil or NSNull removes the attribute exactly like unsetAttribute")
    func nilValuesAndUnsetRemove() {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.start()
        sdk.joryio.setAttribute("nickname", value: nil)
        sdk.scheduler.runUntilIdle()
        sdk.joryio.setAttribute("gone", value: NSNull())
        sdk.joryio.unsetAttribute("plan")
        sdk.scheduler.runUntilIdle()
        sdk.advance(to: 5)

        #expect(self.requests(transport, "attributes").count == 2, "the lone write at once, the rest after 800 ms")
        let operations = self.operations(transport)
        #expect(
            operations.map { "\($0["op"]?.stringValue ?? "") \($0["key"]?.stringValue ?? "")" } == [
                "unset nickname", "unset gone", "unset plan",
            ]
        )
        #expect(operations.allSatisfy { $0["value"] == nil })
        #expect(sdk.messages(atLeast: .warning).isEmpty)
    }

    @Test(
        "ATTR-20: while opted out or denied every attribute write, increments and unsets included, is dropped",
        arguments: [true, false]
    )
    func attributeWritesDroppedWhileCollectionIsRefused(optedOut: Bool) {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.start()
        if optedOut { sdk.joryio.optOut() } else { sdk.joryio.updateConsent(.denied) }
        sdk.joryio.setAttributes(["plan": "pro", "nickname": nil])
        sdk.joryio.setAttribute("tier", value: 2)
        sdk.joryio.incrementAttribute("visits")
        sdk.joryio.incrementAttribute("spent", by: 9.5)
        sdk.joryio.unsetAttribute("old")
        sdk.scheduler.runUntilIdle()
        #expect(sdk.joryio.pendingWrites == (0, 0), "nothing is kept to be sent later")

        if optedOut { sdk.joryio.optIn() } else { sdk.joryio.updateConsent(.granted) }
        sdk.scheduler.runUntilIdle()
        sdk.advance(to: 60)
        #expect(self.requests(transport, "attributes").isEmpty, "never sent, not even after collection resumes")
    }

    @Test("SUB-4: a sign-up made while consent is pending waits on the device and is sent on grant")
    func signUpsWaitWhilePending() {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.start(config: JoryioConfig(trackingConsent: .pending))
        sdk.joryio.setSubscription(channel: "email", status: "subscribed")
        sdk.joryio.addToSubscriptionGroup("list_abc123", channel: "sms")
        sdk.scheduler.runUntilIdle()
        sdk.advance(to: 60)
        #expect(self.requests(transport, "subscriptions").isEmpty)
        #expect(sdk.joryio.pendingWrites == (0, 2))

        sdk.joryio.updateConsent(.granted)
        sdk.scheduler.runUntilIdle()
        let sent = self.requests(transport, "subscriptions").map(\.json)
        #expect(sent.map { $0?["channel"] } == ["email", "sms"])
        #expect(sent.first??["status"] == "subscribed")
        #expect(sent.last??["groupId"] == "list_abc123" && sent.last??["action"] == "join")
        #expect(sdk.joryio.pendingWrites == (0, 0))
    }

    @Test("SUB-3: every documented channel takes every documented status")
    func everyChannelTakesEveryStatus() {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.start()
        let channels = ["email", "sms", "whatsapp", "push", "viber"]
        let statuses = ["optedIn", "subscribed", "unsubscribed"]
        for channel in channels {
            for status in statuses {
                sdk.joryio.setSubscription(channel: channel, status: status)
                sdk.scheduler.runUntilIdle()
            }
        }
        let sent = self.requests(transport, "subscriptions").compactMap(\.json)
        let pairs = sent.map { "\($0["channel"]?.stringValue ?? "") \($0["status"]?.stringValue ?? "")" }
        #expect(pairs == channels.flatMap { channel in statuses.map { "\(channel) \($0)" } })
        #expect(sdk.messages(atLeast: .warning).isEmpty)
    }

    @Test func pendingHoldsWritesDenialDropsThemAndTheIdentifyIsOwed() {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.start(config: JoryioConfig(trackingConsent: .pending))
        sdk.joryio.identify("user-1")
        sdk.joryio.setAttribute("plan", value: "pro")
        sdk.joryio.addAlias("crm_id", name: "C-1")
        sdk.joryio.setSubscription(channel: "email", status: "unsubscribed")
        sdk.scheduler.runUntilIdle()
        sdk.advance(to: 60)
        #expect(
            transport.requests.map { $0.url.lastPathComponent } == ["subscriptions"],
            "only the withdrawal leaves (GAP-63)"
        )
        #expect(sdk.joryio.pendingWrites == (1, 2), "the attribute, identify and alias are held (ATTR-19)")

        sdk.joryio.updateConsent(.denied)
        sdk.scheduler.runUntilIdle()
        #expect(sdk.joryio.pendingWrites == (0, 0), "denial drops what was held (CONSENT-12)")
        sdk.joryio.updateConsent(.granted)
        sdk.scheduler.runUntilIdle()
        sdk.advance(to: 120)
        #expect(transport.requests.map { $0.url.lastPathComponent } == ["subscriptions", "identify"])
        #expect(self.operations(transport).isEmpty, "a dropped attribute write is never sent later")
    }

    /// What writes simulation seeds 60, 102, 141, 179, 196 and 294 run into: an identify held while
    /// pending is dropped by an opt-out or a denial (OPTOUT-4, CONSENT-4), but the user id stays on
    /// the device, so the identify is owed again and runs once collection is allowed (IDENT-5,
    /// OPTOUT-8), also when a later launch's config grants consent (CONSENT-17). Decision in
    /// docs/decisions.md (GAP-23).
    @Test(
        "A held identify dropped by an opt-out or a denial runs once collection is allowed",
        arguments: [false, true],
        [false, true]
    )
    func aHeldIdentifyDroppedByAStopIsOwed(optOut: Bool, restart: Bool) throws {
        try withTemporaryDirectory { directory in
            let transport = RecordingTransport()
            let first = TestSDK(transport: transport, storage: .sqlite(directory: directory))
            first.start(config: JoryioConfig(trackingConsent: .pending))
            let anonymousId = first.joryio.getAnonymousId()
            first.joryio.identify("user-1")  // held while pending (CONSENT-18)
            if optOut { first.joryio.optOut() } else { first.joryio.updateConsent(.denied) }
            first.scheduler.runUntilIdle()
            first.advance(to: 60)
            #expect(first.joryio.pendingWrites == (0, 0), "the held identify was dropped")
            #expect(self.requests(transport, "identify").isEmpty)

            var sdk = first
            if restart {
                sdk = TestSDK(transport: transport, storage: .sqlite(directory: directory))
                if optOut { sdk.joryio.optIn() }
                sdk.start(config: JoryioConfig(trackingConsent: .granted))  // lifts a denial (CONSENT-17)
            } else {
                if optOut { sdk.joryio.optIn() }  // still pending: nothing is sent yet
                sdk.scheduler.runUntilIdle()
                #expect(self.requests(transport, "identify").isEmpty)
                sdk.joryio.updateConsent(.granted)
                sdk.scheduler.runUntilIdle()
            }
            let identifies = self.requests(transport, "identify").map(\.json)
            #expect(identifies.map { $0?["userId"] } == ["user-1"])
            #expect(identifies.first??["anonymousId"]?.stringValue == anonymousId)
            #expect(sdk.joryio.getUserId() == "user-1")
        }
    }

    // IDENT-3, IDENT-15: identify and alias are durable writes kept across reset() until confirmed.
    @Test("DURABLE-2: reset() purges attribute writes but keeps durable writes, with the ids they were made with")
    func resetPurgesAttributeWritesButKeepsDurableWrites() {
        let transport = RecordingTransport(outcome: .failure(TransportError(.cannotConnect, "offline")))
        let sdk = TestSDK(transport: transport)
        sdk.start()
        sdk.joryio.identify("user-1")
        sdk.joryio.setAttribute("plan", value: "pro")
        sdk.joryio.addAlias("crm_id", name: "C-1")
        sdk.scheduler.runUntilIdle()
        #expect(sdk.joryio.pendingWrites == (1, 2))
        sdk.joryio.reset()
        sdk.scheduler.runUntilIdle()
        #expect(sdk.joryio.pendingWrites == (0, 2), "ATTR-15 purges; IDENT-11 keeps durable writes")
        transport.outcome = .success(RecordingTransport.defaultResponse)
        sdk.joryio.applicationWillEnterForeground()
        sdk.scheduler.runUntilIdle()
        sdk.advance(to: 600)
        let alias = self.requests(transport, "alias").last?.json
        #expect(alias?["userId"] == "user-1", "each durable write keeps the ids it was made with")
        #expect(sdk.joryio.pendingWrites == (0, 0))
    }

    // INIT-18: JoryioConfig.userId initializes with a known user id, identified once.
    @Test func aConfigUserIdThatDiffersFromTheStoredOneIsIdentified() throws {
        try withTemporaryDirectory { directory in
            let transport = RecordingTransport()
            let first = TestSDK(transport: transport, storage: .sqlite(directory: directory))
            first.start(config: JoryioConfig(userId: "config-user"))
            let second = TestSDK(transport: transport, storage: .sqlite(directory: directory))
            second.start(config: JoryioConfig(userId: "config-user"))
            #expect(
                self.requests(transport, "identify").map { $0.json?["userId"] } == ["config-user"],
                "once, not every launch (GAP-22)"
            )
        }
    }

    @Test func anIdentifyOwedWhileOptedOutSurvivesARestart() throws {
        try withTemporaryDirectory { directory in
            let transport = RecordingTransport()
            let first = TestSDK(transport: transport, storage: .sqlite(directory: directory))
            first.start(config: JoryioConfig(optOut: true))
            first.joryio.identify("user-1")
            first.scheduler.runUntilIdle()
            #expect(self.requests(transport, "identify").isEmpty)
            let second = TestSDK(transport: transport, storage: .sqlite(directory: directory))
            second.joryio.optIn()
            second.start()
            #expect(self.requests(transport, "identify").map { $0.json?["userId"] } == ["user-1"])
        }
    }
}
