import Foundation
import Joryio
import JoryioCore
import JoryioDelivery
import JoryioStorage
import JoryioTesting
import JoryioTransport

/// Opens the stores for one SDK instance (see ``JoryioEnvironment/openStores``).
typealias StoreOpener = @Sendable (JoryioConfig, _ sdkKey: String, Logger) -> JoryioStores

/// One SDK instance on virtual time, with everything a test asserts on.
struct TestSDK {
    static let sdkKey = "jry_sdk_ios_test_key"
    static let apiHost = "https://api.test.joryio.com/api"

    let joryio: Joryio
    let scheduler: ManualScheduler
    let logs: InMemoryLogSink
    let identifiers: SequentialIdentifierGenerator
    /// Virtual time when the SDK was created: "t = 0" for ``advance(to:)``.
    let origin: Date
    private let storage: JoryioConfig.Storage

    /// An SDK over `transport` with the given stores (in memory unless `storage` says otherwise,
    /// or opened by `openStores` when given).
    init(
        transport: any Transport,
        storage: JoryioConfig.Storage = .inMemory,
        scheduler: ManualScheduler = ManualScheduler(),
        identifiers: SequentialIdentifierGenerator = SequentialIdentifierGenerator(),
        jitter: Double = 0,
        openStores: StoreOpener? = nil,
        features: FeatureCatalog = .analytics,
        storageAvailability: any StorageAvailability = AlwaysAvailableStorage(),
        claimsStorage: Bool = false,
        journalLinger: TimeInterval = 0,
        deadlines: ManualScheduler? = nil,
        observeLifecycle: (@Sendable (Joryio) -> Void)? = nil
    ) {
        self.scheduler = scheduler
        self.origin = scheduler.now()
        self.logs = InMemoryLogSink()
        self.identifiers = identifiers
        let settings = SettingsCache()
        let directory: URL? =
            switch storage {
            case .sqlite(let directory), .files(let directory): directory
            default: nil
            }
        var environment = JoryioEnvironment(
            scheduler: scheduler,
            clock: scheduler,
            identifiers: identifiers,
            jitter: DeterministicJitter(value: jitter),
            makeTransport: { _ in transport },
            openStores: openStores ?? { config, sdkKey, logger in
                JoryioEnvironment.openStores(
                    config: config,
                    sdkKey: sdkKey,
                    clock: scheduler,
                    logger: logger,
                    settings: settings
                )
            },
            gzip: { try? Gzip.compress($0) },
            userAgent: "joryio-swift/test (Linux)",
            defaultKeyValue: { directory.map { settings.store(in: $0, clock: scheduler, logger: .disabled) } },
            sessionStartFacts: { ["$platform": "linux", "$os_name": "Linux", "$timezone": "UTC"] }
        )
        environment.storageAvailability = storageAvailability
        environment.journalLinger = journalLinger
        if let observeLifecycle { environment.observeLifecycle = observeLifecycle }
        // Deadlines apart from the engine (a busy engine): their own virtual time.
        environment.deadlines = deadlines
        if claimsStorage {
            // The live rule: one instance per storage directory (most tests restart by making a
            // second instance while the first is still alive, so they leave it off).
            environment.claimStorage = { JoryioEnvironment.claimStorage($0) }
        }
        self.joryio = Joryio(environment: environment, features: features)
        self.storage = storage
    }

    /// `initialize` with `config` (its storage and log sink replaced by this SDK's, at `.verbose`
    /// unless the config sets a level), then runs everything due.
    ///
    /// `Session Start` is off unless `sessionStart` is set, so delivery tests see only their own events.
    func start(
        apiHost: String = TestSDK.apiHost,
        sdkKey: String = TestSDK.sdkKey,
        config: JoryioConfig = JoryioConfig(),
        sessionStart: Bool = false
    ) {
        var config = config
        config.trackSessionStart = sessionStart && config.trackSessionStart
        config.logSink = self.logs
        config.storage = self.storage
        if config.logLevel == nil { config.logLevel = .verbose }
        self.joryio.initialize(sdkKey: sdkKey, apiHost: apiHost, config: config)
        self.scheduler.runUntilIdle()
    }

    /// Tracks `names` in order (no properties), then runs everything due.
    func track(_ names: [String]) {
        for name in names {
            self.joryio.track(name)
        }
        self.scheduler.runUntilIdle()
    }

    /// `flush()`, then runs everything due: what a test does to see all that is queued sent.
    func flushAll() {
        self.joryio.flush()
        self.scheduler.runUntilIdle()
    }

    /// The next launch over `directory` (the test has let the first one go): a new instance whose
    /// ids start at `firstId`, so they never repeat the first launch's, started, and everything it
    /// found queued sent.
    static func relaunch(
        on directory: URL,
        transport: RecordingTransport,
        firstId: UInt64 = 1000,
        sdkKey: String = TestSDK.sdkKey
    ) -> TestSDK {
        let sdk = TestSDK(
            transport: transport,
            storage: .sqlite(directory: directory),
            identifiers: SequentialIdentifierGenerator(first: firstId)
        )
        sdk.start(sdkKey: sdkKey)
        sdk.flushAll()
        return sdk
    }

    /// Moves virtual time to `seconds` after ``origin``, running everything due on the way.
    func advance(to seconds: TimeInterval) {
        self.scheduler.advance(to: self.origin.addingTimeInterval(seconds))
    }

    /// Virtual seconds since ``origin``.
    var elapsed: TimeInterval {
        self.scheduler.now().timeIntervalSince(self.origin)
    }

    /// Log messages at `level` or above.
    func messages(atLeast level: LogLevel) -> [String] {
        self.logs.records.filter { $0.level >= level }.map(\.message)
    }

    /// Log messages at exactly `level`.
    func messages(at level: LogLevel) -> [String] {
        self.logs.records(at: level).map(\.message)
    }
}

/// `"e0"`, `"e1"`, … `"e\(count - 1)"`, offset by `from`.
func eventNames(_ count: Int, from start: Int = 0, prefix: String = "e") -> [String] {
    (start..<(start + count)).map { "\(prefix)\($0)" }
}

extension HTTPRequest {
    /// The body as the server decodes it (gunzipped when needed).
    var decodedBody: Data? {
        guard let body = self.body else { return nil }
        if self.header("Content-Encoding") == "gzip" {
            return try? Gzip.decompress(body, maxOutputBytes: 16 << 20)
        }
        return body
    }

    /// The decoded JSON body.
    var json: JSONValue? {
        self.decodedBody.flatMap(JSONValue.parse)
    }

    /// The events in an event-batch body.
    var events: [JSONValue] {
        self.json?["batch"]?.arrayValue ?? []
    }

    /// The `event` names in an event-batch body.
    var eventNames: [String] {
        self.events.compactMap { $0["event"]?.stringValue }
    }
}

extension [HTTPRequest] {
    /// Every event name sent, request after request.
    var eventNames: [String] {
        self.flatMap(\.eventNames)
    }

    /// How many events each request carried.
    var batchSizes: [Int] {
        self.map(\.events.count)
    }
}

extension HTTPResponse {
    /// A JSON response.
    static func json(_ status: Int, _ body: String, headers: [String: String] = [:]) -> HTTPResponse {
        HTTPResponse(
            status: status,
            headers: headers.merging(["Content-Type": "application/json"]) { a, _ in a },
            body: Data(body.utf8)
        )
    }

    /// `200 {"success":true}`.
    static let ok = HTTPResponse.json(200, #"{"success":true}"#)
}
