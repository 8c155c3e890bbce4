import Foundation
import Joryio
import JoryioCore
import JoryioDelivery
import JoryioTestLanes
import JoryioTesting
import Testing

/// The whole SDK — real SQLite files, real libcurl — against the sandbox on 127.0.0.1, driven on
/// virtual time: the only real waiting is for HTTP completions.
@Suite("Delivery against the sandbox", .tags(.sandbox))
struct SandboxDeliveryTests {
    /// One `Item Viewed` event per index in `range`, with `properties.i` = the index.
    private func track(_ sdk: SandboxSDK, _ range: Range<Int>) {
        for i in range {
            sdk.joryio.track("Item Viewed", properties: ["i": i, "name": "item \(i)"])
        }
    }

    /// Every index of `expected` is stored exactly once at the sandbox, and nothing else is.
    private func expectDeliveredOnce(
        _ rig: SandboxRig,
        _ expected: some Sequence<Int>,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let events = try await rig.sandbox.events()
        let ids = events.compactMap { $0["messageId"] as? String }
        #expect(ids.count == events.count, sourceLocation: sourceLocation)
        #expect(Set(ids).count == ids.count, "a messageId stored twice", sourceLocation: sourceLocation)
        let indices = events.compactMap { ($0["properties"] as? [String: Any])?["i"] as? Int }
        #expect(indices.count == ids.count, sourceLocation: sourceLocation)
        #expect(indices.sorted() == Array(expected).sorted(), sourceLocation: sourceLocation)
    }

    @Test("HTTP 500 three times, then success: every event once, after retries 1, 2 and 4 s apart")
    func serverErrorsThenSuccess() async throws {
        let rig = try await SandboxRig()
        defer { rig.tearDown() }
        try await rig.sandbox.addFault(path: "/api/v1/events", count: 3, status: 500)
        let sdk = rig.launch()

        self.track(sdk, 0..<30)
        sdk.joryio.flush()
        #expect(await rig.drive(sdk) { sdk.isDrained })

        #expect(try await rig.sandbox.eventRequests().map(\.status) == [500, 500, 500, 200])
        let times = sdk.transport.sent.map(\.virtualTime)
        #expect(zip(times.dropFirst(), times).map { $0.timeIntervalSince($1) } == [1, 2, 4])
        for request in try await rig.sandbox.eventRequests() {
            #expect(request.messageIDs.count == 30)
        }
        try await self.expectDeliveredOnce(rig, 0..<30)
        #expect(sdk.joryio.lastTransportError == nil)
    }

    @Test("A batch with one event the server refuses: split down to it, dropped with a log line, the rest delivered")
    func poisonEventIsIsolatedAndDropped() async throws {
        let rig = try await SandboxRig()
        defer { rig.tearDown() }
        let identifiers = PoisoningIdentifiers(first: 1)
        let sdk = rig.launch(identifiers: identifiers)
        identifiers.poison(nth: 9)  // i = 7: the first event also draws the session id

        self.track(sdk, 0..<20)
        sdk.joryio.flush()
        #expect(await rig.drive(sdk) { sdk.isDrained })

        try await self.expectDeliveredOnce(rig, (0..<20).filter { $0 != 7 })
        let requests = try await rig.sandbox.eventRequests()
        #expect(requests.first?.messageIDs.count == 20)
        #expect(
            requests.filter { $0.status == 422 }.allSatisfy { $0.messageIDs.contains(PoisoningIdentifiers.poisonID) }
        )
        #expect(
            requests.filter { $0.status == 200 }.allSatisfy { !$0.messageIDs.contains(PoisoningIdentifiers.poisonID) }
        )
        #expect(requests.last { $0.status == 422 }?.messageIDs == [PoisoningIdentifiers.poisonID])
        #expect(sdk.messages(atLeast: .warning).contains("dropped an event the server rejected on its own (HTTP 422)"))
    }

    @Test("rejectedIndices are dropped, failedIndices kept and delivered by the retry")
    func rejectedAndFailedIndices() async throws {
        let rig = try await SandboxRig()
        defer { rig.tearDown() }
        try await rig.sandbox.addFault(path: "/api/v1/events", rejectedIndices: [1], failedIndices: [2])
        let sdk = rig.launch()

        self.track(sdk, 0..<5)
        sdk.joryio.flush()
        #expect(await rig.drive(sdk) { sdk.isDrained })

        try await self.expectDeliveredOnce(rig, [0, 2, 3, 4])
        let requests = try await rig.sandbox.eventRequests()
        #expect(requests.map(\.messageIDs.count) == [5, 1])
        #expect(requests.last?.messageIDs == [requests[0].messageIDs[2]])
        #expect(sdk.messages(atLeast: .warning).contains { $0.contains("rejectedIndices") })
    }

    @Test("Offline (connection refused), then back online: everything is delivered once")
    func offlineThenOnline() async throws {
        let rig = try await SandboxRig()
        defer { rig.tearDown() }
        let refusing = try RefusingPort()
        let sdk = rig.launch(offlineTarget: refusing.url)

        self.track(sdk, 0..<10)
        sdk.joryio.flush()
        await rig.settle(sdk)
        // The first try and maxRetries (3) retries, backing off 1, 2 and 4 s; then it waits.
        let offline = sdk.transport.sent
        #expect(offline.count == 4)
        #expect(
            zip(offline.dropFirst(), offline).map { $0.virtualTime.timeIntervalSince($1.virtualTime) } == [1, 2, 4]
        )
        guard case .network = sdk.joryio.lastTransportError else {
            Issue.record("lastTransportError is \(String(describing: sdk.joryio.lastTransportError))")
            return
        }
        self.track(sdk, 10..<15)
        await rig.settle(sdk)
        #expect(sdk.joryio.getQueueSize() == 15)
        #expect(try await rig.sandbox.eventRequests().isEmpty)

        sdk.transport.target = nil  // back online
        self.track(sdk, 15..<16)  // the app goes on; no flush
        #expect(await rig.drive(sdk) { sdk.isDrained })
        try await self.expectDeliveredOnce(rig, 0..<16)
        #expect(sdk.joryio.lastTransportError == nil)
    }

    @Test("A dropped connection, then a timeout the server processed anyway: retried, every event stored once")
    func droppedAndTimedOutRequestsAreRetriedSafely() async throws {
        let rig = try await SandboxRig()
        defer { rig.tearDown() }
        try await rig.sandbox.addFault(path: "/api/v1/events", drop: true)
        try await rig.sandbox.addFault(path: "/api/v1/events", delayMs: 1_500)  // then processed normally
        let sdk = rig.launch(JoryioConfig(requestTimeout: 0.5))

        self.track(sdk, 0..<10)
        sdk.joryio.flush()
        #expect(await rig.drive(sdk) { sdk.isDrained })

        let sent = sdk.transport.sent
        #expect(sent.count == 3)
        let batches = sent.map(\.request.messageIDs)
        #expect(batches[0].count == 10)
        #expect(batches.allSatisfy { $0 == batches[0] }, "every retry resends the same messageIds")
        #expect(sdk.joryio.lastTransportError == nil)
        try await self.expectDeliveredOnce(rig, 0..<10)
    }

    @Test("402 stops sending for the instance's life, keeping the events; a restart delivers them")
    func paymentRequiredStopsUntilRestart() async throws {
        let rig = try await SandboxRig()
        defer { rig.tearDown() }
        try await rig.sandbox.addFault(path: "/api/v1/events", count: 1, status: 402)
        let sdk = rig.launch()

        self.track(sdk, 0..<10)
        sdk.joryio.flush()
        await rig.settle(sdk)
        #expect(try await rig.sandbox.eventRequests().map(\.status) == [402])
        #expect(sdk.joryio.lastTransportError == .http(status: 402, body: nil))

        self.track(sdk, 10..<60)  // more than a batch: the size trigger fires too
        sdk.joryio.flush()
        sdk.joryio.applicationDidEnterBackground()
        await rig.settle(sdk, virtualLimit: 3_600)
        #expect(sdk.transport.sent.count == 1)
        #expect(sdk.joryio.getQueueSize() == 60)

        sdk.crash()
        let restarted = rig.launch()
        #expect(restarted.joryio.getQueueSize() == 60)
        #expect(await rig.drive(restarted) { restarted.isDrained })
        try await self.expectDeliveredOnce(rig, 0..<60)
        #expect(try await rig.sandbox.eventRequests().map(\.status) == [402, 200, 200])
    }

    @Test("A restart over a 10,000-event backlog delivers all of it, once")
    func restartDeliversLargeBacklog() async throws {
        let rig = try await SandboxRig()
        defer { rig.tearDown() }
        let refusing = try RefusingPort()
        let config = JoryioConfig(batchSize: 500, maxQueueSize: 20_000)
        let first = rig.launch(config, offlineTarget: refusing.url)
        for chunk in stride(from: 0, to: 10_000, by: 500) {
            self.track(first, chunk..<chunk + 500)
            rig.time.runUntilIdle()
        }
        #expect(first.joryio.getQueueSize() == 10_000)
        first.crash()

        let second = rig.launch(config)
        #expect(second.joryio.getQueueSize() == 10_000)
        #expect(await rig.drive(second, realLimit: 60) { second.isDrained })

        // Client side: the sandbox's request log would carry all 10,000 bodies once more.
        let sent = second.transport.sent.map(\.request)
        #expect(sent.count == 20)
        #expect(sent.allSatisfy { $0.header("Content-Encoding") == "gzip" })
        #expect(second.joryio.lastTransportError == nil)
        try await self.expectDeliveredOnce(rig, 0..<10_000)
    }

    @Test("Retry-After: no request before it has passed, not even on flush()")
    func retryAfterIsHonoured() async throws {
        let rig = try await SandboxRig()
        defer { rig.tearDown() }
        try await rig.sandbox.addFault(path: "/api/v1/events", count: 1, status: 503, retryAfter: "7")
        let sdk = rig.launch()

        self.track(sdk, 0..<3)
        sdk.joryio.flush()
        #expect(await rig.drive(sdk) { sdk.transport.sent.count == 1 && sdk.transport.inFlight == 0 })
        let failedAt = try #require(sdk.transport.sent.first?.virtualTime)

        rig.time.advance(by: 3)
        sdk.joryio.flush()
        rig.time.advance(by: 3.999)
        #expect(sdk.transport.sent.count == 1)

        #expect(await rig.drive(sdk) { sdk.isDrained })
        let sent = sdk.transport.sent
        #expect(sent.count == 2)
        #expect(sent.last.map { $0.virtualTime.timeIntervalSince(failedAt) } == 7)
        #expect(try await rig.sandbox.eventRequests().map(\.status) == [503, 200])
        try await self.expectDeliveredOnce(rig, 0..<3)
    }

    @Test("Events left after a size-triggered batch leave within flushInterval, without a flush")
    func remainderAfterSizeTriggerIsSent() async throws {
        let rig = try await SandboxRig()
        defer { rig.tearDown() }
        let sdk = rig.launch(JoryioConfig(batchSize: 10, flushInterval: 5))

        self.track(sdk, 0..<15)  // one group commit of 15: one full batch and 5 more
        #expect(await rig.drive(sdk, virtualLimit: 60) { sdk.isDrained })
        try await self.expectDeliveredOnce(rig, 0..<15)
    }
}
