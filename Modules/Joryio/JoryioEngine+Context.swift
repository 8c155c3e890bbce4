internal import Foundation
internal import JoryioConsent
internal import JoryioCore
internal import JoryioDelivery
internal import JoryioFeature

/// What the engine offers its features, and what it loads at init.
extension JoryioEngine {
    /// The features' context: the engine's services, reached through a weak reference.
    static func makeContext(
        reference: EngineReference,
        environment: JoryioEnvironment,
        stores: JoryioStores,
        logger: Logger,
        config: JoryioConfig
    ) -> FeatureContext {
        FeatureContext(
            scheduler: environment.scheduler,
            clock: environment.clock,
            identifiers: environment.identifiers,
            jitter: environment.jitter,
            logger: logger,
            stores: FeatureStores(events: stores.events, keyValue: stores.keyValue, secure: stores.secure, durable: stores.durable),
            transport: environment.makeTransport(config),
            authorization: Self.requestAuthorization(reference: reference),
            privacy: {
                reference.engine?.state.value.privacy.state ?? PrivacyState(optedOut: true, consent: .denied)
            },
            identity: {
                guard let identity = reference.engine?.state.value.identity else { return (nil, "") }
                return (identity.userId, identity.anonymousId)
            },
            enqueueDurable: { kind, timestamp in reference.engine?.enqueueDurable(kind, timestamp: timestamp) },
            recordEvent: { name, properties, timestamp in
                reference.engine?.record(
                    name: name,
                    conversion: JSONValue.Conversion(value: properties, dropped: []),
                    timestamp: timestamp,
                    session: .touch
                )
            },
            requestFinished: { error in reference.engine?.requestFinished(error) },
            eventsWaiting: { (reference.engine?.queuedCount() ?? 0) > 0 },
            eventsSent: { error in reference.engine?.eventsSent(error) }
        )
    }

    /// Reinstall detection (STORE-8, GAP-52): the settings store is deleted with the app but the
    /// Keychain is not, so secure items found without the install marker belong to an earlier
    /// installation and are deleted before use.
    private static func clearSecureStoreAfterReinstall(stores: JoryioStores, logger: Logger) {
        guard stores.keyValue.string(forKey: StoreKey.installMarker) == nil else { return }
        do {
            try stores.secure.removeAll()
        } catch {
            logger.error("cannot clear secure items left by an earlier installation: \(error)")
        }
        stores.keyValue.save("1", forKey: StoreKey.installMarker, logger: logger)
    }

    /// The ids stored on the device (STORE-1, STORE-3), or new ones. `config.anonymousId` and
    /// `config.userId` win over stored ids (GAP-22).
    static func loadIdentity(
        config: JoryioConfig,
        stores: JoryioStores,
        environment: JoryioEnvironment,
        logger: Logger
    ) -> EngineState.Identity {
        let keyValue = stores.keyValue
        Self.clearSecureStoreAfterReinstall(stores: stores, logger: logger)
        let storedAnonymous = keyValue.string(forKey: StoreKey.anonymousId)
        let anonymousId = config.anonymousId.nonEmpty ?? storedAnonymous ?? environment.identifiers.next()
        if storedAnonymous != anonymousId { keyValue.save(anonymousId, forKey: StoreKey.anonymousId, logger: logger) }
        let storedDevice = keyValue.string(forKey: StoreKey.deviceId)
        let deviceId = storedDevice ?? environment.identifiers.next()
        if storedDevice != deviceId { keyValue.save(deviceId, forKey: StoreKey.deviceId, logger: logger) }
        let storedUser = stores.secure.string(forKey: StoreKey.userId, logger: logger)
        let userId = config.userId.nonEmpty ?? storedUser
        if let userId, userId != storedUser { stores.secure.save(userId, forKey: StoreKey.userId, logger: logger) }
        let changed = config.userId.nonEmpty.flatMap { $0 == storedUser ? nil : $0 }
        return EngineState.Identity(anonymousId: anonymousId, userId: userId, deviceId: deviceId, identifyAtStart: changed)
    }
}
