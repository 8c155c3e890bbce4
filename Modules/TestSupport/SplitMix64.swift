/// SplitMix64 (Steele, Lea, Flood 2014): a tiny seeded generator that yields the same sequence on
/// every platform, so a failing random input or a simulation seed replays exactly.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator; the same `seed` always gives the same numbers.
    package init(seed: UInt64) {
        self.state = seed
    }

    /// The next 64 random bits.
    package mutating func next() -> UInt64 {
        self.state &+= 0x9E37_79B9_7F4A_7C15
        var z = self.state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
