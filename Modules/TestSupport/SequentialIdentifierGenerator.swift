public import JoryioCore

/// Deterministic identifiers shaped like UUIDs: `00000000-0000-4000-8000-000000000001`, then `…02`.
public final class SequentialIdentifierGenerator: IdentifierGenerator {
    private let counter: Locked<UInt64>

    /// Creates a generator whose first identifier ends in `first`.
    public init(first: UInt64 = 1) {
        self.counter = Locked(first)
    }

    /// The next identifier in sequence.
    public func next() -> String {
        let value = self.counter.withLock { counter in
            defer { counter += 1 }
            return counter
        }
        let hex = String(value, radix: 16)
        let padded = String(repeating: "0", count: max(0, 12 - hex.count)) + hex
        return "00000000-0000-4000-8000-" + padded
    }
}
