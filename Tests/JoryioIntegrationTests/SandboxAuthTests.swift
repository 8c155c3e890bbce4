import Foundation
import Joryio
import JoryioCore
import JoryioTestLanes
import JoryioTesting
import Testing

/// SDK authentication end to end against the sandbox's HS256 verification (issue 6).
@Suite("SDK authentication against the sandbox", .tags(.sandbox))
struct SandboxAuthTests {
    /// Every accepted event request carried the token of exactly the users in its batch.
    private func expectEveryBatchCarriesItsOwnUsersToken(_ rig: SandboxRig, _ context: Comment) async throws {
        for request in try await rig.sandbox.eventRequests() where request.status == 200 {
            let batch = (request.body as? [String: Any])?["batch"] as? [[String: Any]] ?? []
            let users = Set(batch.compactMap { $0["userId"] as? String })
            #expect(users.count <= 1, "a batch never mixes users \(context)")
            if let user = users.first {
                #expect(
                    request.authSub == user,
                    "request #\(request.seq) of \(user) carried \(request.authSub ?? "no token") \(context)"
                )
            }
        }
    }

    @Test("A token expiring mid-queue: the handler is asked once and the queue drains with the new token")
    func expiryMidQueue() async throws {
        let rig = try await SandboxRig()
        defer { rig.tearDown() }
        let start = Date(timeIntervalSince1970: 1_900_000_000)
        try await rig.sandbox.configureAuth(now: start)
        let calls = Locked<[JoryioAuthError]>([])
        let firstToken = try await rig.sandbox.mintToken(sub: "ann", expiresIn: 3_600)
        // What the app's backend hands out when asked: valid after the clock jump below (minted now, so
        // the handler, which runs on the test's thread, never waits for the sandbox).
        let freshToken = try await rig.sandbox.mintToken(sub: "ann", exp: start.addingTimeInterval(7_200 + 3_600))
        let sdk = rig.launch(JoryioConfig(batchSize: 50, maxQueueSize: 5_000)) { joryio in
            joryio.setSdkAuthenticationToken(firstToken)
            joryio.identify("ann")
        }
        sdk.joryio.setSdkAuthenticationErrorHandler { [joryio = sdk.joryio] error in
            calls.withLock { $0.append(error) }
            joryio.setSdkAuthenticationToken(freshToken)
        }
        for index in 0..<200 {
            sdk.joryio.track("Step", properties: ["i": index])
        }
        sdk.joryio.setAttribute("plan", value: "gold")
        #expect(await rig.drive(sdk) { (try? await rig.sandbox.events().count) ?? 0 >= 50 })
        // Two hours later on the server's clock: the first token has expired, the queue has not drained.
        try await rig.sandbox.configureAuth(now: start.addingTimeInterval(7_200))
        sdk.joryio.flush()
        await rig.settle(sdk)

        #expect(try await rig.sandbox.events().count == 200, "every event arrives")
        #expect(calls.value == [JoryioAuthError(reason: .expired, userId: "ann")], "asked once, about the current user")
        let rejected = try await rig.sandbox.requests(path: "/api/v1/*").filter { $0.status == 401 }
        #expect(!rejected.isEmpty)
        try await self.expectEveryBatchCarriesItsOwnUsersToken(rig, "after expiry")
        #expect(try await rig.sandbox.profile(userId: "ann")?.attributes["plan"] as? String == "gold")
    }

    @Test(
        "BATCH-13: Logout with 1,000 queued events, then another user at once: each event carries its own user's token"
    )
    func logoutThenLogin() async throws {
        let rig = try await SandboxRig()
        defer { rig.tearDown() }
        try await rig.sandbox.configureAuth()
        let refusing = try RefusingPort()
        let alice = try await rig.sandbox.mintToken(sub: "alice")
        let bob = try await rig.sandbox.mintToken(sub: "bob")
        // 64 does not divide 1,000: a batch boundary falls inside the logout unless the SDK cuts there.
        let sdk = rig.launch(JoryioConfig(batchSize: 64, maxQueueSize: 5_000), offlineTarget: refusing.url)
        sdk.joryio.setSdkAuthenticationToken(alice)
        sdk.joryio.identify("alice")
        for index in 0..<1_000 {
            sdk.joryio.track("Alice Event", properties: ["i": index])
        }
        sdk.joryio.setAttribute("plan", value: "alice-plan")
        sdk.joryio.reset()
        sdk.joryio.setSdkAuthenticationToken(bob)
        sdk.joryio.identify("bob")
        for index in 0..<100 {
            sdk.joryio.track("Bob Event", properties: ["i": index])
        }
        sdk.joryio.setAttribute("plan", value: "bob-plan")
        await rig.settle(sdk, virtualLimit: 60)
        sdk.transport.target = nil  // back online
        sdk.joryio.flush()
        sdk.joryio.applicationWillEnterForeground()
        await rig.settle(sdk)

        let events = try await rig.sandbox.events()
        #expect(events.filter { $0["userId"] as? String == "alice" }.count == 1_000)
        #expect(events.filter { $0["userId"] as? String == "bob" }.count == 100)
        let unauthorized = try await rig.sandbox.requests(path: "/api/v1/*").filter { $0.status == 401 }
        #expect(unauthorized.isEmpty, "none rejected: \(unauthorized.map(\.path))")
        try await self.expectEveryBatchCarriesItsOwnUsersToken(rig, "across logout")
        // ATTR-15: reset() purges alice's unconfirmed attribute writes; bob's arrive under bob.
        #expect(try await rig.sandbox.profile(userId: "bob")?.attributes["plan"] as? String == "bob-plan")
        #expect(try await rig.sandbox.profile(userId: "alice")?.attributes["plan"] == nil)
    }

    // AUTH-13: the departed user's token outlives the process (the secure store).
    @Test("A process kill right after logout loses nothing: the departed user's token is kept with their events")
    func killRightAfterLogout() async throws {
        let rig = try await SandboxRig()
        defer { rig.tearDown() }
        try await rig.sandbox.configureAuth()
        let refusing = try RefusingPort()
        let alice = try await rig.sandbox.mintToken(sub: "alice")
        let bob = try await rig.sandbox.mintToken(sub: "bob")
        let first = rig.launch(JoryioConfig(maxQueueSize: 5_000), offlineTarget: refusing.url)
        first.joryio.setSdkAuthenticationToken(alice)
        first.joryio.identify("alice")
        for index in 0..<300 {
            first.joryio.track("Alice Event", properties: ["i": index])
        }
        first.joryio.addAlias("crm_id", name: "A-1")
        first.joryio.reset()
        rig.time.runUntilIdle()
        first.crash()

        let second = rig.launch(JoryioConfig(maxQueueSize: 5_000)) { joryio in
            joryio.setSdkAuthenticationToken(bob)
            joryio.identify("bob")
        }
        second.joryio.track("Bob Event")
        second.joryio.flush()
        await rig.settle(second)

        let events = try await rig.sandbox.events()
        #expect(events.filter { $0["userId"] as? String == "alice" }.count == 300)
        #expect(events.filter { $0["userId"] as? String == "bob" }.count == 1)
        #expect(try await rig.sandbox.requests(path: "/api/v1/*").filter { $0.status == 401 }.isEmpty)
        try await self.expectEveryBatchCarriesItsOwnUsersToken(rig, "after a kill")
        #expect(
            try await rig.sandbox.profile(userId: "alice")?.aliases == ["crm_id": "A-1"],
            "durable writes keep their user's token too"
        )
        let identifies = try await rig.sandbox.requests(path: "/api/v1/identify")
        #expect(
            identifies.allSatisfy {
                $0.status == 200 && $0.authSub == ($0.body as? [String: Any])?["userId"] as? String
            }
        )
    }
}
