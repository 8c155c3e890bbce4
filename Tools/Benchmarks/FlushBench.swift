import Foundation
import Joryio
import JoryioCore
import JoryioTesting
import JoryioTransport

/// One `flush()` of 500 queued events to the local sandbox over libcurl.
enum FlushBench {
    struct Result {
        var rounds: Int
        /// `flush()` until `getQueueSize()` is 0: peek, serialize, gzip, HTTP exchange, delete.
        var flushMilliseconds: Double
        /// Of which: reading the 500 rows (`peek`).
        var peekMilliseconds: Double
        /// Of which: serialize + gzip (end of `peek` until the request reaches the transport).
        var buildMilliseconds: Double
        /// Of which: the libcurl exchange with the sandbox (send until completion).
        var exchangeMilliseconds: Double
        /// Of which: deleting the 500 rows.
        var removeMilliseconds: Double
        /// A bodiless `GET /_sandbox/health` over the same libcurl transport: the round-trip floor
        /// (libcurl, loopback, the Python server's per-request cost).
        var floorMilliseconds: Double
        var bodyBytes: Int
        var eventsAccepted: Int
    }

    /// Each round: with the gate closed, track 500 events (the batch-size send gets a fast 503 and
    /// the uploader backs off); open the gate and time `flush()`, which skips the SDK's own backoff.
    static func run(rounds: Int, eventsPerFlush: Int = 500) throws -> Result {
        let sandbox = try SandboxServer()
        defer { sandbox.stop() }
        let curl = CurlTransport()
        defer { curl.close() }
        let gate = GatedTransport(inner: curl)
        let sdk = BenchSDK(directory: makeTemporaryDirectory("flush"), transport: gate)
        sdk.start(apiHost: sandbox.apiHost.absoluteString)
        guard let recorder = sdk.recorder else { fatalError("flush: no store") }

        var totals: [Double] = []
        var peeks: [Double] = []
        var builds: [Double] = []
        var removes: [Double] = []
        for round in 0..<rounds {
            gate.isOpen = false
            let rejected = gate.rejectedCount
            sdk.track(eventsPerFlush)
            guard sdk.waitForQueueSize(eventsPerFlush), waitUntil(timeout: 60, { gate.rejectedCount > rejected }) else {
                fatalError("flush: round \(round) did not queue its events")
            }
            sdk.drain()
            recorder.reset()
            gate.isOpen = true

            let start = Monotonic.nanoseconds()
            sdk.joryio.flush()
            guard sdk.waitForQueueSize(0, timeout: 60) else {
                fatalError(
                    "flush: round \(round) did not deliver: \(String(describing: sdk.joryio.lastTransportError))"
                )
            }
            let end = Monotonic.nanoseconds()
            sdk.drain()
            totals.append(Monotonic.milliseconds(from: start, to: end))
            if let peek = recorder.peeks.first, let remove = recorder.removes.first,
                let exchange = gate.exchangeMilliseconds.last
            {
                peeks.append(Monotonic.milliseconds(from: peek.start, to: peek.end))
                removes.append(Monotonic.milliseconds(from: remove.start, to: remove.end))
                // Between the end of peek and the start of remove: build + exchange + hop back to the engine.
                let gap = Monotonic.milliseconds(from: peek.end, to: remove.start)
                builds.append(max(0, gap - exchange))
            }
        }
        let floor = try Self.roundTrips(curl, url: sandbox.baseURL.appendingPathComponent("_sandbox/health"), count: 9)
        let accepted = try sandbox.events().count
        let errors = sdk.logs.errorMessages
        precondition(errors.isEmpty, "flush: the SDK logged errors: \(errors.prefix(3))")
        sdk.close()
        return Result(
            rounds: rounds,
            flushMilliseconds: median(totals),
            peekMilliseconds: median(peeks),
            buildMilliseconds: median(builds),
            exchangeMilliseconds: median(gate.exchangeMilliseconds),
            removeMilliseconds: median(removes),
            floorMilliseconds: median(floor),
            bodyBytes: Int(median(gate.forwardedBodyBytes.map(Double.init))),
            eventsAccepted: accepted
        )
    }

    /// Milliseconds of `count` sequential GETs of `url` through `transport`.
    private static func roundTrips(_ transport: CurlTransport, url: URL, count: Int) throws -> [Double] {
        var times: [Double] = []
        for _ in 0..<count {
            let done = DispatchSemaphore(value: 0)
            let status = Locked(0)
            let start = Monotonic.nanoseconds()
            transport.send(HTTPRequest(method: "GET", url: url, timeout: 10)) { result in
                status.withLock { $0 = (try? result.get().status) ?? -1 }
                done.signal()
            }
            done.wait()
            times.append(Monotonic.milliseconds(from: start, to: Monotonic.nanoseconds()))
            guard status.value == 200 else { throw BenchError("GET \(url.path) answered \(status.value)") }
        }
        return times
    }
}
