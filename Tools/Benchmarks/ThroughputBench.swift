import Foundation
import Joryio
import JoryioCore

/// Sustained events/s persisted to SQLite, and the raw-SQLite limit for the same rows.
enum ThroughputBench {
    struct Result {
        var events: Int
        /// First `track()` until `getQueueSize()` shows every event persisted.
        var seconds: Double
        /// How long the caller spent in the `track()` loop.
        var callerSeconds: Double
        var transactions: Int
        var largestTransaction: Int
        var requestsDuringMeasurement: Int
        /// Process CPU time (all threads) per event while the SDK persisted them.
        var cpuMicrosecondsPerEvent: Double
        var raw: RawSQLiteBaseline.Result
        var eventsPerSecond: Double { Double(self.events) / self.seconds }
        var fractionOfRaw: Double { self.eventsPerSecond / self.raw.rowsPerSecond }
    }

    /// Warm-up (which also takes the one 503 send), then `events` back to back; then the raw
    /// baseline replays exactly the transactions the SDK committed, with the payloads it stored.
    static func run(events: Int, warmup: Int) -> Result {
        let transport = FailFastTransport()
        let sdk = BenchSDK(directory: makeTemporaryDirectory("throughput-\(events)"), transport: transport)
        sdk.start()
        sdk.track(warmup)
        guard sdk.waitForQueueSize(warmup) else { fatalError("throughput: warm-up was not persisted") }
        sdk.drain()
        guard let recorder = sdk.recorder, let store = sdk.events else { fatalError("throughput: no store") }
        recorder.reset()
        let requestsBefore = transport.requestCount

        let cpuStart = processCPUMicroseconds()
        let start = Monotonic.nanoseconds()
        sdk.track(events)
        let callerDone = Monotonic.nanoseconds()
        // Polled every 0.5 ms: at most 0.5 ms late on a run of 0.5 s or more, without taking
        // CPU from the engine.
        guard sdk.waitForQueueSize(warmup + events, interval: 500e-6) else {
            fatalError("throughput: events were not persisted")
        }
        let end = Monotonic.nanoseconds()
        let cpu = processCPUMicroseconds() - cpuStart
        sdk.drain()

        let batches = recorder.batchSizes
        precondition(batches.reduce(0, +) == events, "throughput: commits cover \(batches.reduce(0, +)) of \(events)")
        let stored: [Data]
        do {
            let count = try store.count()
            precondition(count == warmup + events, "throughput: the store holds \(count), not \(warmup + events)")
            stored = try store.peek(limit: warmup + events, maxBytes: .max).map(\.payload)
        } catch {
            fatalError("throughput: cannot read the stored events back: \(error)")
        }
        let requests = transport.requestCount - requestsBefore
        let errors = sdk.logs.errorMessages
        precondition(errors.isEmpty, "throughput: the SDK logged errors: \(errors.prefix(3))")
        sdk.close()

        let raw = RawSQLiteBaseline.run(
            payloads: Array(stored[warmup...]),
            batches: batches,
            warmup: Array(stored[..<warmup])
        )
        return Result(
            events: events,
            seconds: Monotonic.seconds(from: start, to: end),
            callerSeconds: Monotonic.seconds(from: start, to: callerDone),
            transactions: batches.count,
            largestTransaction: batches.max() ?? 0,
            requestsDuringMeasurement: requests,
            cpuMicrosecondsPerEvent: cpu / Double(events),
            raw: raw
        )
    }
}
