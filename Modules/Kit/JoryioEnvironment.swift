package import Foundation
package import JoryioCore
package import JoryioDelivery
internal import JoryioStorage

/// The stores one SDK instance works with.
package struct JoryioStores: Sendable {
    /// The event queue.
    package var events: any QueueStore
    /// Settings and ids (STORE-1, STORE-2).
    package var keyValue: any KeyValueStore
    /// The user id, unconfirmed attribute writes and other secrets (STORE-3).
    package var secure: any SecureStore
    /// Identify, alias, subscription and opt-out writes waiting for the server (STORE-4, DURABLE-14).
    package var durable: any QueueStore

    /// Creates the set.
    package init(
        events: any QueueStore,
        keyValue: any KeyValueStore,
        secure: any SecureStore = InMemorySecureStore(),
        durable: any QueueStore = InMemoryQueueStore(capacity: JoryioStores.durableCapacity)
    ) {
        self.events = events
        self.keyValue = keyValue
        self.secure = secure
        self.durable = durable
    }

    /// The durable store's own bound: above the channel's 1,000 (DURABLE-11), which evicts first.
    package static let durableCapacity = 2_000
}

/// Everything that touches the outside world, given to a ``Joryio`` instance once.
///
/// Production uses ``live()``; tests build one with a manual scheduler, a stub or real transport
/// and stores in a temporary directory.
package struct JoryioEnvironment: Sendable {
    /// The engine's serial executor.
    package var scheduler: any Scheduler
    /// Timestamps.
    package var clock: any Clock
    /// Message ids and anonymous ids.
    package var identifiers: any IdentifierGenerator
    /// Backoff jitter.
    package var jitter: any JitterSource
    /// The HTTP transport for a configuration.
    package var makeTransport: @Sendable (JoryioConfig) -> any Transport
    /// Opens the stores for a configuration and SDK key; never fails (falls back to memory).
    package var openStores: @Sendable (JoryioConfig, _ sdkKey: String, Logger) -> JoryioStores
    /// Gzip for request bodies.
    package var gzip: @Sendable (Data) -> Data?
    /// `User-Agent` for every request.
    package var userAgent: String
    /// The settings store in the platform's default place, read before `initialize()` so
    /// `isUserOptedOut()` and `getTrackingConsent()` answer from stored state (INIT-11); `nil`
    /// when there is none (tests that start from nothing).
    package var defaultKeyValue: @Sendable () -> (any KeyValueStore)?
    /// Device and environment properties for `Session Start` (SESS-3), without `$device_id`.
    package var sessionStartFacts: @Sendable () -> [String: JSONValue]

    /// Creates an environment.
    package init(
        scheduler: any Scheduler,
        clock: any Clock,
        identifiers: any IdentifierGenerator,
        jitter: any JitterSource,
        makeTransport: @escaping @Sendable (JoryioConfig) -> any Transport,
        openStores: @escaping @Sendable (JoryioConfig, String, Logger) -> JoryioStores,
        gzip: @escaping @Sendable (Data) -> Data?,
        userAgent: String,
        defaultKeyValue: @escaping @Sendable () -> (any KeyValueStore)? = { nil },
        sessionStartFacts: @escaping @Sendable () -> [String: JSONValue] = { [:] }
    ) {
        self.scheduler = scheduler
        self.clock = clock
        self.identifiers = identifiers
        self.jitter = jitter
        self.makeTransport = makeTransport
        self.openStores = openStores
        self.gzip = gzip
        self.userAgent = userAgent
        self.defaultKeyValue = defaultKeyValue
        self.sessionStartFacts = sessionStartFacts
    }
}
