package import JoryioConsent
internal import JoryioCore

/// One thing an app did before `initialize()`, kept in one ordered list (INIT-5, INIT-6).
///
/// Privacy decisions are applied first at start (INIT-10) and also act on the list at once: a call
/// that collects is dropped when it is made, or when a later opt-out, denial or wipe would have
/// deleted what it collected, so the order the app called in decides, never the order of kinds.
/// Tokens, the error handler (and later the in-app callback) run in order with the calls, so a
/// token set after `identify("a")` is a's token.
package enum PreInitEntry: Sendable {
    /// `optOut()`, `optIn()`, `updateConsent(_:)`, `wipeData()`.
    case decision(PrivacyDecision)
    /// `setSdkAuthenticationToken(_:)`.
    case authToken(String)
    /// `setSdkAuthenticationErrorHandler(_:)` or its clearing (`nil`).
    case authHandler(AuthErrorHandler?)
    /// `add(plugin:)`: never pushed out by the 1,000-call bound, so a scrubbing plugin cannot be
    /// lost to a burst of calls; it sees the events tracked after it, as after `initialize()`.
    case plugin(any JoryioEventPlugin)
    /// A call that collects or sends; `kind` is what the consent gate checks, `nil` for calls it
    /// never drops (`reset`, `flush`, foreground, background); `change` is what getters show once
    /// `initialize()` handed the call to the engine and until the engine ran it.
    case call(CallKind?, OptimisticChange?, @Sendable (JoryioEngine) -> Void)
    /// A warning about a call's input, logged once the engine has a logger. Bounded on its own
    /// (``Joryio/preInitLogCapacity``), so invalid input never pushes real calls out.
    case log(String)

    /// Whether this entry counts against the 1,000-call bound (INIT-6).
    package var isCall: Bool {
        if case .call = self { true } else { false }
    }

    /// What getters show for this entry until the engine has run it.
    package var change: OptimisticChange? {
        switch self {
        case .decision(let decision): .privacy(decision)
        case .call(_, let change, _): change
        case .authToken, .authHandler, .plugin, .log: nil
        }
    }

    /// The privacy decision, if this entry is one.
    package var decision: PrivacyDecision? {
        if case .decision(let decision) = self { decision } else { nil }
    }

    /// Whether a call of this entry collects data a wipe deletes (everything but withdrawals).
    package var isWipedCall: Bool {
        guard case .call(let kind?, _, _) = self else { return false }
        return kind != .withdrawal
    }

    /// Whether this entry is a call the gate `gate` drops.
    package func isDropped(by gate: (CallKind) -> CollectionGate) -> Bool {
        guard case .call(let kind?, _, _) = self else { return false }
        return gate(kind) == .drop
    }
}
