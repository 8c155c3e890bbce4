import Foundation

#if canImport(Glibc)
import Glibc
#endif

// joryio-bench: the SDK's performance figures in one run (docs/performance.md).
// `swift run -c release joryio-bench [--json] [--quick] [--only PHASE]`. Never run in CI tests.

// The sandbox is on loopback; never route it through a proxy (as the Makefile does for tests).
setenv("NO_PROXY", "127.0.0.1,localhost,::1", 1)
setenv("no_proxy", "127.0.0.1,localhost,::1", 1)

let arguments = Array(CommandLine.arguments.dropFirst())

// Child process of the memory benchmark: `--rss-child EVENTS burst|paced`, prints one JSON line.
if arguments.first == MemoryBench.childFlag {
    guard arguments.count == 3, let events = Int(arguments[1]), let pace = MemoryBench.Pace(rawValue: arguments[2])
    else {
        exit(64)
    }
    let sample = MemoryBench.child(events: events, pace: pace)
    removeTemporaryDirectories()
    let line = String(decoding: try JSONEncoder().encode(sample), as: UTF8.self)
    print(line)
    exit(0)
}

guard let options = BenchOptions.parse(arguments) else {
    FileHandle.standardError.write(Data((BenchOptions.usage + "\n").utf8))
    exit(64)
}

#if DEBUG
FileHandle.standardError.write(
    Data("warning: a debug build; run `swift run -c release joryio-bench` for real figures\n".utf8)
)
#endif

/// Progress goes to stderr so stdout stays the table (and the JSON line).
func progress(_ message: String) {
    FileHandle.standardError.write(Data("… \(message)\n".utf8))
}

progress("product: \(BenchProduct.current.rawValue) (--product analytics|joryio)")
let loadBefore = Machine.loadAverage
var report = Report()
do {
    if options.phases.contains(.latency) {
        progress("track() latency: \(options.latencyCalls) calls after \(options.latencyWarmup) warm-up")
        report.latency = TrackLatencyBench.run(
            warmup: options.latencyWarmup,
            calls: options.latencyCalls,
            pacedCalls: options.pacedCalls
        )
    }
    if options.phases.contains(.throughput) {
        for size in options.throughputSizes {
            progress("throughput: \(size) events, then the raw SQLite baseline")
            report.throughput.append(ThroughputBench.run(events: size, warmup: options.throughputWarmup))
        }
    }
    if options.phases.contains(.flush) {
        progress("flush: 500 events to the sandbox × \(options.flushRounds)")
        report.flush = try FlushBench.run(rounds: options.flushRounds)
    }
    if options.phases.contains(.cold) {
        progress("cold start: \(options.coldBacklog)-event backlog × \(options.coldRounds)")
        report.coldStart = ColdStartBench.run(backlog: options.coldBacklog, rounds: options.coldRounds)
    }
    if options.phases.contains(.rss) {
        progress("memory: \(options.rssEvents) events, in child processes")
        report.memory = try MemoryBench.run(events: options.rssEvents)
    }
} catch {
    FileHandle.standardError.write(Data("joryio-bench: \(error)\n".utf8))
    removeTemporaryDirectories()
    exit(1)
}
removeTemporaryDirectories()

report.printTable(options: options, loadBefore: loadBefore, loadAfter: Machine.loadAverage)
if options.json {
    print(report.jsonLine())
}
