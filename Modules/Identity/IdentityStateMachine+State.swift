extension IdentityStateMachine {
    /// The identity the engine works under, mirroring what is stored (STORE-1, STORE-3).
    package struct State: Sendable, Equatable {
        /// Whether `.launch` was applied; before it every other input is ignored (INIT-6: the facade
        /// queues calls until `initialize()`).
        package var isLoaded: Bool
        /// The current anonymous id, `""` before launch (INIT-7).
        package var anonymousId: String
        /// The current user id, or `nil` when anonymous.
        package var userId: String?
        /// The device id: distinct from the anonymous id, kept by `reset()`, replaced by
        /// `wipeData()` (IDENT-21). `""` before launch.
        package var deviceId: String
        /// The `jry_identify_kept` marker: an identify of the current user is owed and runs once
        /// collection is allowed (IDENT-5, OPTOUT-8).
        package var identifyKept: Bool
        /// A `JoryioConfig.userId` that differs from the stored user, identified by `.start`
        /// (GAP-22). When set it always equals ``userId``.
        package var identifyAtStart: String?

        /// Creates a state.
        package init(
            isLoaded: Bool,
            anonymousId: String,
            userId: String?,
            deviceId: String,
            identifyKept: Bool,
            identifyAtStart: String?
        ) {
            self.isLoaded = isLoaded
            self.anonymousId = anonymousId
            self.userId = userId
            self.deviceId = deviceId
            self.identifyKept = identifyKept
            self.identifyAtStart = identifyAtStart
        }

        /// The state before launch: no ids at all, what the getters answer before `initialize()`
        /// (INIT-7).
        package static let unloaded = State(
            isLoaded: false,
            anonymousId: "",
            userId: nil,
            deviceId: "",
            identifyKept: false,
            identifyAtStart: nil
        )
    }

    /// What the consent matrix allows for an `identify` right now (CONSENT-18).
    ///
    /// The caller maps `PrivacyState.gate(.identify)` of `JoryioConsent` onto it; this module does
    /// not depend on `JoryioConsent`.
    package enum Gate: Sendable, Equatable, CaseIterable {
        /// Collection is allowed: the identify is sent.
        case accept
        /// Consent is pending: the identify is queued and held until it is granted (CONSENT-3).
        case hold
        /// Opted out or denied: the user id is only kept on the device (IDENT-5, INIT-9).
        case keepLocally
        /// Never answered for an identify; treated like ``keepLocally`` as the engine does.
        case drop

        /// Whether the durable identify write is queued now (sent at once or held).
        var queuesWrite: Bool {
            switch self {
            case .accept, .hold: true
            case .keepLocally, .drop: false
            }
        }
    }

    /// Why the current user changed: drives the SDK-auth token book (AUTH-5, AUTH-6, IDENT-10)
    /// and the identity observers (push re-registration, in-app re-sync: IDENT-1, IDENT-8).
    package enum UserChange: Sendable, Equatable {
        /// `identify` of someone other than the current user (IDENT-1, IDENT-4).
        case identified
        /// `reset()` (IDENT-6).
        case reset
        /// `wipeData()` (WIPE-1).
        case wiped
    }
}
