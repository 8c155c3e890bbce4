import Foundation
import Joryio
import JoryioCore
import JoryioStorage

/// The event every benchmark tracks: a name and 4 properties of the common kinds.
enum BenchEvent {
    static let name = "Product Viewed"

    /// Built once per run and reused, so the benchmark times the SDK, not the dictionary literal.
    static func makeProperties() -> [String: Any] {
        [
            "product_id": "sku-12345",
            "price": 19.99,
            "quantity": 2,
            "in_stock": true,
        ]
    }
}

/// Counts error records, so a run can say whether the SDK complained (it must not).
final class CountingLogSink: LogSink {
    private let errors = Locked<[String]>([])

    var errorMessages: [String] { self.errors.value }

    func log(_ record: LogRecord) {
        if record.level >= .error {
            self.errors.withLock { $0.append(record.message) }
        }
    }
}

/// One SDK instance built from ``JoryioEnvironment/live()`` (its serial queue, clock, UUIDs, gzip
/// and SQLite store in `directory`) with two substitutions: the transport, and a pass-through
/// ``RecordingQueueStore`` around the live event store.
final class BenchSDK {
    static let sdkKey = "jry_sdk_bench_key"

    let joryio: Joryio
    let directory: URL
    let scheduler: SerialQueueScheduler
    let logs = CountingLogSink()
    private let opened: Locked<(recorder: RecordingQueueStore, events: any QueueStore)?>

    init(directory: URL, transport: any Transport) {
        var environment = JoryioEnvironment.live()
        guard let scheduler = environment.scheduler as? SerialQueueScheduler else {
            fatalError("the live environment no longer uses SerialQueueScheduler; update the benchmark")
        }
        let opened = Locked<(recorder: RecordingQueueStore, events: any QueueStore)?>(nil)
        let openLive = environment.openStores
        let product = BenchProduct.current
        let transport = product.transport(transport)
        environment.makeTransport = { _ in transport }
        environment.openStores = { config, sdkKey, logger in
            var stores = openLive(config, sdkKey, logger)
            let recorder = RecordingQueueStore(stores.events)
            opened.withLock { $0 = (recorder, stores.events) }
            stores.events = recorder
            return stores
        }
        self.joryio = Joryio(environment: environment, features: product.catalog)
        self.directory = directory
        self.scheduler = scheduler
        self.opened = opened
    }

    /// The configuration of every run: SQLite in ``directory``, the largest batch, no timer flush,
    /// a queue that never evicts, and a 300 s backoff after the (one) failed send.
    func config(batchSize: Int = JoryioConfig.maxBatchSize) -> JoryioConfig {
        JoryioConfig(
            batchSize: batchSize,
            flushInterval: 86_400,
            maxQueueSize: 10_000_000,
            trackSessionStart: false,  // every queued row is one of the benchmark's own events
            maxRetries: 0,
            retryBackoffMs: 300_000,
            logLevel: .warning,
            storage: .sqlite(directory: self.directory),
            logSink: self.logs
        )
    }

    /// `initialize()` and wait until the engine has started.
    func start(apiHost: String = "https://api.bench.invalid/api") {
        self.joryio.initialize(sdkKey: Self.sdkKey, apiHost: apiHost, config: self.config())
        self.drain()
        precondition(self.recorder != nil, "initialize() did not open the stores: \(self.logs.errorMessages)")
        precondition(BenchProduct.current.check(self.joryio), "the in-app campaigns did not sync")
    }

    /// The pass-through store (after `initialize()`).
    var recorder: RecordingQueueStore? { self.opened.withLock { $0?.recorder } }

    /// The live event store (after `initialize()`).
    var events: (any QueueStore)? { self.opened.withLock { $0?.events } }

    /// Waits until everything enqueued on the engine so far, and what that enqueued, has run.
    func drain() {
        self.scheduler.sync {}
        self.scheduler.sync {}
    }

    /// Waits until `getQueueSize()` reports `count`, checking every `interval`; false after `timeout`.
    @discardableResult
    func waitForQueueSize(_ count: Int, timeout: TimeInterval = 300, interval: TimeInterval = 50e-6) -> Bool {
        waitUntil(timeout: timeout, interval: interval) { self.joryio.getQueueSize() == count }
    }

    /// Tracks `count` bench events back to back.
    func track(_ count: Int) {
        let properties = BenchEvent.makeProperties()
        for _ in 0..<count {
            self.joryio.track(BenchEvent.name, properties: properties)
        }
    }

    /// Closes the SQLite file so this instance's timers can no longer touch it (there is no public
    /// shutdown); later store calls fail with `.closed`, logged to this instance's sink only.
    func close() {
        self.drain()
        (self.events as? SQLiteQueueStore)?.database.close()
        // The next instance over this directory may start (one owner at a time, issue 13).
        self.joryio.relinquishStorage()
    }
}

/// A fresh directory under the system temporary directory (same disk for every figure).
func makeTemporaryDirectory(_ label: String) -> URL {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("joryio-bench-\(getpid())", isDirectory: true)
        .appendingPathComponent("\(label)-\(UUID().uuidString.prefix(8))", isDirectory: true)
    do {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    } catch {
        fatalError("cannot create \(url.path): \(error)")
    }
    return url
}

/// Deletes every directory ``makeTemporaryDirectory(_:)`` made in this process.
func removeTemporaryDirectories() {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("joryio-bench-\(getpid())")
    try? FileManager.default.removeItem(at: root)
}
