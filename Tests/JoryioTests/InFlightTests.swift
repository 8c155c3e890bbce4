import Foundation
import Joryio
import JoryioCore
import JoryioTesting
import Testing

/// One request at a time: what happens to triggers that arrive while a request is on the wire.
@Suite struct InFlightTests {
    /// Completions held back until the test releases them, like a slow network.
    final class Held: Sendable {
        private let work = Locked<[@Sendable () -> Void]>([])

        /// How many responses are waiting.
        var count: Int { self.work.value.count }

        /// Keeps `completion` for later.
        func hold(_ completion: @escaping @Sendable () -> Void) {
            self.work.withLock { $0.append(completion) }
        }

        /// Delivers the oldest held response.
        func releaseFirst() {
            let first = self.work.withLock { $0.isEmpty ? nil : $0.removeFirst() }
            first?()
        }
    }

    private func slowSDK(_ script: [Result<HTTPResponse, TransportError>]) -> (TestSDK, StubTransport, Held) {
        let held = Held()
        let transport = StubTransport(script) { held.hold($0) }
        return (TestSDK(transport: transport), transport, held)
    }

    @Test("a full batch recorded while a request is in flight leaves right after it")
    func sizeWhileBusy() {
        let (sdk, transport, held) = self.slowSDK([.success(.ok), .success(.ok)])
        sdk.start()
        sdk.track(eventNames(50))
        sdk.track(eventNames(50, from: 50))
        #expect(transport.requests.count == 1, "one request at a time")
        #expect(sdk.joryio.getQueueSize() == 100)

        held.releaseFirst()
        sdk.scheduler.runUntilIdle()
        #expect(transport.requests.map(\.eventNames) == [eventNames(50), eventNames(50, from: 50)])
        held.releaseFirst()
        sdk.scheduler.runUntilIdle()
        #expect(sdk.joryio.getQueueSize() == 0)
        #expect(held.count == 0)
        #expect(transport.issues.isEmpty)
    }

    @Test("flush() during a request sends the events it stored right after that request")
    func flushWhileBusy() {
        let (sdk, transport, held) = self.slowSDK([.success(.ok), .success(.ok)])
        sdk.start()
        sdk.track(eventNames(3))
        sdk.joryio.flush()
        sdk.scheduler.runUntilIdle()
        sdk.joryio.track("d")
        sdk.joryio.flush()
        sdk.scheduler.runUntilIdle()
        #expect(transport.requests.count == 1)

        held.releaseFirst()
        sdk.scheduler.runUntilIdle()
        #expect(transport.requests.map(\.eventNames) == [eventNames(3), ["d"]])
        held.releaseFirst()
        sdk.scheduler.runUntilIdle()
        #expect(sdk.joryio.getQueueSize() == 0)
        #expect(sdk.elapsed == 0)
    }

    @Test("the flush interval elapsing during a request sends the rest right after it")
    func intervalWhileBusy() {
        let (sdk, transport, held) = self.slowSDK([.success(.ok), .success(.ok)])
        sdk.start()
        sdk.track(eventNames(50))
        sdk.advance(to: 1)
        sdk.track(eventNames(10, from: 50))
        sdk.advance(to: 6)
        #expect(transport.requests.count == 1)

        held.releaseFirst()
        sdk.scheduler.runUntilIdle()
        #expect(transport.requests.map(\.eventNames) == [eventNames(50), eventNames(10, from: 50)])
        #expect(sdk.elapsed == 6)
    }

    @Test("a 503 for the request in flight is not skipped by a flush() made meanwhile with Retry-After")
    func flushWhileBusyThenRetryAfter() {
        let (sdk, transport, held) = self.slowSDK([
            .success(.json(503, "{}", headers: ["Retry-After": "7"])),
            .success(.ok),
        ])
        sdk.start()
        sdk.track(eventNames(50))
        sdk.joryio.flush()
        sdk.scheduler.runUntilIdle()
        held.releaseFirst()
        sdk.scheduler.runUntilIdle()
        sdk.advance(to: 6.999)
        #expect(transport.requests.count == 1)
        sdk.advance(to: 7)
        #expect(transport.requests.count == 2)
    }

    @Test("a flush() that waited for Retry-After sends when it ends, even if the SDK's own backoff is longer")
    func flushWaitsOnlyForRetryAfter() {
        let unavailable = Result<HTTPResponse, TransportError>.success(.json(503, "{}"))
        let transport = StubTransport([
            unavailable, unavailable, unavailable,  // t = 0, 1, 3
            .success(.json(503, "{}", headers: ["Retry-After": "2"])),  // t = 7: backoff 8 s, Retry-After 2 s
            .success(.ok),
        ])
        let sdk = TestSDK(transport: transport)
        sdk.start(config: JoryioConfig(maxRetries: 3))
        sdk.joryio.track("a")
        sdk.joryio.flush()
        sdk.advance(to: 7)
        #expect(transport.requests.count == 4)

        sdk.advance(to: 8)
        sdk.joryio.flush()
        sdk.advance(to: 8.999)
        #expect(transport.requests.count == 4, "Retry-After binds flush() too")
        sdk.advance(to: 9)
        #expect(transport.requests.count == 5, "but the SDK's own backoff (until 15 s) does not")
        #expect(sdk.joryio.getQueueSize() == 0)
        #expect(transport.issues.isEmpty)
    }
}
