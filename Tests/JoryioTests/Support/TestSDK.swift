import Foundation
import Joryio
import JoryioCore
import JoryioDelivery
import JoryioStorage
import JoryioTesting
import JoryioTransport

/// A jitter source that always returns the same value (0 = no jitter), so backoff is exact.
struct FixedJitter: JitterSource {
    var value: Double = 0
    func next() -> Double { self.value }
}

/// One SDK instance on virtual time, with everything a test asserts on.
struct TestSDK {
    static let sdkKey = "jry_sdk_ios_test_key"

    let joryio: Joryio
    let scheduler: ManualScheduler
    let logs: InMemoryLogSink
    let identifiers: SequentialIdentifierGenerator

    /// An SDK over `transport` with the given stores (in memory unless `storage` says otherwise).
    init(
        transport: any Transport,
        storage: JoryioConfig.Storage = .inMemory,
        scheduler: ManualScheduler = ManualScheduler(),
        identifiers: SequentialIdentifierGenerator = SequentialIdentifierGenerator(),
        jitter: Double = 0
    ) {
        self.scheduler = scheduler
        self.logs = InMemoryLogSink()
        self.identifiers = identifiers
        let environment = JoryioEnvironment(
            scheduler: scheduler,
            clock: scheduler,
            identifiers: identifiers,
            jitter: FixedJitter(value: jitter),
            makeTransport: { _ in transport },
            openStores: { config, sdkKey, logger in
                JoryioEnvironment.openStores(config: config, sdkKey: sdkKey, clock: scheduler, logger: logger)
            },
            gzip: { try? Gzip.compress($0) },
            userAgent: "joryio-swift/test (Linux)"
        )
        self.joryio = Joryio(environment: environment)
    }

    /// `initialize` with `config`, its log sink replaced by ``logs`` at `.verbose`.
    func start(apiHost: String = "https://api.test.joryio.com/api", config: JoryioConfig = JoryioConfig()) {
        var config = config
        config.logSink = self.logs
        if config.logLevel == nil { config.logLevel = .verbose }
        self.joryio.initialize(sdkKey: Self.sdkKey, apiHost: apiHost, config: config)
        self.scheduler.runUntilIdle()
    }

    /// Log messages at `level` or above.
    func messages(atLeast level: LogLevel) -> [String] {
        self.logs.records.filter { $0.level >= level }.map(\.message)
    }
}

extension HTTPRequest {
    /// The decoded JSON body (gunzipped when needed).
    var json: JSONValue? {
        guard var body = self.body else { return nil }
        if self.header("Content-Encoding") == "gzip" {
            guard let inflated = try? Gzip.decompress(body, maxOutputBytes: 16 << 20) else { return nil }
            body = inflated
        }
        return JSONValue.parse(body)
    }

    /// The events in an event-batch body.
    var events: [JSONValue] {
        self.json?["batch"]?.arrayValue ?? []
    }
}

extension HTTPResponse {
    /// A JSON response.
    static func json(_ status: Int, _ body: String, headers: [String: String] = [:]) -> HTTPResponse {
        HTTPResponse(status: status, headers: headers.merging(["Content-Type": "application/json"]) { a, _ in a }, body: Data(body.utf8))
    }
}
