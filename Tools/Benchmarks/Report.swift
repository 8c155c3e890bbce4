import Foundation

/// Everything one run measured, printed as a table (and a JSON line with `--json`).
struct Report {
    var latency: TrackLatencyBench.Result?
    var throughput: [ThroughputBench.Result] = []
    var flush: FlushBench.Result?
    var coldStart: ColdStartBench.Result?
    var memory: MemoryBench.Result?

    /// The throughput run the targets and JSON use: the largest.
    var headlineThroughput: ThroughputBench.Result? { self.throughput.max { $0.events < $1.events } }

    func printTable(options: BenchOptions, loadBefore: String, loadAfter: String) {
        print("joryio-bench \(options.quick ? "--quick " : "")on \(Machine.summary)")
        print("load average before: \(loadBefore); after: \(loadAfter)")
        print("transport: a fail-fast 503 stub (nothing is ever delivered) except the flush rows (sandbox, libcurl)")
        print("")
        var rows: [[String]] = [["measure", "value", "target", "met"]]
        func row(_ name: String, _ value: String, _ target: String = "", _ met: Bool? = nil) {
            rows.append([name, value, target, met.map { $0 ? "yes" : "NO" } ?? ""])
        }
        if let latency = self.latency {
            let calls = "\(latency.calls / 1000)k"
            row("track() p50, caller thread (\(calls) back to back)", Self.us(latency.p50), "≤ 2 µs", latency.p50 <= 2)
            row("track() p99", Self.us(latency.p99), "≤ 20 µs", latency.p99 <= 20)
            row("track() p99.9 / max", "\(Self.us(latency.p999)) / \(Self.us(latency.max))")
            row(
                "track() p50 / p99, idle engine (\(latency.pacedCalls) calls 200 µs apart)",
                "\(Self.us(latency.pacedP50)) / \(Self.us(latency.pacedP99))",
                "p50 ≤ 3 µs",
                latency.pacedP50 <= 3
            )
            row("  clock-read overhead in each sample", String(format: "%.0f ns", latency.clockOverheadNanoseconds))
        }
        for run in self.throughput.sorted(by: { $0.events < $1.events }) {
            let size = "\(run.events / 1000)k"
            let met = run.fractionOfRaw >= 0.6
            row(
                "events/s persisted, \(size) (first track → queue size)",
                Self.rate(run.eventsPerSecond),
                "≥ 60% of raw",
                met
            )
            row("  raw SQLite rows/s, same \(run.transactions) txns", Self.rate(run.raw.rowsPerSecond))
            row("  SDK / raw", String(format: "%.0f %%", run.fractionOfRaw * 100))
            row(
                "  CPU per event, SDK / raw (all threads)",
                String(format: "%.1f / %.1f µs", run.cpuMicrosecondsPerEvent, run.raw.cpuMicrosecondsPerRow)
            )
            row(
                "  caller loop / largest txn / sends",
                String(
                    format: "%.0f ms / %ld / %ld",
                    run.callerSeconds * 1000,
                    run.largestTransaction,
                    run.requestsDuringMeasurement
                )
            )
        }
        if let flush = self.flush {
            row("flush() of 500 events to sandbox (median of \(flush.rounds))", Self.ms(flush.flushMilliseconds))
            row(
                "  peek / serialize+gzip / HTTP exchange / delete",
                [flush.peekMilliseconds, flush.buildMilliseconds, flush.exchangeMilliseconds, flush.removeMilliseconds]
                    .map { String(format: "%.1f", $0) }.joined(separator: " / ") + " ms"
            )
            row("  round-trip floor (bodiless GET, same transport)", Self.ms(flush.floorMilliseconds))
            row("  gzip body / events accepted by sandbox", "\(flush.bodyBytes / 1024) KiB / \(flush.eventsAccepted)")
        }
        if let cold = self.coldStart {
            row(
                "initialize() → ready, \(cold.backlog / 1000)k backlog (median of \(cold.rounds))",
                Self.ms(cold.readyMilliseconds)
            )
            row("  of which inside initialize() (caller thread)", Self.ms(cold.initializeCallMilliseconds))
            row("  database size", String(format: "%.1f MB", Double(cold.databaseBytes) / 1_048_576))
        }
        if let memory = self.memory {
            let size = "\(memory.events / 1000)k"
            row(
                "RSS peak growth, \(size) queued back to back",
                Self.mb(memory.burst.peakGrowthMB),
                "≤ 10 MB",
                memory.burst.peakGrowthMB <= 10
            )
            row("  after persisting (settled)", Self.mb(memory.burst.settledGrowthMB))
            row(
                "RSS peak growth, \(size) queued 1,000 at a time",
                Self.mb(memory.paced.peakGrowthMB),
                "≤ 10 MB",
                memory.paced.peakGrowthMB <= 10
            )
            row("  baseline RSS", Self.mb(Double(memory.burst.baselineBytes) / 1_048_576))
        }
        Self.printAligned(rows)
    }

    /// The one-line JSON object (the last line of output with `--json`); missing figures are null.
    func jsonLine() -> String {
        func value(_ number: Double?, _ digits: Int) -> String {
            guard let number, number.isFinite else { return "null" }
            return String(format: "%.\(digits)f", number)
        }
        let head = self.headlineThroughput
        let fields: [(String, String)] = [
            ("track_p50_us", value(self.latency?.p50, 3)),
            ("track_p99_us", value(self.latency?.p99, 3)),
            ("track_idle_p50_us", value(self.latency?.pacedP50, 3)),
            ("events_per_s", value(head?.eventsPerSecond, 0)),
            ("raw_sqlite_rows_per_s", value(head?.raw.rowsPerSecond, 0)),
            ("fraction_of_raw", value(head?.fractionOfRaw, 3)),
            ("flush_500_ms", value(self.flush?.flushMilliseconds, 2)),
            ("cold_start_10k_ms", value(self.coldStart?.readyMilliseconds, 2)),
            ("rss_growth_100k_mb", value(self.memory?.burst.peakGrowthMB, 2)),
        ]
        return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }

    private static func us(_ value: Double) -> String { String(format: "%.2f µs", value) }
    private static func ms(_ value: Double) -> String { String(format: "%.2f ms", value) }
    private static func mb(_ value: Double) -> String { String(format: "%.1f MB", value) }
    private static func rate(_ value: Double) -> String { String(format: "%.0f /s", value) }

    private static func printAligned(_ rows: [[String]]) {
        var widths = [Int](repeating: 0, count: rows.first?.count ?? 0)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        for row in rows {
            let cells = row.enumerated().map { index, cell in
                cell + String(repeating: " ", count: widths[index] - cell.count)
            }
            var line = cells.joined(separator: "  ")
            while line.last == " " { line.removeLast() }
            print(line)
        }
    }
}

/// What the figures were taken on.
enum Machine {
    static var summary: String {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let cpu = Self.cpuModel ?? "unknown CPU"
        return "\(cores) cores, \(cpu), \(ProcessInfo.processInfo.operatingSystemVersionString)"
    }

    static var loadAverage: String {
        guard let text = readProcFile("/proc/loadavg") else { return "n/a" }
        return text.split(separator: " ").prefix(3).joined(separator: " ")
    }

    private static var cpuModel: String? {
        guard let text = readProcFile("/proc/cpuinfo") else { return nil }
        let line = text.split(separator: "\n").first { $0.hasPrefix("model name") }
        return line?.split(separator: ":", maxSplits: 1).last?.trimmingCharacters(in: .whitespaces)
    }
}
