public import Foundation
public import JoryioCore

/// A `Clock` that moves only when told to.
public final class ManualClock: Clock {
    private let current: Locked<Date>

    /// Creates a clock at `start` (by default 2026-01-01T00:00:00Z).
    public init(start: Date = Date(timeIntervalSince1970: 1_767_225_600)) {
        self.current = Locked(start)
    }

    /// The current time.
    public func now() -> Date {
        self.current.value
    }

    /// Moves the clock by `seconds` (negative values move it back, to test clock jumps).
    public func advance(by seconds: TimeInterval) {
        self.current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    /// Sets the clock to `date`.
    public func set(_ date: Date) {
        self.current.withLock { $0 = date }
    }
}
