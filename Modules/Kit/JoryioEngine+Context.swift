internal import Foundation
internal import JoryioConsent
internal import JoryioCore
internal import JoryioDelivery
internal import JoryioFeature
internal import JoryioIdentity

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
        var context = FeatureContext(
            scheduler: environment.scheduler,
            clock: environment.clock,
            identifiers: environment.identifiers,
            jitter: environment.jitter,
            logger: logger,
            stores: FeatureStores(
                events: stores.events,
                keyValue: stores.keyValue,
                secure: stores.secure,
                durable: stores.durable
            ),
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
        context.deviceId = { reference.engine?.state.value.identity.deviceId }
        context.attributesRecorded = { changes in
            reference.engine?.features.each { $0.attributesRecorded(changes) }
        }
        context.unconfirmedAttributes = {
            guard let queue = reference.engine?.features.first(AttributesFeature.self)?.channel.queue else { return [] }
            return queue.batches.flatMap(\.writes) + queue.waiting
        }
        context.recordAttributes = { changes, timestamp in
            reference.engine?.features.first(AttributesFeature.self)?.record(changes, timestamp: timestamp)
        }
        return context
    }

    /// What the identity machine needs at launch: the stored ids (STORE-1, STORE-3), the install
    /// marker (reinstall detection, STORE-8, GAP-52), the configuration's ids (GAP-22), and a fresh
    /// id only where one will be used, so ids are drawn in the same order as before.
    static func launch(
        config: JoryioConfig,
        stores: JoryioStores,
        environment: JoryioEnvironment,
        logger: Logger
    ) -> IdentityStateMachine.Launch {
        let keyValue = stores.keyValue
        let storedAnonymous = keyValue.string(forKey: StoreKey.anonymousId).nonEmpty
        let freshAnonymous =
            config.anonymousId.nonEmpty == nil && storedAnonymous == nil ? environment.identifiers.next() : ""
        let storedDevice = keyValue.string(forKey: StoreKey.deviceId).nonEmpty
        let freshDevice = storedDevice == nil ? environment.identifiers.next() : ""
        let installMarker = keyValue.string(forKey: StoreKey.installMarker) != nil
        return IdentityStateMachine.Launch(
            storedAnonymousId: storedAnonymous,
            storedDeviceId: storedDevice,
            storedUserId: installMarker ? stores.secure.string(forKey: StoreKey.userId, logger: logger) : nil,
            identifyKept: keyValue.string(forKey: StoreKey.identifyKept) != nil,
            installMarker: installMarker,
            configAnonymousId: config.anonymousId,
            configUserId: config.userId,
            freshAnonymousId: freshAnonymous,
            freshDeviceId: freshDevice
        )
    }

    /// Carries out the launch's identity actions on the stores (before the executor owns anything).
    static func performLaunch(_ actions: [IdentityStateMachine.Action], stores: JoryioStores, logger: Logger) {
        for action in actions {
            Self.store(action, stores: stores, logger: logger)
        }
    }

    /// The storage part of an identity action; `false` when the action is not about storage.
    @discardableResult
    static func store(_ action: IdentityStateMachine.Action, stores: JoryioStores, logger: Logger) -> Bool {
        switch action {
        case .clearSecureStore:
            do {
                try stores.secure.removeAll()
            } catch {
                logger.error("cannot clear the secure store: \(error)")
            }
        case .writeInstallMarker:
            stores.keyValue.save("1", forKey: StoreKey.installMarker, logger: logger)
        case .persistAnonymousId(let id):
            stores.keyValue.save(id, forKey: StoreKey.anonymousId, logger: logger)
        case .persistDeviceId(let id):
            stores.keyValue.save(id, forKey: StoreKey.deviceId, logger: logger)
        case .persistUserId(let userId):
            stores.secure.save(userId, forKey: StoreKey.userId, logger: logger)
        case .setKeptMarker(let kept):
            stores.keyValue.save(kept ? "true" : nil, forKey: StoreKey.identifyKept, logger: logger)
        default:
            return false
        }
        return true
    }
}
