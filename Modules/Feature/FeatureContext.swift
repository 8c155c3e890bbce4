package import Foundation
package import JoryioConsent
package import JoryioCore
package import JoryioDelivery

/// What a feature may use of the engine: its executor and time, the stores, the transport, the
/// consent gate, the current identity, and the shared ways to record events and durable writes.
///
/// Closures run on the engine's executor and must be called there; a feature calls them from its
/// hooks or from work it scheduled on ``scheduler``.
package struct FeatureContext: Sendable {
    /// The engine's serial executor: every hook runs on it, and so must a feature's own work.
    package var scheduler: any Scheduler
    /// Timestamps.
    package var clock: any Clock
    /// Unique ids (message ids, write ids, idempotency keys).
    package var identifiers: any IdentifierGenerator
    /// Backoff jitter.
    package var jitter: any JitterSource
    /// The engine's logger; scope it with the feature's name.
    package var logger: Logger
    /// The stores of this SDK instance.
    package var stores: FeatureStores
    /// The HTTP transport all channels share.
    package var transport: any Transport
    /// SDK-auth tokens read at send time, and the one 401 flow (AUTH).
    package var authorization: RequestAuthorization
    /// The consent × opt-out state now (CONSENT-18 gates by call kind).
    package var privacy: @Sendable () -> PrivacyState
    /// The current user id and anonymous id.
    package var identity: @Sendable () -> (userId: String?, anonymousId: String)
    /// This installation's device id now (`nil` when the engine is gone): for reports that carry
    /// it, such as push receipts and clicks (protocol.md 5.11).
    package var deviceId: @Sendable () -> String? = { nil }
    /// Queues a durable write under the current identity (DURABLE).
    package var enqueueDurable: @Sendable (_ kind: DurableWrite.Kind, _ timestamp: Date) -> Void
    /// Records an event through the engine's pipeline: consent gate, validation, plugins, session.
    package var recordEvent: @Sendable (_ name: String, _ properties: [String: JSONValue], _ timestamp: Date) -> Void
    /// Records attribute changes through the attributes feature (its consent gate and identity),
    /// for features that keep a profile attribute up to date (`push_permission`, PUSH-11).
    package var recordAttributes:
        @Sendable (_ changes: [(key: String, operation: AttributeWrite.Operation)], _ timestamp: Date) -> Void = {
            _,
            _ in
        }
    /// Attribute changes the attributes feature accepted: every feature hears of them
    /// (``EngineFeature/attributesRecorded(_:)``).
    package var attributesRecorded:
        @Sendable (_ changes: [(key: String, operation: AttributeWrite.Operation)]) -> Void = {
            _ in
        }
    /// The attribute writes the server has not confirmed yet, of every identity, oldest first (the
    /// attributes feature's queue, the batch on the wire included): what may override a server
    /// profile snapshot locally (ATTR-17).
    package var unconfirmedAttributes: @Sendable () -> [AttributeWrite] = { [] }
    /// Every finished request reports here: `nil` for a success (BATCH-16, AUTH-9).
    package var requestFinished: @Sendable (JoryioTransportError?) -> Void
    /// Whether events wait on the device (stored or about to be).
    package var eventsWaiting: @Sendable () -> Bool
    /// The event uploader finished a request: publishes the queue size, and on success tells every
    /// feature that events were delivered.
    package var eventsSent: @Sendable (_ error: JoryioTransportError?) -> Void
    /// The instance's slots (``InstanceSlot``): where a feature publishes what the facade's getters
    /// read from any thread, so no caller reaches the feature object itself.
    package var slots = InstanceSlots()

    /// Creates a context.
    package init(
        scheduler: any Scheduler,
        clock: any Clock,
        identifiers: any IdentifierGenerator,
        jitter: any JitterSource,
        logger: Logger,
        stores: FeatureStores,
        transport: any Transport,
        authorization: RequestAuthorization,
        privacy: @escaping @Sendable () -> PrivacyState,
        identity: @escaping @Sendable () -> (userId: String?, anonymousId: String),
        enqueueDurable: @escaping @Sendable (DurableWrite.Kind, Date) -> Void,
        recordEvent: @escaping @Sendable (String, [String: JSONValue], Date) -> Void,
        requestFinished: @escaping @Sendable (JoryioTransportError?) -> Void,
        eventsWaiting: @escaping @Sendable () -> Bool,
        eventsSent: @escaping @Sendable (JoryioTransportError?) -> Void
    ) {
        self.scheduler = scheduler
        self.clock = clock
        self.identifiers = identifiers
        self.jitter = jitter
        self.logger = logger
        self.stores = stores
        self.transport = transport
        self.authorization = authorization
        self.privacy = privacy
        self.identity = identity
        self.enqueueDurable = enqueueDurable
        self.recordEvent = recordEvent
        self.requestFinished = requestFinished
        self.eventsWaiting = eventsWaiting
        self.eventsSent = eventsSent
    }
}

/// The stores one SDK instance works with (ARCHITECTURE §5).
package struct FeatureStores: Sendable {
    /// The event queue.
    package var events: any QueueStore
    /// Settings and ids (STORE-1, STORE-2).
    package var keyValue: any KeyValueStore
    /// The user id, unconfirmed attribute writes and other secrets (STORE-3).
    package var secure: any SecureStore
    /// Identify, alias, subscription and opt-out writes waiting for the server (STORE-4, DURABLE-14).
    package var durable: any QueueStore

    /// Creates the set.
    package init(events: any QueueStore, keyValue: any KeyValueStore, secure: any SecureStore, durable: any QueueStore)
    {
        self.events = events
        self.keyValue = keyValue
        self.secure = secure
        self.durable = durable
    }
}

/// How the composition root adds a feature: made once per SDK instance with the engine's context.
package struct FeatureRegistration: Sendable {
    /// Makes the feature, once per instance, on the thread that calls `initialize()` and before
    /// the executor runs anything: an initializer keeps the context but calls none of its closures
    /// (they read engine state, which only the executor may touch); ``EngineFeature/start()`` is
    /// the first hook, on the executor.
    package var make: @Sendable (FeatureContext) -> any EngineFeature

    /// A registration that makes its feature with `make`.
    package init(_ make: @escaping @Sendable (FeatureContext) -> any EngineFeature) {
        self.make = make
    }
}

extension FeatureContext {
    /// Publishes `value` in `slot` for the facade's getters (on the executor, where the feature's
    /// state changed); `nil` clears it.
    package func publish<Value>(_ slot: InstanceSlot<Value>, _ value: Value?) {
        self.slots[slot] = value
    }

    /// What a delivery channel of this feature needs: the engine's transport, executor, time, ids
    /// and authorization, a logger scoped to `scope`, and results reported to the engine
    /// (``requestFinished``) unless `onResult` says otherwise.
    package func channelDependencies(
        _ scope: String,
        onResult: (@Sendable (JoryioTransportError?) -> Void)? = nil
    ) -> ChannelDependencies {
        ChannelDependencies(
            transport: self.transport,
            scheduler: self.scheduler,
            clock: self.clock,
            jitter: self.jitter,
            identifiers: self.identifiers,
            logger: self.logger.scoped(scope),
            authorization: self.authorization,
            onResult: onResult ?? self.requestFinished
        )
    }
}
