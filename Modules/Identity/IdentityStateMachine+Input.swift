extension IdentityStateMachine {
    /// Something that happened to the identity. Every id the machine may need comes in with the
    /// input: the machine never generates ids itself.
    package enum Input: Sendable, Equatable {
        /// `initialize()`: resolve the ids from what is stored and the configuration (STORE-8,
        /// GAP-22, GAP-52). Applied once; a second launch is ignored (INIT-2).
        case launch(Launch)
        /// Startup work after the launch's privacy decisions were applied (INIT-10): the config
        /// user's identify (GAP-22), then an identify kept by an earlier launch (IDENT-5).
        /// `identifyGate` is the gate once those decisions are in effect.
        case start(identifyGate: Gate)
        /// `identify(_:)` with the gate in effect for it (IDENT-1 … IDENT-5). An empty id is
        /// ignored (IDENT-2).
        case identify(userId: String, gate: Gate)
        /// `reset()` with the anonymous id made on the caller's thread (IDENT-6, IDENT-7).
        case reset(newAnonymousId: String)
        /// `wipeData()` with the ids that replace the deleted ones (WIPE-1).
        case wipe(newAnonymousId: String, newDeviceId: String)
        /// Collection stopped (opt-out or denial: the privacy machine's `discardCollected`).
        /// `identifyPending` tells whether a durable identify of the current user still waits to
        /// be sent: it is about to be dropped, so it becomes owed again (IDENT-5).
        case collectionStopped(identifyPending: Bool)
        /// Collection is allowed again (the privacy machine's `resumeCollection`, OPTOUT-8): a
        /// kept identify is sent.
        case collectionResumed
    }

    /// What a launch finds on the device and in the configuration.
    ///
    /// Empty strings count as absent, as the stores and the configuration are read today.
    package struct Launch: Sendable, Equatable {
        /// The stored anonymous id (key-value store, STORE-1).
        package var storedAnonymousId: String?
        /// The stored device id (key-value store, STORE-1, IDENT-21).
        package var storedDeviceId: String?
        /// The stored user id (secure store, STORE-3), as read before any reinstall clean-up.
        package var storedUserId: String?
        /// Whether the `jry_identify_kept` marker is stored (IDENT-5).
        package var identifyKept: Bool
        /// Whether the `jry_install_marker` is stored; without it the secure items belong to an
        /// earlier installation (STORE-8, GAP-52).
        package var installMarker: Bool
        /// `JoryioConfig.anonymousId`: wins over the stored one (GAP-22).
        package var configAnonymousId: String?
        /// `JoryioConfig.userId`: wins over the stored one and is identified at start when it
        /// differs (GAP-22).
        package var configUserId: String?
        /// The anonymous id to use when neither the configuration nor the store has one.
        package var freshAnonymousId: String
        /// The device id to use when none is stored.
        package var freshDeviceId: String

        /// Creates a launch; the configuration's ids default to none.
        package init(
            storedAnonymousId: String?,
            storedDeviceId: String?,
            storedUserId: String?,
            identifyKept: Bool,
            installMarker: Bool,
            configAnonymousId: String? = nil,
            configUserId: String? = nil,
            freshAnonymousId: String,
            freshDeviceId: String
        ) {
            self.storedAnonymousId = storedAnonymousId
            self.storedDeviceId = storedDeviceId
            self.storedUserId = storedUserId
            self.identifyKept = identifyKept
            self.installMarker = installMarker
            self.configAnonymousId = configAnonymousId
            self.configUserId = configUserId
            self.freshAnonymousId = freshAnonymousId
            self.freshDeviceId = freshDeviceId
        }
    }
}
