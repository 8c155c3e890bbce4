import Foundation
import Joryio
import JoryioCore
import JoryioTesting
import Testing

/// An unsigned-but-well-formed JWT for `sub` (the SDK only reads the payload).
func testJWT(sub: String, exp: Int = 4_000_000_000, tag: String = "sig") -> String {
    func base64url(_ text: String) -> String {
        Data(text.utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
    return base64url(#"{"alg":"HS256","typ":"JWT"}"#) + "." + base64url(#"{"sub":"\#(sub)","exp":\#(exp)}"#) + "." + tag
}

/// SDK authentication on virtual time: which token each request carries, and what a 401 does.
@Suite struct AuthTests {
    private func bearer(_ request: HTTPRequest) -> String? {
        request.header("Authorization").map { String($0.dropFirst("Bearer ".count)) }
    }

    @Test("BATCH-13: events tracked just before reset() keep their user's token, in a batch of their own")
    func eventsTrackedJustBeforeResetKeepTheirUsersToken() {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.start(config: JoryioConfig(batchSize: 10))
        let alice = testJWT(sub: "alice")
        let bob = testJWT(sub: "bob")
        sdk.joryio.setSdkAuthenticationToken(alice)
        sdk.joryio.identify("alice")
        // No engine turn in between: the events still wait for their group commit when reset runs.
        sdk.joryio.track("a1")
        sdk.joryio.track("a2")
        sdk.joryio.reset()
        sdk.joryio.setSdkAuthenticationToken(bob)
        sdk.joryio.identify("bob")
        sdk.joryio.track("b1")
        sdk.joryio.flush()
        sdk.scheduler.runUntilIdle()

        let batches = transport.requests.filter { $0.url.path.hasSuffix("/v1/events") }
        #expect(batches.map(\.eventNames) == [["a1", "a2"], ["b1"]], "one user per batch (AUTH-7)")
        #expect(batches.map(self.bearer) == [alice, bob], "each batch carries its own user's token (AUTH-5)")
        let identifies = transport.requests.filter { $0.url.path.hasSuffix("/v1/identify") }
        #expect(identifies.map(self.bearer) == [alice, bob])
    }

    @Test("AUTH-10: after clearSdkAuthenticationErrorHandler() a rejected token reaches no handler; a new one hears it")
    func clearedHandlerHearsNothing() {
        let transport = RecordingTransport(
            outcome: .success(.json(401, #"{"success":false,"error":"unauthorized","reason":"expired"}"#))
        )
        let sdk = TestSDK(transport: transport)
        sdk.start()
        let cleared = Locked<[JoryioAuthError]>([])
        sdk.joryio.setSdkAuthenticationErrorHandler { error in cleared.withLock { $0.append(error) } }
        sdk.joryio.clearSdkAuthenticationErrorHandler()
        sdk.joryio.setSdkAuthenticationToken(testJWT(sub: "alice"))
        sdk.joryio.identify("alice")
        sdk.joryio.track("a1")
        sdk.joryio.flush()
        sdk.scheduler.runUntilIdle()
        sdk.advance(to: 60)
        #expect(transport.requests.contains { $0.url.path.hasSuffix("/v1/events") }, "the rejected batch was sent")
        #expect(cleared.value.isEmpty, "the cleared handler is never called")

        let later = Locked<[JoryioAuthError]>([])
        sdk.joryio.setSdkAuthenticationErrorHandler { error in later.withLock { $0.append(error) } }
        sdk.joryio.setSdkAuthenticationToken(testJWT(sub: "alice", tag: "again"))
        sdk.joryio.flush()
        sdk.scheduler.runUntilIdle()
        sdk.advance(to: 120)
        #expect(cleared.value.isEmpty)
        #expect(later.value.first == JoryioAuthError(reason: .expired, userId: "alice"))
    }

    @Test("BATCH-14: the handler hears only about the current user; a departed user's rejected events are dropped")
    func theHandlerHearsOnlyAboutTheCurrentUserAndLeftoversAreDropped() {
        let transport = RecordingTransport(outcome: .failure(TransportError(.cannotConnect, "offline")))
        let sdk = TestSDK(transport: transport)
        sdk.start(config: JoryioConfig(batchSize: 10))
        let heard = Locked<[JoryioAuthError]>([])
        sdk.joryio.setSdkAuthenticationErrorHandler { error in heard.withLock { $0.append(error) } }
        sdk.joryio.setSdkAuthenticationToken(testJWT(sub: "alice"))
        sdk.joryio.identify("alice")
        sdk.joryio.track("a1")
        sdk.scheduler.runUntilIdle()
        sdk.joryio.reset()
        sdk.joryio.setSdkAuthenticationToken(testJWT(sub: "bob"))
        sdk.joryio.identify("bob")
        sdk.joryio.track("b1")
        sdk.scheduler.runUntilIdle()
        // Back online, and the server now rejects every token as expired.
        transport.outcome = .success(.json(401, #"{"success":false,"error":"unauthorized","reason":"expired"}"#))
        sdk.joryio.flush()
        sdk.scheduler.runUntilIdle()
        sdk.advance(to: 120)

        #expect(heard.value == [JoryioAuthError(reason: .expired, userId: "bob")], "once, about the current user only")
        #expect(sdk.joryio.getQueueSize() == 1, "alice's leftover dropped (AUTH-8); bob's event waits for a token")
        // Events wait for a token (AUTH-14); bob's identify write is retried with backoff, at most
        // 10 times (DURABLE-8), and never asks the handler again while its request is outstanding.
        let eventBatches = { transport.requests.filter { $0.url.path.hasSuffix("/v1/events") }.count }
        let sentAfter = eventBatches()
        sdk.advance(to: 600)
        #expect(eventBatches() == sentAfter, "no event batch is resent until a new token arrives: no loop")
        #expect(heard.value.count == 1)

        transport.outcome = .success(RecordingTransport.defaultResponse)
        sdk.joryio.setSdkAuthenticationToken(testJWT(sub: "bob", tag: "fresh"))
        sdk.scheduler.runUntilIdle()
        sdk.advance(to: 700)
        #expect(sdk.joryio.getQueueSize() == 0)
        let last = transport.requests.last { $0.url.path.hasSuffix("/v1/events") }
        #expect(last?.eventNames == ["b1"] && last.map(self.bearer) == testJWT(sub: "bob", tag: "fresh"))
    }

    /// DURABLE-8 / AUTH-9: a 401 for the current user on the durable channel backs off and retries
    /// (1, 3, 7, 15 s …) instead of parking the channel until a token arrives; the handler is asked
    /// once (one outstanding request, GAP-36), and its token sends the write again at once.
    @Test func aCurrentUsersRejectedDurableWriteIsRetriedWithBackoffAndTheHandlerIsStillAsked() {
        let scheduler = ManualScheduler()
        let origin = scheduler.now()
        let accept = Locked(false)
        let identifies = Locked<[(at: TimeInterval, bearer: String?)]>([])
        let transport = RespondingTransport { request in
            guard request.url.path.hasSuffix("/v1/identify") else { return .success(.ok) }
            let at = (scheduler.now().timeIntervalSince(origin) * 1000).rounded() / 1000
            identifies.withLock { $0.append((at, request.header("Authorization"))) }
            return accept.value
                ? .success(.ok) : .success(.json(401, #"{"success":false,"error":"unauthorized","reason":"expired"}"#))
        }
        let sdk = TestSDK(transport: transport, scheduler: scheduler)
        var config = JoryioConfig()
        config.maxRetries = 20
        sdk.start(config: config)
        let heard = Locked<[JoryioAuthError]>([])
        sdk.joryio.setSdkAuthenticationErrorHandler { error in heard.withLock { $0.append(error) } }
        let stale = testJWT(sub: "alice", tag: "stale")
        let fresh = testJWT(sub: "alice", tag: "fresh")
        sdk.joryio.setSdkAuthenticationToken(stale)
        sdk.joryio.identify("alice")
        sdk.scheduler.runUntilIdle()
        sdk.advance(to: 20)

        #expect(identifies.value.map(\.at) == [0, 1, 3, 7, 15], "retried with backoff, not parked")
        #expect(identifies.value.allSatisfy { $0.bearer == "Bearer " + stale })
        #expect(heard.value == [JoryioAuthError(reason: .expired, userId: "alice")], "the handler is asked, once")

        // The handler's token arrives: the write goes again at once with it, and is done.
        accept.withLock { $0 = true }
        sdk.joryio.setSdkAuthenticationToken(fresh)
        sdk.scheduler.runUntilIdle()
        sdk.advance(to: 600)
        #expect(identifies.value.map(\.at) == [0, 1, 3, 7, 15, 20])
        #expect(identifies.value.last?.bearer == "Bearer " + fresh)
        #expect(heard.value.count == 1)
    }

    @Test("INIT-5: an error handler set before initialize() is installed at start and asked about a rejection")
    func aHandlerSetBeforeInitializeIsAskedAfterStart() {
        let transport = RespondingTransport { request in
            guard request.url.path.hasSuffix("/v1/identify") else { return .success(.ok) }
            return .success(.json(401, #"{"success":false,"error":"unauthorized","reason":"expired"}"#))
        }
        let sdk = TestSDK(transport: transport)
        let heard = Locked<[JoryioAuthError]>([])
        sdk.joryio.setSdkAuthenticationErrorHandler { error in heard.withLock { $0.append(error) } }
        sdk.joryio.setSdkAuthenticationToken(testJWT(sub: "alice", tag: "stale"))
        sdk.joryio.identify("alice")
        sdk.start()
        sdk.advance(to: 5)
        #expect(heard.value == [JoryioAuthError(reason: .expired, userId: "alice")])
    }

    // INIT-5: a token set before initialize() is applied at start.
    @Test("AUTH-2: a token set before initialize() turns the Authorization header on; no token, no header")
    func aTokenSetBeforeInitializeTurnsTheHeaderOnAndNoTokenMeansNoHeader() {
        let transport = RecordingTransport()
        let plain = TestSDK(transport: transport)
        plain.start()
        plain.joryio.identify("carol")
        plain.joryio.track("no-auth")
        plain.joryio.flush()
        plain.scheduler.runUntilIdle()
        #expect(transport.requests.allSatisfy { $0.header("Authorization") == nil })

        let authed = RecordingTransport()
        let sdk = TestSDK(transport: authed)
        sdk.joryio.setSdkAuthenticationToken(testJWT(sub: "carol"))
        sdk.start()
        sdk.joryio.identify("carol")
        sdk.joryio.track("with-auth")
        sdk.joryio.flush()
        sdk.scheduler.runUntilIdle()
        let events = authed.requests.filter { $0.url.path.hasSuffix("/v1/events") }
        #expect(events.map(self.bearer) == [testJWT(sub: "carol")])
    }

    @Test("AUTH-13: a logged-out user's token is kept in the secure store and sent with their events after a relaunch")
    func aLoggedOutUsersTokenIsKeptInTheSecureStore() throws {
        try withTemporaryDirectory { directory in
            let alice = testJWT(sub: "alice")
            let offline = RecordingTransport(outcome: .failure(TransportError(.cannotConnect, "offline")))
            let first = TestSDK(transport: offline, storage: .sqlite(directory: directory))
            first.start()
            first.joryio.setSdkAuthenticationToken(alice)
            first.joryio.identify("alice")
            first.joryio.track("a1")
            first.joryio.reset()
            first.scheduler.runUntilIdle()
            #expect(first.joryio.getQueueSize() == 1)

            let item = directory.appendingPathComponent("secure").appendingPathComponent("jry_auth_tokens")
            let stored = try String(contentsOf: item, encoding: .utf8)
            #expect(stored.contains(alice))
            let settings = try String(
                contentsOf: directory.appendingPathComponent("joryio-settings.json"),
                encoding: .utf8
            )
            #expect(!settings.contains(alice))

            let transport = RecordingTransport()
            _ = TestSDK.relaunch(on: directory, transport: transport)
            let events = transport.requests.filter { $0.url.path.hasSuffix("/v1/events") }
            #expect(events.map(\.eventNames) == [["a1"]])
            #expect(events.map(self.bearer) == [alice], "the departed user's events still carry their token")
        }
    }
}
