package import Foundation
package import JoryioCore
package import JoryioFeature

/// What a product's facade calls use beyond ``submit(to:_:)``: the whole feature list on the
/// engine, the SDK's clock, and deadlines that fire while the engine is busy.
extension Joryio {
    /// Runs `body` with the engine's features, on the engine, in order with every call, or keeps it
    /// until `initialize()` like any call (never dropped by the pre-init consent gate: the features
    /// it reaches gate what they collect themselves).
    package func submit(toFeatures body: @escaping @Sendable (FeatureList) -> Void) {
        self.submit { engine in body(engine.features) }
    }

    /// Whether `initialize()` made the engine (calls now run on it rather than wait).
    package var isStarted: Bool {
        self.state.withLock { $0.engine != nil }
    }

    /// The time now, by the SDK's clock (virtual in tests).
    package var currentTime: Date {
        self.environment.clock.now()
    }

    /// Runs `work` after `delay` seconds on the deadline queue, apart from the engine's executor so
    /// a busy engine cannot hold it back; on virtual time in tests.
    @discardableResult
    package func scheduleDeadline(after delay: TimeInterval, _ work: @escaping @Sendable () -> Void) -> any Cancellable
    {
        (self.environment.deadlines ?? self.environment.scheduler).schedule(after: delay, work)
    }
}
