import Foundation
import Joryio
import JoryioCore
import JoryioDelivery
import JoryioTesting
import Testing

/// Backoff, `maxRetries`, `Retry-After` and `lastTransportError` (BATCH-9, -11, -15, -16, -18;
/// GAP-18, GAP-19).
@Suite struct RetryTests {
    private static let unavailable = Result<HTTPResponse, TransportError>.success(.json(503, #"{"error":"down"}"#))

    /// Request times, in seconds since the SDK was created, as `RecordingTransport` saw them.
    private final class Timeline: Sendable {
        private let times = Locked<[TimeInterval]>([])
        var value: [TimeInterval] { self.times.value }
        func record(_ time: TimeInterval) { self.times.withLock { $0.append(time) } }
    }

    /// An SDK whose transport fails every request with `outcome` and notes when each one was sent.
    private func failingSDK(
        _ outcome: Result<HTTPResponse, TransportError> = RetryTests.unavailable,
        jitter: Double = 0
    ) -> (TestSDK, RespondingTransport, Timeline) {
        let timeline = Timeline()
        let scheduler = ManualScheduler()
        let origin = scheduler.now()
        let transport = RespondingTransport { _ in
            timeline.record(scheduler.now().timeIntervalSince(origin))
            return outcome
        }
        return (TestSDK(transport: transport, scheduler: scheduler, jitter: jitter), transport, timeline)
    }

    // BATCH-15: the default maxRetries (3) and retryBackoffMs (1000) at work.
    @Test("retries at exactly 1 s, 2 s and 4 s after each failure, then waits for the next trigger")
    func backoffSchedule() {
        let (sdk, transport, timeline) = self.failingSDK()
        sdk.start(config: JoryioConfig(maxRetries: 3, retryBackoffMs: 1000))
        sdk.joryio.track("a")
        sdk.joryio.flush()
        sdk.scheduler.runUntilIdle()
        #expect(timeline.value == [0])

        for (due, count) in [(1.0, 2), (3.0, 3), (7.0, 4)] {
            sdk.advance(to: due - 0.001)
            #expect(transport.requests.count == count - 1, "nothing 1 ms before \(due) s")
            sdk.advance(to: due)
            #expect(transport.requests.count == count, "a retry at exactly \(due) s")
        }
        #expect(timeline.value == [0, 1, 3, 7])

        // Four failures in a row: maxRetries (3) retries are used up; no timer of its own any more.
        sdk.advance(to: 3600)
        #expect(transport.requests.count == 4)
        #expect(sdk.scheduler.pendingCount == 0)
        #expect(sdk.joryio.getQueueSize() == 1)
        #expect(sdk.messages(at: .info).contains { $0.contains("waiting for the next flush trigger") })

        // The next trigger (a new event, then its flush interval) sends both events.
        transport.answer { _ in .success(.ok) }
        sdk.track(["b"])
        sdk.advance(to: 3604.999)
        #expect(transport.requests.count == 4)
        sdk.advance(to: 3605)
        #expect(transport.requests.count == 5)
        #expect(transport.requests.last?.eventNames == ["a", "b"])
        #expect(sdk.joryio.getQueueSize() == 0)
        #expect(sdk.joryio.lastTransportError == nil)
    }

    @Test("every attempt carries the same events and messageIds; failures never delete events")
    func retriesResendTheSameEvents() throws {
        let (sdk, transport, _) = self.failingSDK()
        sdk.start(config: JoryioConfig(maxRetries: 5))
        sdk.track(eventNames(3))
        // Sent at 5 s, then maxRetries (5) retries at 6, 8, 12, 20 and 36 s; nothing by itself after.
        sdk.advance(to: 3600)
        #expect(transport.requests.count == 6)
        let ids = transport.requests.map { $0.events.compactMap { $0["messageId"]?.stringValue } }
        #expect(Set(ids).count == 1)
        #expect(try #require(ids.first).count == 3)
        #expect(sdk.joryio.getQueueSize() == 3)
        // sentAt changes with every attempt; the event timestamps do not.
        #expect(Set(transport.requests.compactMap { $0.json?["sentAt"] }).count == 6)
    }

    @Test("maxRetries 0: a failure waits for the next trigger straight away")
    func noRetries() {
        let (sdk, transport, _) = self.failingSDK()
        sdk.start(config: JoryioConfig(maxRetries: 0))
        sdk.track(["a"])
        sdk.advance(to: 3600)
        #expect(transport.requests.count == 1)
        sdk.joryio.flush()
        sdk.scheduler.runUntilIdle()
        #expect(transport.requests.count == 2)
        #expect(sdk.joryio.getQueueSize() == 1)
    }

    @Test("equal jitter 0.5: each retry comes after 75% of the full delay")
    func jitter() {
        let (sdk, _, timeline) = self.failingSDK(jitter: 0.5)
        sdk.start(config: JoryioConfig(maxRetries: 3, retryBackoffMs: 1000))
        sdk.joryio.track("a")
        sdk.joryio.flush()
        sdk.scheduler.runUntilIdle()
        sdk.advance(to: 0.749)
        #expect(timeline.value == [0])
        sdk.advance(to: 100)
        #expect(timeline.value == [0, 0.75, 0.75 + 1.5, 0.75 + 1.5 + 3])
    }

    @Test("retryBackoffMs from the config is the first delay")
    func configuredBase() {
        let (sdk, _, timeline) = self.failingSDK()
        sdk.start(config: JoryioConfig(maxRetries: 2, retryBackoffMs: 250))
        sdk.joryio.track("a")
        sdk.joryio.flush()
        sdk.scheduler.runUntilIdle()
        sdk.advance(to: 4.9)
        #expect(timeline.value == [0, 0.25, 0.75])
        // The event's own flush-interval timer, armed when it was stored, is a trigger like a new
        // event: after the SDK's retries are used up it still makes one attempt, then nothing.
        sdk.advance(to: 3600)
        #expect(timeline.value == [0, 0.25, 0.75, 5])
    }

    @Test("BATCH-11: 503 with Retry-After: 7 waits exactly 7 s, though backoff says 1 s; flush() cannot skip it")
    func retryAfter() {
        let transport = StubTransport([
            .success(.json(503, "{}", headers: ["Retry-After": "7"])),
            .success(.ok),
        ])
        let sdk = TestSDK(transport: transport)
        sdk.start(config: JoryioConfig(retryBackoffMs: 1000))
        sdk.joryio.track("a")
        sdk.joryio.flush()
        sdk.scheduler.runUntilIdle()
        #expect(transport.requests.count == 1)

        sdk.advance(to: 3)
        sdk.joryio.flush()
        sdk.track(["b"])
        #expect(transport.requests.count == 1)
        sdk.advance(to: 6.999)
        sdk.joryio.flush()
        sdk.scheduler.runUntilIdle()
        #expect(transport.requests.count == 1)

        sdk.advance(to: 7)
        #expect(transport.requests.count == 2)
        #expect(transport.requests.last?.eventNames == ["a", "b"])
        #expect(sdk.joryio.getQueueSize() == 0)
        #expect(transport.issues.isEmpty)
    }

    @Test("429 with an HTTP-date Retry-After is honoured too")
    func retryAfterDate() {
        // The manual clock starts at Thu, 01 Jan 2026 00:00:00 GMT.
        let transport = StubTransport([
            .success(.json(429, "{}", headers: ["Retry-After": "Thu, 01 Jan 2026 00:00:12 GMT"])),
            .success(.ok),
        ])
        let sdk = TestSDK(transport: transport)
        sdk.start()
        sdk.joryio.track("a")
        sdk.joryio.flush()
        sdk.advance(to: 11.999)
        #expect(transport.requests.count == 1)
        sdk.advance(to: 12)
        #expect(transport.requests.count == 2)
    }

    @Test("BATCH-11: flush() during plain backoff (no Retry-After) sends at once")
    func flushSkipsBackoff() {
        let transport = StubTransport([.success(.json(503, "{}")), .success(.ok)])
        let sdk = TestSDK(transport: transport)
        sdk.start(config: JoryioConfig(retryBackoffMs: 60_000))
        sdk.joryio.track("a")
        sdk.joryio.flush()
        sdk.scheduler.runUntilIdle()
        sdk.advance(to: 2)
        #expect(transport.requests.count == 1)
        sdk.joryio.flush()
        sdk.scheduler.runUntilIdle()
        #expect(transport.requests.count == 2)
        #expect(sdk.elapsed == 2)
        #expect(sdk.joryio.getQueueSize() == 0)
        // The old backoff timer finds nothing to send.
        sdk.advance(to: 120)
        #expect(transport.requests.count == 2)
        #expect(transport.issues.isEmpty)
    }

    static let failures: [(Result<HTTPResponse, TransportError>, JoryioTransportError)] = [
        (.success(.json(429, "")), .http(status: 429, body: nil)),
        (.success(.json(500, "oops")), .http(status: 500, body: "oops")),
        (.success(.json(503, #"{"error":"down"}"#)), .http(status: 503, body: #"{"error":"down"}"#)),
        (.success(.json(404, "")), .http(status: 404, body: nil)),
        (.success(.json(200, #"{"success":false,"error":"busy"}"#)), .server(message: "busy")),
        (.failure(TransportError(.timeout, "10 s")), .timeout),
        (.failure(TransportError(.cannotConnect, "refused")), .network("TransportError(cannotConnect): refused")),
        (.failure(TransportError(.connectionLost, "reset")), .network("TransportError(connectionLost): reset")),
    ]

    @Test(
        "BATCH-16: 429, 5xx, timeouts and connection errors keep everything and set lastTransportError",
        arguments: Self.failures
    )
    func keepOnFailure(outcome: Result<HTTPResponse, TransportError>, expected: JoryioTransportError) {
        let transport = StubTransport([outcome, .success(.ok)])
        let sdk = TestSDK(transport: transport)
        sdk.start()
        sdk.track(eventNames(3))
        #expect(sdk.joryio.lastTransportError == nil)
        sdk.advance(to: 5)
        #expect(transport.requests.count == 1)
        #expect(sdk.joryio.getQueueSize() == 3)
        #expect(sdk.joryio.lastTransportError == expected)
        #expect(sdk.messages(at: .warning).contains { $0.contains("3 events failed") && $0.contains("all kept") })

        sdk.advance(to: 6)
        #expect(transport.requests.count == 2)
        #expect(transport.requests.map(\.eventNames) == [eventNames(3), eventNames(3)])
        #expect(sdk.joryio.getQueueSize() == 0)
        #expect(sdk.joryio.lastTransportError == nil)
        #expect(transport.issues.isEmpty)
    }
}
