import Foundation

/// Command line: `joryio-bench [--json] [--quick] [--only latency|throughput|flush|cold|rss]
/// [--product analytics|joryio]`.
struct BenchOptions {
    enum Phase: String, CaseIterable {
        case latency, throughput, flush, cold, rss
    }

    var json = false
    var quick = false
    var phases = Set(Phase.allCases)

    var latencyWarmup: Int { self.quick ? 1_000 : 10_000 }
    var latencyCalls: Int { self.quick ? 10_000 : 100_000 }
    var pacedCalls: Int { self.quick ? 500 : 5_000 }
    var throughputWarmup: Int { 1_000 }
    var throughputSizes: [Int] { self.quick ? [2_000, 10_000] : [20_000, 100_000] }
    var coldBacklog: Int { self.quick ? 1_000 : 10_000 }
    var coldRounds: Int { self.quick ? 3 : 5 }
    var flushRounds: Int { self.quick ? 3 : 7 }
    var rssEvents: Int { self.quick ? 10_000 : 100_000 }

    static let usage =
        "usage: joryio-bench [--json] [--quick] [--only latency|throughput|flush|cold|rss] [--product analytics|joryio]"

    /// Parses the arguments; `nil` (after printing usage) when they are wrong.
    static func parse(_ arguments: [String]) -> BenchOptions? {
        var options = BenchOptions()
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--json": options.json = true
            case "--quick": options.quick = true
            case "--only":
                guard let name = rest.popFirst(), let phase = Phase(rawValue: name) else { return nil }
                options.phases = [phase]
            case "--product":
                guard let name = rest.popFirst(), let product = BenchProduct(rawValue: name) else { return nil }
                setenv(BenchProduct.environmentKey, product.rawValue, 1)
            default: return nil
            }
        }
        return options
    }
}
