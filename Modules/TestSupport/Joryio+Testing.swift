internal import Foundation
public import JoryioCore
internal import JoryioDelivery
public import JoryioKit
internal import JoryioStorage
internal import JoryioTransport

extension Joryio {
    /// An SDK instance for an app's own tests: virtual time, your transport, in-memory stores.
    ///
    /// Nothing runs until the test drives `scheduler`, every request goes to `transport` (a
    /// ``StubTransport`` or ``RecordingTransport``), and whatever `JoryioConfig.storage` says, the
    /// queue, settings and secrets live in memory for this instance only. Backoff has no jitter.
    ///
    /// ```swift
    /// let scheduler = ManualScheduler()
    /// let transport = RecordingTransport()
    /// let joryio = Joryio.testing(scheduler: scheduler, transport: transport)
    /// joryio.initialize(sdkKey: "jry_sdk_ios_test", apiHost: "https://api.example.com/api")
    /// joryio.track("Signed Up")
    /// joryio.flush()
    /// scheduler.runUntilIdle()
    /// // transport.requests.count == 1
    /// ```
    ///
    /// The instance runs the `JoryioAnalytics` features: tracking, identity, consent, attributes,
    /// subscriptions and SDK auth.
    ///
    /// - Parameters:
    ///   - scheduler: The engine's executor and clock.
    ///   - transport: Receives every request.
    ///   - identifiers: Message ids and anonymous ids; sequential by default, so tests can assert them.
    ///   - sessionStartFacts: The device facts `Session Start` carries (none by default).
    public static func testing(
        scheduler: ManualScheduler,
        transport: any Transport,
        identifiers: any IdentifierGenerator = SequentialIdentifierGenerator(),
        sessionStartFacts: [String: JSONValue] = [:]
    ) -> Joryio {
        let environment = JoryioEnvironment(
            scheduler: scheduler,
            clock: scheduler,
            identifiers: identifiers,
            jitter: DeterministicJitter.none,
            makeTransport: { _ in transport },
            openStores: { config, _, _ in
                JoryioStores(
                    events: InMemoryQueueStore(capacity: config.maxQueueSize),
                    keyValue: InMemoryKeyValueStore()
                )
            },
            gzip: { try? Gzip.compress($0) },
            userAgent: "joryio-swift/test",
            sessionStartFacts: { sessionStartFacts }
        )
        return Joryio(environment: environment)
    }
}
