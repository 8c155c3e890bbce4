import Foundation
import Joryio
import JoryioCore
import JoryioTesting
import Testing

/// Orderings that used to go wrong in the engine's imperative middle, each pinned by a test
/// (engine v2: one ordered pre-init list, one confined state, engine-only snapshot).
@Suite struct OrderingTests {
    private func bearer(_ request: HTTPRequest) -> String? {
        request.header("Authorization").map { String($0.dropFirst("Bearer ".count)) }
    }

    @Test("before initialize(): optOut(); track(x); optIn() never sends x (INIT-6, INIT-8)")
    func preInitOptOutDropsTheCallAtOnce() {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.joryio.optOut()
        sdk.joryio.track("x")
        sdk.joryio.optIn()
        sdk.joryio.track("y")
        sdk.start()
        sdk.joryio.flush()
        sdk.scheduler.runUntilIdle()
        #expect(transport.requests.eventNames == ["y"])
    }

    @Test("before initialize(): updateConsent(.denied); track(x); updateConsent(.granted) never sends x")
    func preInitDenialDropsTheCallAtOnce() {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.joryio.updateConsent(.denied)
        sdk.joryio.track("x")
        sdk.joryio.setAttribute("plan", value: "pro")
        sdk.joryio.updateConsent(.granted)
        sdk.joryio.track("y")
        sdk.start()
        sdk.joryio.flush()
        sdk.scheduler.runUntilIdle()
        #expect(transport.requests.eventNames == ["y"])
        #expect(!transport.requests.contains { $0.url.path.hasSuffix("/v1/attributes") })
    }

    @Test("before initialize(): a pending consent holds a call instead of dropping it")
    func preInitPendingHolds() {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.joryio.updateConsent(.pending)
        sdk.joryio.track("x")
        sdk.joryio.updateConsent(.granted)
        sdk.start()
        sdk.joryio.flush()
        sdk.scheduler.runUntilIdle()
        #expect(transport.requests.eventNames == ["x"])
    }

    @Test("before initialize(): identify(u); wipeData() does not leave u identified (WIPE-1, WIPE-9, INIT-10)")
    func preInitIdentifyThenWipe() {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.joryio.identify("u")
        sdk.joryio.track("before")
        sdk.joryio.wipeData()
        sdk.joryio.track("after")
        sdk.start()
        sdk.joryio.flush()
        sdk.scheduler.runUntilIdle()
        #expect(sdk.joryio.getUserId() == nil)
        #expect(!transport.requests.contains { $0.url.path.hasSuffix("/v1/identify") })
        #expect(transport.requests.eventNames == ["after"])
        #expect(transport.requests.flatMap(\.events).allSatisfy { $0["userId"] == nil || $0["userId"] == .null })
    }

    @Test("a wipeData() before initialize() runs before writes an earlier launch stored can leave (WIPE-9, INIT-10)")
    func preInitWipeBeatsStoredWrites() throws {
        try withTemporaryDirectory { directory in
            let offline = RecordingTransport(outcome: .failure(TransportError(.cannotConnect, "offline")))
            let first = TestSDK(transport: offline, storage: .sqlite(directory: directory))
            first.start()
            first.joryio.identify("u")
            first.joryio.setAttribute("plan", value: "pro")
            first.joryio.addAlias("loyalty", name: "L-1")
            first.advance(to: 5)
            #expect(!offline.requests.isEmpty, "the first launch tried and failed")

            let transport = RecordingTransport()
            let second = TestSDK(transport: transport, storage: .sqlite(directory: directory))
            second.joryio.wipeData()
            second.start()
            second.joryio.flush()
            second.advance(to: 60)
            let paths = transport.requests.map(\.url.path)
            #expect(
                !paths.contains { $0.hasSuffix("/v1/attributes") },
                "stored attribute writes were wiped before any send: \(paths)"
            )
            #expect(!paths.contains { $0.hasSuffix("/v1/alias") || $0.hasSuffix("/v1/identify") }, "\(paths)")
            #expect(second.joryio.getUserId() == nil)
        }
    }

    @Test(
        "two tokens set before initialize() for two users: each user's events carry their own token (AUTH-6, AUTH-11)"
    )
    func preInitTokensForTwoUsers() {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        let tokenA = testJWT(sub: "a")
        let tokenB = testJWT(sub: "b")
        sdk.joryio.identify("a")
        sdk.joryio.setSdkAuthenticationToken(tokenA)
        sdk.joryio.track("a1")
        sdk.joryio.identify("b")
        sdk.joryio.setSdkAuthenticationToken(tokenB)
        sdk.joryio.track("b1")
        sdk.start(config: JoryioConfig(batchSize: 10))
        sdk.joryio.flush()
        sdk.scheduler.runUntilIdle()
        let batches = transport.requests.filter { $0.url.path.hasSuffix("/v1/events") }
        #expect(batches.map(\.eventNames) == [["a1"], ["b1"]])
        #expect(batches.map(self.bearer) == [tokenA, tokenB])
    }

    @Test(
        "lastTransportError becomes nil after a successful attribute or durable-write request (BATCH-16)",
        arguments: [false, true]
    )
    func lastErrorClearedByWrites(durable: Bool) {
        let transport = RecordingTransport(outcome: .failure(TransportError(.cannotConnect, "offline")))
        let sdk = TestSDK(transport: transport)
        sdk.start()
        sdk.joryio.track("e")
        sdk.joryio.flush()
        sdk.scheduler.runUntilIdle()
        #expect(sdk.joryio.lastTransportError != nil)
        // The event queue stays failed (backoff): only the write succeeds.
        transport.outcome = .success(RecordingTransport.defaultResponse)
        if durable {
            sdk.joryio.addAlias("loyalty", name: "L-1")
        } else {
            sdk.joryio.setAttribute("plan", value: "pro")
        }
        sdk.scheduler.runUntilIdle()
        let path = durable ? "/v1/alias" : "/v1/attributes"
        #expect(transport.requests.contains { $0.url.path.hasSuffix(path) })
        #expect(sdk.joryio.lastTransportError == nil)
    }

    @Test("reset(); identify(a): getUserId() reads a at every point in between (one writer of the snapshot)")
    func gettersNeverGoBackwards() {
        let sdk = TestSDK(transport: RecordingTransport())
        sdk.start()
        sdk.joryio.identify("x")
        sdk.scheduler.runUntilIdle()
        let seen = Locked<[String?]>([])
        let joryio = sdk.joryio
        sdk.joryio.reset()
        sdk.scheduler.enqueue { seen.withLock { $0.append(joryio.getUserId()) } }
        sdk.joryio.identify("a")
        sdk.scheduler.enqueue { seen.withLock { $0.append(joryio.getUserId()) } }
        #expect(sdk.joryio.getUserId() == "a")
        sdk.scheduler.runUntilIdle()
        #expect(seen.value == ["a", "a"])
        #expect(sdk.joryio.getUserId() == "a")
    }

    @Test("optOut() then a getter right after answers at once, and the engine agrees afterwards")
    func privacyGetterRightAfterCall() {
        let sdk = TestSDK(transport: RecordingTransport())
        sdk.start()
        sdk.joryio.optOut()
        #expect(sdk.joryio.isUserOptedOut())
        sdk.joryio.updateConsent(.pending)
        #expect(sdk.joryio.getTrackingConsent() == .pending)
        sdk.scheduler.runUntilIdle()
        #expect(sdk.joryio.isUserOptedOut())
        #expect(sdk.joryio.getTrackingConsent() == .pending)
    }
}

/// Decisions made before `initialize()` outlive a launch killed before it (INIT-5).
@Suite struct PreInitPersistenceTests {
    @Test("an optOut() made before initialize() in a launch that never initialized applies at the next start")
    func decisionSurvivesAKilledLaunch() throws {
        try withTemporaryDirectory { directory in
            let killed = TestSDK(transport: RecordingTransport(), storage: .sqlite(directory: directory))
            killed.joryio.optOut()
            #expect(killed.joryio.isUserOptedOut())

            let transport = RecordingTransport()
            let next = TestSDK(transport: transport, storage: .sqlite(directory: directory))
            next.start()
            #expect(next.joryio.isUserOptedOut())
            next.joryio.track("x")
            next.joryio.flush()
            next.scheduler.runUntilIdle()
            #expect(transport.requests.eventNames.isEmpty)
            #expect(
                transport.requests.contains { $0.url.path.hasSuffix("/v1/opt-out") },
                "the opt-out record goes out (OPTOUT-5)"
            )

            let third = TestSDK(transport: RecordingTransport(), storage: .sqlite(directory: directory))
            third.start()
            #expect(third.joryio.isUserOptedOut(), "applied once, then persisted as the opt-out itself")
        }
    }
}

/// A plugin added before `initialize()` is a remembered entry, not a call (INIT-6's bound).
@Suite struct PreInitPluginTests {
    private struct Scrub: JoryioEventPlugin {
        func process(_ event: JoryioEvent) -> JoryioEvent? {
            var event = event
            event.properties["email"] = nil
            event.properties["scrubbed"] = .bool(true)
            return event
        }
    }

    @Test("1,000 calls after add(plugin:) before initialize() cannot push the plugin out")
    func pluginSurvivesTheBound() {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.joryio.add(plugin: Scrub())
        for name in eventNames(1_000) {
            sdk.joryio.track(name, properties: ["email": "a@example.com"])
        }
        sdk.start(config: JoryioConfig(batchSize: 500))
        sdk.joryio.flush()
        sdk.scheduler.runUntilIdle()
        let events = transport.requests.flatMap(\.events)
        #expect(events.count == 1_000)
        #expect(events.allSatisfy { $0["properties"]?["scrubbed"] == .bool(true) && $0["properties"]?["email"] == nil })
    }
}

/// A repeated identify keeps the place of the one already waiting (GAP-32, DURABLE-3).
@Suite struct IdentifyOrderTests {
    @Test("identify(a); identify(b); identify(a) while pending: a's identify goes first, once")
    func repeatedIdentifyKeepsItsPlace() {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.start(config: JoryioConfig(trackingConsent: .pending))
        sdk.joryio.identify("a")
        sdk.joryio.identify("b")
        sdk.joryio.identify("a")
        sdk.scheduler.runUntilIdle()
        #expect(transport.requests.isEmpty, "held while pending")
        sdk.joryio.updateConsent(.granted)
        sdk.scheduler.runUntilIdle()
        let identifies = transport.requests.filter { $0.url.path.hasSuffix("/v1/identify") }
        #expect(identifies.compactMap { $0.json?["userId"]?.stringValue } == ["a", "b"])
        let anonymousIds = Set(identifies.compactMap { $0.json?["anonymousId"]?.stringValue })
        #expect(anonymousIds.count == 1, "one anonymous id: the first identify decides whose history it joins")
    }
}
