package import Foundation
package import JoryioConsent
package import JoryioCore
package import JoryioFeature

/// The facade seam: everything a product's public members may use of an SDK instance, the way
/// ``FeatureContext`` is everything a feature may use of the engine.
///
/// A product module (push, in-app, e-commerce, geozones) adds its members to ``Joryio`` in an
/// extension and reaches the instance only through `self.facade`:
///
/// ```swift
/// extension Joryio {
///     public func resetDisplayedCampaigns() {
///         self.facade.submit(to: InAppFeature.self) { $0.resetDisplayed() }
///     }
///     public func getDeviceToken() -> String? {
///         self.facade[PushFeature.publishedToken]
///     }
/// }
/// ```
///
/// - **Jobs**: ``submit(_:to:_:)`` runs a body with one feature on the engine's executor, in order
///   with every other call (kept until `initialize()` like any call); ``ask(_:otherwise:_:)`` waits
///   for a feature's answer. No live feature object ever reaches the caller's thread.
/// - **Values**: typed ``InstanceSlot``s the facade sets (an app's presenter) and features publish
///   from the executor (the device token), read from any thread (``subscript(_:)``).
/// - **Events**: ``track(_:values:)``, the same journal, limits and consent gate as `track()`.
/// - **Time and logs**: ``now``, ``scheduleDeadline(after:_:)``, ``warn(_:)``, ``inform(_:)``.
/// - **Initialization**: ``isStarted``, ``whenInitializationRefused(_:)``, and
///   ``attachFeature(once:_:)`` for a separately linked product.
package struct FacadeContext: Sendable {
    private let joryio: Joryio

    init(_ joryio: Joryio) {
        self.joryio = joryio
    }

    // MARK: - Jobs

    /// Runs `body` with the feature of type `type` on the engine, in order with every call, or
    /// keeps it until `initialize()` like any call. Nothing runs when the product's catalog has no
    /// such feature. `kind` is what the consent gate checks before `initialize()`: a call of a kind
    /// the decisions made so far drop is dropped at once (INIT-8), and a later opt-out, denial or
    /// wipe drops it from the list; `nil` is never dropped there (the feature gates what it
    /// collects itself).
    package func submit<Feature: EngineFeature>(
        _ kind: CallKind? = nil,
        to type: Feature.Type,
        _ body: @escaping @Sendable (Feature) -> Void
    ) {
        self.joryio.submit(kind) { engine in
            if let feature = engine.features.first(type) { body(feature) }
        }
    }

    /// Runs `body` with the whole feature list on the engine, in order with every call (for a call
    /// that reaches two features, a push that syncs in-app), or keeps it until `initialize()`.
    package func submitToFeatures(_ body: @escaping @Sendable (FeatureList) -> Void) {
        self.joryio.submit { engine in body(engine.features) }
    }

    /// Runs `body` with the feature of type `type` on the engine and returns what it hands to
    /// `answer` (called once, on any thread: later calls are ignored). Returns `otherwise` at once
    /// before `initialize()` (nothing is kept for a start that may never come) and when the
    /// product's catalog has no such feature.
    package func ask<Feature: EngineFeature, Answer: Sendable>(
        _ type: Feature.Type,
        otherwise: Answer,
        _ body: @escaping @Sendable (Feature, _ answer: @escaping @Sendable (Answer) -> Void) -> Void
    ) async -> Answer {
        guard self.isStarted else { return otherwise }
        return await Self.once { answer in
            self.joryio.submit { engine in
                guard let feature = engine.features.first(type) else { return answer(otherwise) }
                body(feature, answer)
            }
        }
    }

    /// Returns the first value `start` hands to the `answer` it is given; later calls of it do
    /// nothing. For a call whose completion is a callback (a queued job that reports when done).
    package static func once<Answer: Sendable>(
        _ start: (_ answer: @escaping @Sendable (Answer) -> Void) -> Void
    ) async -> Answer {
        await withCheckedContinuation { (continuation: CheckedContinuation<Answer, Never>) in
            let pending = Locked<CheckedContinuation<Answer, Never>?>(continuation)
            start { value in
                let waiting = pending.withLock { waiting in
                    defer { waiting = nil }
                    return waiting
                }
                waiting?.resume(returning: value)
            }
        }
    }

    // MARK: - Values

    /// The value in `slot` on this instance: set by the facade, or published by a feature
    /// (``FeatureContext/publish(_:_:)``). Any thread; `nil` when none is set.
    package subscript<Value>(_ slot: InstanceSlot<Value>) -> Value? {
        get { self.joryio.slots[slot] }
        nonmutating set { self.joryio.slots[slot] = newValue }
    }

    /// Runs `body` with the value in `slot` while no other access to this instance's slots runs,
    /// keeping what it leaves there (make a value once). `body` must not touch the slots itself.
    @discardableResult
    package func update<Value, Result>(_ slot: InstanceSlot<Value>, _ body: (inout Value?) -> Result) -> Result {
        self.joryio.slots.update(slot, body)
    }

    // MARK: - Events

    /// `track()` for a product's typed calls (e-commerce), whose properties are already values:
    /// the same limits, the same journal, the same consent gate.
    package func track(_ name: String, values: [String: JSONValue]) {
        self.joryio.track(name, values: values)
    }

    // MARK: - Time and logs

    /// The time now, by the SDK's clock (virtual in tests): when a facade call was made, read on
    /// the caller's thread.
    package var now: Date {
        self.joryio.environment.clock.now()
    }

    /// Runs `work` after `delay` seconds on the deadline queue, apart from the engine's executor so
    /// a busy engine cannot hold it back; on virtual time in tests.
    @discardableResult
    package func scheduleDeadline(after delay: TimeInterval, _ work: @escaping @Sendable () -> Void) -> any Cancellable
    {
        (self.joryio.environment.deadlines ?? self.joryio.environment.scheduler).schedule(after: delay, work)
    }

    /// Logs a warning about a call's input through the engine, in order with the calls (kept
    /// until `initialize()`, at most ``Joryio/preInitLogCapacity`` of them).
    package func warn(_ message: String) {
        self.joryio.warn(message)
    }

    /// Logs an informational line through the engine, in order with the calls.
    package func inform(_ message: String) {
        self.joryio.inform(message)
    }

    // MARK: - Initialization

    /// Whether `initialize()` made the engine (calls now run on it rather than wait).
    package var isStarted: Bool {
        self.joryio.state.withLock { $0.engine != nil }
    }

    /// Calls `answer` with the reason when `initialize()` refused (or refuses) its SDK key or host
    /// while no engine runs: at once when the last call was refused, otherwise at the refusal.
    /// Nothing happens once the SDK started. For calls that must answer at once (PUSH-14).
    package func whenInitializationRefused(_ answer: @escaping @Sendable (String) -> Void) {
        self.joryio.whenInitializationRefused(answer)
    }

    /// Attaches the feature `make` builds, once per instance and `slot` (a separately linked
    /// product, which no catalog holds): the first call attaches, in order with every call (kept
    /// until `initialize()`), later ones do nothing. Returns whether this call attached it.
    @discardableResult
    package func attachFeature(
        once slot: InstanceSlot<Bool>,
        _ make: @escaping @Sendable (FeatureSetup, FeatureContext) -> any EngineFeature
    ) -> Bool {
        self.joryio.attachFeature(once: slot, make)
    }
}

extension Joryio {
    /// The facade seam (``FacadeContext``): how a product's public members reach this instance.
    package var facade: FacadeContext {
        FacadeContext(self)
    }
}
