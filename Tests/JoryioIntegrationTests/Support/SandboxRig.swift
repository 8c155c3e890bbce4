import Foundation
import Joryio
import JoryioCore
import JoryioDelivery
import JoryioTestLanes
import JoryioTesting
import JoryioTransport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The real libcurl transport, counting the requests on the wire and noting the virtual time each
/// one left; ``target`` reroutes requests to another host and port (an "offline" address).
///
/// Completions are handed to the instance's scheduler, and the request stops counting as in flight
/// only when that job runs. So after `runUntilIdle()`, `inFlight > 0` means the completion job has
/// not run yet, and `waitForWork` will see it arrive.
final class GatewayTransport: Transport {
    /// A request and the virtual time it was sent at.
    struct Sent: Sendable {
        var virtualTime: Date
        var request: HTTPRequest
    }

    private struct State {
        var inFlight = 0
        var sent: [Sent] = []
        var target: URL?
    }

    private let inner = CurlTransport(workerCount: 1)
    private let scheduler: InstanceScheduler
    private let state = Locked(State())

    init(scheduler: InstanceScheduler) {
        self.scheduler = scheduler
    }

    /// Scheme, host and port every request goes to instead of its own, or `nil`.
    var target: URL? {
        get { self.state.withLock { $0.target } }
        set { self.state.withLock { $0.target = newValue } }
    }

    /// Requests sent whose completion has not run yet.
    var inFlight: Int { self.state.withLock { $0.inFlight } }

    /// Every request sent, oldest first.
    var sent: [Sent] { self.state.withLock { $0.sent } }

    func send(_ request: HTTPRequest, completion: @escaping @Sendable (Result<HTTPResponse, TransportError>) -> Void) {
        var request = request
        let now = self.scheduler.now()
        let target = self.state.withLock { state -> URL? in
            state.inFlight += 1
            state.sent.append(Sent(virtualTime: now, request: request))
            return state.target
        }
        if let target, var components = URLComponents(url: request.url, resolvingAgainstBaseURL: false) {
            components.scheme = target.scheme
            components.host = target.host
            components.port = target.port
            request.url = components.url ?? request.url
        }
        self.inner.send(request) { result in
            self.scheduler.enqueue {
                self.state.withLock { $0.inFlight -= 1 }
                completion(result)
            }
        }
    }

    /// Aborts the request in flight and refuses later ones.
    func close() {
        self.inner.close()
    }
}

/// Message ids from a ``SequentialIdentifierGenerator``, except that the `n`-th id after
/// ``poison(nth:)`` is 129 characters long: valid for the SDK, rejected by the server (protocol.md:
/// `messageId` is 1 … 128 characters).
final class PoisoningIdentifiers: IdentifierGenerator {
    static let poisonID = String(repeating: "p", count: 129)

    private let base: SequentialIdentifierGenerator
    private let countdown = Locked<Int?>(nil)

    init(first: UInt64) {
        self.base = SequentialIdentifierGenerator(first: first)
    }

    /// The `n`-th call from now (1 = the next one) returns ``poisonID``.
    func poison(nth n: Int) {
        self.countdown.withLock { $0 = n }
    }

    func next() -> String {
        let poisoned = self.countdown.withLock { countdown -> Bool in
            guard let remaining = countdown else { return false }
            countdown = remaining > 1 ? remaining - 1 : nil
            return remaining == 1
        }
        return poisoned ? Self.poisonID : self.base.next()
    }
}

/// One SDK instance of a ``SandboxRig``.
final class SandboxSDK: Sendable {
    let joryio: Joryio
    let scheduler: InstanceScheduler
    let transport: GatewayTransport
    let logs: InMemoryLogSink

    init(joryio: Joryio, scheduler: InstanceScheduler, transport: GatewayTransport, logs: InMemoryLogSink) {
        self.joryio = joryio
        self.scheduler = scheduler
        self.transport = transport
        self.logs = logs
    }

    /// The process dies: pending work and the request in flight are gone; the files stay.
    func crash() {
        self.scheduler.crash()
        self.transport.close()
    }

    /// Whether nothing is queued or on the wire.
    var isDrained: Bool {
        self.joryio.getQueueSize() == 0 && self.transport.inFlight == 0
    }

    /// Log messages at `level` or above.
    func messages(atLeast level: LogLevel) -> [String] {
        self.logs.records.filter { $0.level >= level }.map(\.message)
    }
}

/// A sandbox on 127.0.0.1, a unique directory for the SQLite files, and one virtual timeline for
/// every SDK instance launched over them.
final class SandboxRig {
    static let sdkKey = "jry_sdk_ios_integration"

    let sandbox: SandboxServer
    let time = ManualScheduler()
    let directory: URL
    private var launches: UInt64 = 0
    private var instances: [SandboxSDK] = []

    /// Starts the sandbox (the running test must be in the sandbox lane: see `startSandbox()`).
    ///
    /// - Parameter directory: Where the SQLite files go (a fresh temporary directory by default).
    init(directory: URL? = nil, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        self.sandbox = try await startSandbox(sourceLocation: sourceLocation)
        self.directory =
            directory
            ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("joryio-integration-\(UUID().uuidString)", isDirectory: true)
    }

    /// Crashes every instance, stops the sandbox and deletes the files.
    func tearDown() {
        for instance in self.instances { instance.crash() }
        self.instances = []
        self.sandbox.stop()
        try? FileManager.default.removeItem(at: self.directory)
    }

    /// A fresh `sdkKey`-initialised SDK over the rig's directory (a restart when one ran before).
    /// Each launch draws message ids from its own range, as UUIDs from a new process would.
    func launch(
        _ config: JoryioConfig = JoryioConfig(),
        identifiers: (any IdentifierGenerator)? = nil,
        offlineTarget: URL? = nil,
        features: FeatureCatalog = .analytics,
        beforeInitialize: (Joryio) -> Void = { _ in }
    ) -> SandboxSDK {
        self.launches += 1
        let scheduler = InstanceScheduler(self.time)
        let transport = GatewayTransport(scheduler: scheduler)
        transport.target = offlineTarget
        let logs = InMemoryLogSink()
        let environment = JoryioEnvironment.rig(
            scheduler: scheduler,
            transport: transport,
            identifiers: identifiers ?? SequentialIdentifierGenerator(first: self.launches << 32)
        )
        let joryio = Joryio(environment: environment, features: features)
        beforeInitialize(joryio)
        joryio.initialize(
            sdkKey: Self.sdkKey,
            apiHost: self.sandbox.apiHost.absoluteString,
            config: config.rig(directory: self.directory, logs: logs)
        )
        self.time.runUntilIdle()
        let instance = SandboxSDK(joryio: joryio, scheduler: scheduler, transport: transport, logs: logs)
        self.instances.append(instance)
        return instance
    }

    /// Drives `sdk` until `condition` holds: runs due work, waits (in real time, at most `realLimit`
    /// in all, suspended rather than blocking a thread) only while a request is on the wire, and
    /// otherwise jumps virtual time to the next due timer, never beyond `virtualLimit` from now.
    /// Returns whether `condition` held; `false` when a bound was hit or nothing is left to run.
    @discardableResult
    func drive(
        _ sdk: SandboxSDK,
        virtualLimit: TimeInterval = 3_600,
        realLimit: TimeInterval = 30,
        until condition: () async throws -> Bool
    ) async rethrows -> Bool {
        let virtualDeadline = self.time.now().addingTimeInterval(virtualLimit)
        let realDeadline = Date().addingTimeInterval(realLimit)
        while true {
            self.time.runUntilIdle()
            if try await condition() { return true }
            if sdk.transport.inFlight > 0 {
                let remaining = realDeadline.timeIntervalSinceNow
                guard remaining > 0 else { return false }
                _ = await self.time.waitForWork(timeout: remaining)
                continue
            }
            guard let next = self.time.nextDueDate, next <= virtualDeadline else { return false }
            self.time.advance(to: next)
        }
    }

    /// Runs `sdk` until nothing is on the wire and no timer is due within `virtualLimit`.
    func settle(_ sdk: SandboxSDK, virtualLimit: TimeInterval = 600) async {
        await self.drive(sdk, virtualLimit: virtualLimit) { false }
    }
}

extension JoryioEnvironment {
    /// The environment of one SDK instance of a rig: `scheduler` for time and work, `transport` for
    /// every request, no backoff jitter, SQLite stores on `scheduler`'s clock.
    static func rig(
        scheduler: InstanceScheduler,
        transport: any Transport,
        identifiers: any IdentifierGenerator
    ) -> JoryioEnvironment {
        JoryioEnvironment(
            scheduler: scheduler,
            clock: scheduler,
            identifiers: identifiers,
            jitter: DeterministicJitter.none,
            makeTransport: { _ in transport },
            openStores: { config, sdkKey, logger in
                JoryioEnvironment.openStores(config: config, sdkKey: sdkKey, clock: scheduler, logger: logger)
            },
            gzip: { try? Gzip.compress($0) },
            userAgent: "joryio-swift/integration-tests (Linux)"
        )
    }
}

extension JoryioConfig {
    /// This configuration as a rig launches it: SQLite files in `directory`, every log record (at
    /// `.verbose`) in `logs`, and no `Session Start` (delivery tests count exactly the events they track).
    func rig(directory: URL, logs: InMemoryLogSink) -> JoryioConfig {
        var config = self
        config.trackSessionStart = false
        config.storage = .sqlite(directory: directory)
        config.logSink = logs
        config.logLevel = .verbose
        return config
    }
}

extension SandboxServer {
    /// The `POST /api/v1/events` requests received, oldest first.
    func eventRequests() async throws(SandboxError) -> [RecordedRequest] {
        try await self.requests(path: "/api/v1/events")
    }

}

extension SandboxServer.RecordedRequest {
    /// The `messageId`s of the batch this request carried.
    var messageIDs: [String] {
        let batch = (self.body as? [String: Any])?["batch"] as? [[String: Any]] ?? []
        return batch.compactMap { $0["messageId"] as? String }
    }
}

extension HTTPRequest {
    /// The `messageId`s of the event batch this request carries (gunzipped when needed).
    var messageIDs: [String] {
        guard var body = self.body else { return [] }
        if self.header("Content-Encoding") == "gzip" {
            guard let inflated = try? Gzip.decompress(body, maxOutputBytes: 16 << 20) else { return [] }
            body = inflated
        }
        let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any]
        return (object?["batch"] as? [[String: Any]] ?? []).compactMap { $0["messageId"] as? String }
    }
}
