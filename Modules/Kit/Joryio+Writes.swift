internal import Foundation
internal import JoryioCore
internal import JoryioDelivery
internal import JoryioFeature

/// Attributes, aliases and marketing subscriptions (ATTR, IDENT-12…15, SUB).
///
/// Every call here is checked and converted on the caller's thread, then handed to the engine,
/// which decides with the consent × opt-out matrix whether it is sent, held or dropped. Accepted
/// writes are kept on the device until the server confirms them.
extension Joryio {
    /// Sets several attributes; `nil` or `NSNull` removes one (ATTR-1). A value that cannot be sent
    /// (a non-finite number, an unsupported type) is dropped with a warning and the rest goes ahead.
    public func setAttributes(_ attributes: [String: Any?]) {
        let checked = WriteValidator.set(attributes.map { ($0.key, $0.value) }, call: "setAttributes")
        self.submitAttributes(checked)
    }

    /// Sets one attribute; `nil` or `NSNull` removes it, exactly like ``unsetAttribute(_:)`` (ATTR-2).
    public func setAttribute(_ key: String, value: Any?) {
        let checked = WriteValidator.set([(key, value)], call: "setAttribute")
        self.submitAttributes(checked)
    }

    /// Adds `amount` (default 1) to a numeric attribute on the server, as an atomic delta (ATTR-3).
    public func incrementAttribute(_ key: String, by amount: Double = 1) {
        self.submitAttributes(WriteValidator.increment(key, by: amount))
    }

    /// Removes an attribute (ATTR-4).
    public func unsetAttribute(_ key: String) {
        self.submitAttributes(WriteValidator.unset(key))
    }

    /// Adds a second, labelled identifier for this person; it works for anonymous visitors too
    /// (IDENT-12). The **label comes first**: `addAlias("loyalty_id", name: "L-12345")`. Labels are
    /// lowercase letters, digits and underscores; anything else logs a warning and does nothing.
    public func addAlias(_ label: String, name: String) {
        let timestamp = self.environment.clock.now()
        if let problem = WriteValidator.aliasProblem(label: label, name: name) {
            self.warn("addAlias: \(problem); nothing sent")
            return
        }
        self.submit(.alias) { $0.addAlias(label: label, name: name, timestamp: timestamp) }
    }

    /// Sets this person's marketing subscription on a channel (`email`, `sms`, `whatsapp`, `push`,
    /// `viber`) to `optedIn`, `subscribed` or `unsubscribed` (SUB-2, SUB-3). An unsubscribe is a
    /// withdrawal: it is delivered even while opted out or without consent (SUB-6).
    public func setSubscription(channel: String, status: String) {
        let timestamp = self.environment.clock.now()
        if let problem = WriteValidator.subscriptionProblem(channel: channel, status: status) {
            self.warn("setSubscription: \(problem); nothing sent")
            return
        }
        let kind = DurableWrite.Kind.subscription(channel: channel, status: status)
        self.submit(kind.isWithdrawal ? .withdrawal : .subscribe) { $0.subscribe(kind, timestamp: timestamp) }
    }

    /// Joins a subscription group on a channel (SUB-2).
    public func addToSubscriptionGroup(_ groupId: String, channel: String) {
        self.submitGroup(groupId, channel: channel, join: true, call: "addToSubscriptionGroup")
    }

    /// Leaves a subscription group on a channel; a withdrawal, delivered whatever the consent (SUB-6).
    public func removeFromSubscriptionGroup(_ groupId: String, channel: String) {
        self.submitGroup(groupId, channel: channel, join: false, call: "removeFromSubscriptionGroup")
    }

    /// Tells the SDK the app returned to the foreground: unconfirmed writes are retried (ATTR-8) and
    /// an expired session is replaced. Apple platforms call it automatically.
    public func applicationWillEnterForeground() {
        let now = self.environment.clock.now()
        self.submit { $0.enteredForeground(at: now) }
    }

    private func submitGroup(_ groupId: String, channel: String, join: Bool, call: String) {
        let timestamp = self.environment.clock.now()
        if let problem = WriteValidator.subscriptionProblem(channel: channel, groupId: groupId) {
            self.warn("\(call): \(problem); nothing sent")
            return
        }
        let kind = DurableWrite.Kind.subscriptionGroup(channel: channel, groupId: groupId, join: join)
        self.submit(kind.isWithdrawal ? .withdrawal : .subscribe) { $0.subscribe(kind, timestamp: timestamp) }
    }

    private func submitAttributes(_ checked: WriteValidator.Checked) {
        let timestamp = self.environment.clock.now()
        for warning in checked.warnings {
            self.warn(warning)
        }
        let operations = checked.changes.map { (key: $0.key, operation: $0.change.operation) }
        guard !operations.isEmpty else { return }
        self.submit(.attribute) { engine in
            guard let attributes = engine.features.first(AttributesFeature.self) else {
                engine.log.error("attributes are not available in this build; \(operations.count) changes dropped")
                return
            }
            attributes.record(operations, timestamp: timestamp)
        }
    }
}

extension Joryio {
    /// Unconfirmed attribute writes and durable writes kept on the device (for tests and tools in
    /// this package); `(0, 0)` before `initialize()`.
    package var pendingWrites: (attributes: Int, durable: Int) {
        guard let engine = self.state.withLock({ $0.engine }) else { return (0, 0) }
        // The channels keep their own counts under their own locks: read live, not from the snapshot.
        return (
            engine.features.first(AttributesFeature.self)?.channel.pendingCount ?? 0, engine.durable?.pendingCount ?? 0
        )
    }
}
