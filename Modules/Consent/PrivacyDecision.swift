/// A privacy call the app made: remembered before `initialize()` and applied first at start
/// (INIT-5, INIT-10).
package enum PrivacyDecision: Sendable, Equatable {
    /// `optOut()`
    case optOut
    /// `optIn()`
    case optIn
    /// `updateConsent(_:)`
    case updateConsent(TrackingConsent)
    /// `wipeData()`
    case wipeData
}

/// What the SDK may do with a call, given consent and opt-out (the CONSENT-18 matrix).
package enum CollectionGate: Sendable, Equatable {
    /// Collect and send.
    case accept
    /// Keep on the device, send nothing until consent is granted (CONSENT-3).
    case hold
    /// Discard at the call; never sent later (INIT-8).
    case drop
    /// `identify` while opted out or denied: keep the user id on the device only (IDENT-5).
    case keepLocally
}

/// The kinds of SDK calls the consent matrix distinguishes.
package enum CallKind: Sendable, Equatable, CaseIterable {
    /// `track`, `trackScreen`, e-commerce events, in-app reports.
    case event
    /// Attribute set, increment and unset.
    case attribute
    /// `identify(_:)`.
    case identify
    /// `addAlias(_:name:)`.
    case alias
    /// A subscription sign-up or group join.
    case subscribe
    /// An unsubscribe, group removal, push unregister or the `tracking_opted_out` record.
    case withdrawal
    /// The automatic `Session Start` event.
    case sessionStart
}
