public import Foundation

/// A source of wall-clock time.
///
/// The SDK never calls `Date()` directly: every timestamp comes from the injected clock, so tests
/// run on virtual time.
public protocol Clock: Sendable {
    /// The current time.
    func now() -> Date
}

/// The real wall clock.
public struct SystemClock: Clock {
    /// Creates the system clock.
    public init() {}

    /// The current time, from the operating system.
    public func now() -> Date {
        Date()
    }
}
