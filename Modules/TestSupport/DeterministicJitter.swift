import JoryioCore
import JoryioDelivery

/// Backoff jitter a test controls: always the same number, or a seeded stream.
///
/// `.none` (0) means no reduction, so every backoff is exactly `base × 2^(n−1)`.
package struct DeterministicJitter: JitterSource {
    private enum Source {
        case constant(Double)
        case seeded(Locked<SplitMix64>)
    }

    private let source: Source

    /// No jitter: every backoff delay is the full one.
    package static let none = DeterministicJitter(value: 0)

    /// Jitter that is always `value` (in `0..<1`).
    package init(value: Double) {
        self.source = .constant(value)
    }

    /// Jitter drawn from a ``SplitMix64`` stream seeded with `seed`.
    package init(seed: UInt64) {
        self.source = .seeded(Locked(SplitMix64(seed: seed)))
    }

    /// The next number in `0..<1`.
    package func next() -> Double {
        switch self.source {
        case .constant(let value): value
        case .seeded(let generator): generator.withLock { Double.random(in: 0..<1, using: &$0) }
        }
    }
}
