package import Foundation
internal import JoryioCore
package import JoryioDelivery
internal import JoryioFeature

/// What a feature registration is made from: the configuration and the endpoint `initialize()`
/// accepted, and the request settings every channel shares. Part of the composition root.
///
/// A new feature is a module with an ``EngineFeature`` conformer plus one registration line in a
/// ``FeatureCatalog``; the engine does not change. Order matters only where hooks of two features
/// must run in sequence: the uploader first, then the durable writes others build on, then the rest.
package struct FeatureSetup: Sendable {
    /// The clamped configuration.
    package var config: JoryioConfig
    /// The SDK key.
    package var sdkKey: String
    /// The API base URL.
    package var apiEndpoint: URL
    /// `User-Agent` for every request.
    package var userAgent: String
    /// Gzip for request bodies.
    package var gzip: @Sendable (Data) -> Data?

    /// The retry policy every channel shares.
    package var backoff: BackoffPolicy { BackoffPolicy(base: self.config.retryBackoffMs / 1000) }

    /// The delivery channels, in order: events, durable writes, attributes.
    var standardRegistrations: [FeatureRegistration] {
        [
            FeatureRegistration { context in self.events(context) },
            FeatureRegistration { context in self.durableWrites(context) },
            FeatureRegistration { context in self.attributes(context) },
        ]
    }

    // MARK: - The delivery channels

    private func events(_ context: FeatureContext) -> any EngineFeature {
        EventUploader(
            store: context.stores.events,
            builder: BatchRequestBuilder(
                endpoint: self.apiEndpoint.appendingPathComponent("v1/events"),
                sdkKey: self.sdkKey,
                userAgent: self.userAgent,
                timeout: self.config.requestTimeout,
                gzip: self.gzip
            ),
            settings: EventUploader.Settings(
                batchSize: self.config.batchSize,
                flushInterval: self.config.flushInterval,
                sendImmediately: self.config.sendImmediately,
                maxRetries: self.config.maxRetries,
                backoff: self.backoff
            ),
            dependencies: context.channelDependencies("delivery", onResult: context.eventsSent)
        )
    }

    private func durableWrites(_ context: FeatureContext) -> any EngineFeature {
        DurableWriteChannel(
            store: context.stores.durable,
            builder: DurableRequestBuilder(
                apiHost: self.apiEndpoint,
                sdkKey: self.sdkKey,
                userAgent: self.userAgent,
                timeout: self.config.requestTimeout
            ),
            settings: DurableWriteChannel.Settings(backoff: self.backoff, maxRetries: self.config.maxRetries),
            dependencies: context.channelDependencies("writes"),
            currentIdentity: {
                let identity = context.identity()
                return (identity.userId, identity.anonymousId)
            },
            eventsWaiting: context.eventsWaiting
        )
    }

    private func attributes(_ context: FeatureContext) -> any EngineFeature {
        let channel = AttributeChannel(
            secureStore: context.stores.secure,
            storageKey: StoreKey.attributeWrites,
            builder: AttributeRequestBuilder(
                endpoint: self.apiEndpoint.appendingPathComponent("v1/attributes"),
                sdkKey: self.sdkKey,
                userAgent: self.userAgent,
                timeout: self.config.requestTimeout,
                gzip: self.gzip
            ),
            settings: AttributeChannel.Settings(
                maxPending: self.config.maxQueueSize,
                backoff: self.backoff,
                maxRetries: self.config.maxRetries
            ),
            dependencies: context.channelDependencies("attributes")
        )
        return AttributesFeature(channel: channel, context: context)
    }
}
