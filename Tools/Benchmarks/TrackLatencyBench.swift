import Foundation
import Joryio

/// `track()` latency on the caller's thread, each call timed on its own.
enum TrackLatencyBench {
    struct Result {
        var calls: Int
        var p50: Double
        var p99: Double
        var p999: Double
        var max: Double
        var pacedCalls: Int
        var pacedP50: Double
        var pacedP99: Double
        /// The cost of the two clock reads around each call (included in every sample).
        var clockOverheadNanoseconds: Double
        var requestsDuringMeasurement: Int
    }

    /// Warm-up, then `calls` back-to-back calls (the engine persists on the other core meanwhile),
    /// then `pacedCalls` calls 200 µs apart, so the engine is idle and must be woken each time.
    static func run(warmup: Int, calls: Int, pacedCalls: Int) -> Result {
        let transport = FailFastTransport()
        let sdk = BenchSDK(directory: makeTemporaryDirectory("latency"), transport: transport)
        sdk.start()
        let properties = BenchEvent.makeProperties()
        sdk.track(warmup)
        guard sdk.waitForQueueSize(warmup) else { fatalError("latency: warm-up was not persisted") }
        sdk.drain()
        let requestsBefore = transport.requestCount

        var samples = [Double](repeating: 0, count: calls)
        samples.withUnsafeMutableBufferPointer { buffer in
            for index in 0..<calls {
                let start = Monotonic.nanoseconds()
                sdk.joryio.track(BenchEvent.name, properties: properties)
                let end = Monotonic.nanoseconds()
                buffer[index] = Double(end &- start) / 1000
            }
        }
        guard sdk.waitForQueueSize(warmup + calls, interval: 1e-3) else {
            fatalError("latency: events were not persisted")
        }
        sdk.drain()

        var paced = [Double](repeating: 0, count: pacedCalls)
        paced.withUnsafeMutableBufferPointer { buffer in
            for index in 0..<pacedCalls {
                Monotonic.spin(nanoseconds: 200_000)
                let start = Monotonic.nanoseconds()
                sdk.joryio.track(BenchEvent.name, properties: properties)
                let end = Monotonic.nanoseconds()
                buffer[index] = Double(end &- start) / 1000
            }
        }
        guard sdk.waitForQueueSize(warmup + calls + pacedCalls) else { fatalError("latency: paced events lost") }
        sdk.drain()
        let requests = transport.requestCount - requestsBefore
        let errors = sdk.logs.errorMessages
        precondition(errors.isEmpty, "latency: the SDK logged errors: \(errors.prefix(3))")
        sdk.close()

        let burst = Percentiles(samples)
        let idle = Percentiles(paced)
        return Result(
            calls: calls,
            p50: burst.median,
            p99: burst.value(99),
            p999: burst.value(99.9),
            max: burst.maximum,
            pacedCalls: pacedCalls,
            pacedP50: idle.median,
            pacedP99: idle.value(99),
            clockOverheadNanoseconds: Self.clockOverhead(),
            requestsDuringMeasurement: requests
        )
    }

    /// Median of back-to-back clock pairs, in nanoseconds.
    private static func clockOverhead() -> Double {
        var samples = [Double](repeating: 0, count: 10_000)
        for index in samples.indices {
            let start = Monotonic.nanoseconds()
            let end = Monotonic.nanoseconds()
            samples[index] = Double(end &- start)
        }
        return Percentiles(samples).median
    }
}
