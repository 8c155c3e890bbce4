extension IdentityStateMachine {
    /// What the engine must do after a transition, in the order given.
    package enum Action: Sendable, Equatable {
        /// Delete every secure-store item: an earlier installation's (STORE-8, GAP-52) or all of
        /// them on `wipeData()` (WIPE-1). Done before anything reads the secure store.
        case clearSecureStore
        /// Store the `jry_install_marker` (GAP-52).
        case writeInstallMarker
        /// Store the anonymous id (key-value store, STORE-1).
        case persistAnonymousId(String)
        /// Store the device id (key-value store, STORE-1, IDENT-21).
        case persistDeviceId(String)
        /// Store the user id in the secure store, or delete it for `nil` (STORE-3).
        case persistUserId(String?)
        /// Store (`true`) or delete (`false`) the `jry_identify_kept` marker (IDENT-5). Emitted
        /// only when the marker changes.
        case setKeptMarker(Bool)
        /// Queue the durable identify write of `userId` under the current anonymous id (IDENT-3);
        /// the durable channel holds it while consent is pending (CONSENT-3).
        case enqueueIdentify(userId: String)
        /// Start a new session at once and announce it when collection allows (SESS-4, IDENT-6).
        case startNewSession
        /// Delete every queued event, stored or pending (WIPE-1).
        case discardQueuedEvents
        /// Every feature deletes what it stored except withdrawals: unconfirmed attribute writes,
        /// pending identify, alias and sign-up writes (WIPE-1, WIPE-6). Attribute writes purged on
        /// `reset()` (ATTR-15) follow from ``userChanged(previous:current:reason:)`` instead, since
        /// features react to identity changes themselves; durable writes stay (IDENT-11).
        case wipeFeatures
        /// Forget the session, stored and current; the next activity starts one (SESS-5, WIPE-4).
        case clearSession
        /// The current user changed: update the SDK-auth token book (AUTH-5, AUTH-6, IDENT-10) and
        /// tell the identity observers (IDENT-1, IDENT-8).
        case userChanged(previous: String?, current: String?, reason: UserChange)
        /// Publish the ids (and the session) for the getters (IDENT-16).
        case publish
    }
}
