import Foundation
import Joryio

/// `initialize()` over a queue left by an earlier instance, until the engine has published its size.
enum ColdStartBench {
    struct Result {
        var backlog: Int
        var rounds: Int
        /// `initialize()` until `getQueueSize()` reports the backlog.
        var readyMilliseconds: Double
        /// Of which the caller spent inside `initialize()` (it opens the stores synchronously).
        var initializeCallMilliseconds: Double
        var databaseBytes: Int
    }

    /// A first instance queues `backlog` events and closes its file; then each round a new instance
    /// over the same directory is initialized and timed. The file is in the page cache (warm start of
    /// the process, cold start of the SDK).
    static func run(backlog: Int, rounds: Int) -> Result {
        let directory = makeTemporaryDirectory("cold-start")
        let seed = BenchSDK(directory: directory, transport: FailFastTransport())
        seed.start()
        seed.track(backlog)
        guard seed.waitForQueueSize(backlog) else { fatalError("cold start: the backlog was not persisted") }
        seed.close()
        let databaseBytes = Self.databaseBytes(in: directory)

        var ready: [Double] = []
        var calls: [Double] = []
        for round in 0..<rounds {
            let sdk = BenchSDK(directory: directory, transport: FailFastTransport())
            let config = sdk.config()
            let start = Monotonic.nanoseconds()
            sdk.joryio.initialize(sdkKey: BenchSDK.sdkKey, apiHost: "https://api.bench.invalid/api", config: config)
            let returned = Monotonic.nanoseconds()
            guard sdk.waitForQueueSize(backlog, timeout: 60) else {
                fatalError("cold start: round \(round) never reported \(backlog): \(sdk.logs.errorMessages.prefix(3))")
            }
            let end = Monotonic.nanoseconds()
            ready.append(Monotonic.milliseconds(from: start, to: end))
            calls.append(Monotonic.milliseconds(from: start, to: returned))
            let errors = sdk.logs.errorMessages
            precondition(errors.isEmpty, "cold start: the SDK logged errors: \(errors.prefix(3))")
            sdk.close()
        }
        return Result(
            backlog: backlog,
            rounds: rounds,
            readyMilliseconds: median(ready),
            initializeCallMilliseconds: median(calls),
            databaseBytes: databaseBytes
        )
    }

    private static func databaseBytes(in directory: URL) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.contains(".sqlite") }.reduce(0) { total, name in
            let path = directory.appendingPathComponent(name).path
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            return total + size
        }
    }
}
