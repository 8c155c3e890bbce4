import Foundation

/// Peak RSS growth while 100,000 events are queued, each variant in a fresh child process (this
/// binary with `--rss-child`), so heap left over from other benchmarks cannot hide or add growth.
enum MemoryBench {
    enum Pace: String {
        /// Every `track()` back to back: the engine falls behind and calls wait in its queue.
        case burst
        /// 1,000 at a time, each chunk persisted before the next: only the queue itself grows.
        case paced
    }

    struct Sample: Codable {
        var baselineBytes: Int
        var peakBytes: Int
        var afterBytes: Int
        var peakGrowthMB: Double { Double(self.peakBytes - self.baselineBytes) / 1_048_576 }
        var settledGrowthMB: Double { Double(self.afterBytes - self.baselineBytes) / 1_048_576 }
    }

    struct Result {
        var events: Int
        var burst: Sample
        var paced: Sample
    }

    static let childFlag = "--rss-child"

    static func run(events: Int) throws -> Result {
        Result(
            events: events,
            burst: try Self.spawn(events: events, pace: .burst),
            paced: try Self.spawn(events: events, pace: .paced)
        )
    }

    /// The child's body: initialize, warm up with 100 events, take the baseline, queue `events`.
    static func child(events: Int, pace: Pace) -> Sample {
        let sdk = BenchSDK(directory: makeTemporaryDirectory("rss-\(pace.rawValue)"), transport: FailFastTransport())
        sdk.start()
        let warmup = 100
        sdk.track(warmup)
        guard sdk.waitForQueueSize(warmup) else { fatalError("rss: warm-up was not persisted") }
        sdk.drain()
        guard ProcessMemory.resetPeak(), let baseline = ProcessMemory.residentBytes() else {
            fatalError("rss: /proc/self/status or /proc/self/clear_refs is unavailable")
        }
        switch pace {
        case .burst:
            sdk.track(events)
        case .paced:
            var queued = 0
            while queued < events {
                let chunk = min(1000, events - queued)
                sdk.track(chunk)
                queued += chunk
                guard sdk.waitForQueueSize(warmup + queued, interval: 200e-6) else {
                    fatalError("rss: a chunk was not persisted")
                }
            }
        }
        guard sdk.waitForQueueSize(warmup + events, interval: 1e-3) else {
            fatalError("rss: events were not persisted")
        }
        sdk.drain()
        let peak = ProcessMemory.peakResidentBytes() ?? 0
        let after = ProcessMemory.residentBytes() ?? 0
        precondition(sdk.logs.errorMessages.isEmpty, "rss: the SDK logged errors: \(sdk.logs.errorMessages.prefix(3))")
        sdk.close()
        return Sample(baselineBytes: baseline, peakBytes: peak, afterBytes: after)
    }

    private static func spawn(events: Int, pace: Pace) throws -> Sample {
        let process = Process()
        process.executableURL = URL(
            fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        )
        process.arguments = [Self.childFlag, String(events), pace.rawValue]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0,
            let line = String(decoding: data, as: UTF8.self).split(separator: "\n").last,
            let sample = try? JSONDecoder().decode(Sample.self, from: Data(line.utf8))
        else {
            throw BenchError("rss child (\(pace.rawValue)) failed with status \(process.terminationStatus)")
        }
        return sample
    }
}

/// A benchmark that could not run.
struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
