package import JoryioDelivery

/// A piece of the SDK that lives on the engine: the delivery channels today, push, in-app and
/// e-commerce as they arrive.
///
/// The engine owns one ordered list of features and calls every hook on its executor, in
/// registration order. A feature keeps its own state, reaches the rest of the SDK only through the
/// ``FeatureContext`` it was made with, and never sends anything from ``start()``: sending begins
/// with the first ``privacyChanged(_:)`` of ``PrivacyChange/applied(_:)``, after the launch's
/// pre-init decisions (opt-out, denial, wipe) were applied (INIT-10, INIT-17).
///
/// Every hook has an empty default, so a feature implements only what it reacts to. Adding a
/// feature is a module with a conforming type plus one ``FeatureRegistration`` line in the
/// composition root; the engine itself does not change.
package protocol EngineFeature: AnyObject, Sendable {
    /// Loads what earlier launches stored. Nothing is sent yet.
    func start()

    /// The consent × opt-out state changed, or was applied at start.
    func privacyChanged(_ change: PrivacyChange)

    /// The current identity changed: identify, reset, a user switch, wipe.
    func identityChanged(_ change: IdentityChange)

    /// SDK-auth tokens changed: requests held for a token may go again (AUTH-9).
    func authorizationChanged()

    /// The app moved between foreground and background, or the process ends.
    func lifecycle(_ event: LifecycleEvent)

    /// `wipeData()`: delete everything this feature stored except withdrawals (WIPE-1, WIPE-6).
    func wipe()

    /// Events were delivered (or the queue became empty): writes waiting for them may go (DURABLE-7).
    func eventsDelivered()

    /// Users with items still waiting here, whose SDK-auth tokens must be kept (AUTH-5).
    var usersWithPendingItems: Set<String> { get }

    /// Whether this feature wants ``eventTracked(_:)``: read once when the engine is made, so the
    /// engine decodes journaled event names only when some feature listens (in-app triggers).
    var observesEvents: Bool { get }

    /// An event passed the consent gate and was queued for sending (only when ``observesEvents``).
    /// Events an earlier launch tracked and this one replays at start are not announced.
    func eventTracked(_ name: String)

    /// Attribute changes passed the consent gate and were queued (in-app attribute triggers and
    /// watched attributes).
    func attributesRecorded(_ changes: [(key: String, operation: AttributeWrite.Operation)])
}

extension EngineFeature {
    /// Nothing to load.
    package func start() {}
    /// Ignores privacy changes.
    package func privacyChanged(_ change: PrivacyChange) {}
    /// Ignores identity changes.
    package func identityChanged(_ change: IdentityChange) {}
    /// Ignores token changes.
    package func authorizationChanged() {}
    /// Ignores lifecycle events.
    package func lifecycle(_ event: LifecycleEvent) {}
    /// Nothing to wipe.
    package func wipe() {}
    /// Ignores event deliveries.
    package func eventsDelivered() {}
    /// No users.
    package var usersWithPendingItems: Set<String> { [] }
    /// Not listening to events.
    package var observesEvents: Bool { false }
    /// Ignores events.
    package func eventTracked(_ name: String) {}
    /// Ignores attribute changes.
    package func attributesRecorded(_ changes: [(key: String, operation: AttributeWrite.Operation)]) {}
}
