internal import JoryioCore

/// A typed place on one SDK instance for a value any thread may read: what a product's facade
/// keeps for its public properties (the app's in-app presenter), and what a feature publishes from
/// the executor for the facade's getters (the device token).
///
/// A slot is declared once, as a `static let` of the module that owns the value, and its type says
/// what it holds: there is no string key and no cast at a call site.
///
/// ```swift
/// static let presenter = InstanceSlot<any InAppMessagePresenter>("inApp.presenter")
/// facade[Self.presenter] = newValue          // the facade's setter, any thread
/// context.publish(PushFeature.token, token)  // a feature, on the executor
/// ```
package final class InstanceSlot<Value: Sendable>: Sendable {
    /// What the slot holds, for log lines and debugging; not a key (two slots may share a name).
    package let name: String

    /// A slot for one kind of value.
    package init(_ name: String) {
        self.name = name
    }
}

/// The values of one SDK instance's slots (``InstanceSlot``): read and written from any thread,
/// each access atomic. Owned by the facade instance, shared with its engine's features through
/// ``FeatureContext/publish(_:_:)``; a value outlives the engine (it is set before
/// `initialize()` too).
package final class InstanceSlots: Sendable {
    /// A value with the slot that keys it, kept alive so its identity cannot be reused.
    private struct Entry: Sendable {
        let slot: any AnyObject & Sendable
        let value: any Sendable
    }

    private let entries = Locked<[ObjectIdentifier: Entry]>([:])

    /// An empty set of slots.
    package init() {}

    /// The value in `slot`, `nil` when none was set.
    package subscript<Value>(slot: InstanceSlot<Value>) -> Value? {
        get { self.entries.withLock { $0[ObjectIdentifier(slot)]?.value as? Value } }
        set { self.update(slot) { $0 = newValue } }
    }

    /// Runs `body` with the value in `slot` (`nil` when none) while no other access runs, and keeps
    /// what it leaves there: for a value made once (get it, or make it when absent). `body` must not
    /// touch these slots itself.
    @discardableResult
    package func update<Value, Result>(_ slot: InstanceSlot<Value>, _ body: (inout Value?) -> Result) -> Result {
        self.entries.withLock { entries in
            let key = ObjectIdentifier(slot)
            var value = entries[key]?.value as? Value
            let result = body(&value)
            entries[key] = value.map { Entry(slot: slot, value: $0) }
            return result
        }
    }
}
