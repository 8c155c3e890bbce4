import Foundation
import Joryio
import JoryioCore
import JoryioTesting
import Testing

// Where the writes simulation (WritesSimulationTests.swift) runs: the in-process `WritesServer` on
// virtual time only (the unit lane), or the Python sandbox over libcurl (one seed, the sandbox lane).

/// A fault the writes simulation scripts for the next requests on a path, on either backend.
enum WritesFault: Sendable, CustomStringConvertible {
    /// Answered `status` (with `Retry-After` in seconds, if any) without processing.
    case status(Int, retryAfter: Int?)
    /// 200 with `{"success":false,"error":"busy"}`, without processing.
    case successFalse
    /// The connection closes before the server reads the request.
    case drop
    /// Processed (applied), then the connection closes without an answer.
    case dropAfterProcessing
    /// Processed (applied), but the answer comes after the client's timeout.
    case delayBeyondTimeout

    var description: String {
        switch self {
        case .status(let status, let retryAfter): "\(status)" + (retryAfter.map { " Retry-After \($0)" } ?? "")
        case .successFalse: "200 success:false"
        case .drop: "drop"
        case .dropAfterProcessing: "dropAfterProcessing"
        case .delayBeyondTimeout: "a delay beyond the request timeout, then processed"
        }
    }
}

/// One SDK instance of a ``WritesBackend``.
protocol WritesDevice: AnyObject {
    var joryio: Joryio { get }
    var logs: InMemoryLogSink { get }
    /// Requests sent whose completion has not run yet.
    var inFlight: Int { get }
    /// The process dies: pending work and the requests on the wire are gone; the files stay.
    func crash()
}

/// What the writes simulation talks to, and the virtual timeline its SDK instances share.
protocol WritesBackend: AnyObject {
    var time: ManualScheduler { get }
    /// The request timeout the simulation configures; a ``WritesFault/delayBeyondTimeout`` outlasts it.
    var requestTimeout: TimeInterval { get }
    /// A fresh SDK over the backend's files (a restart when one ran before), online or not.
    func launch(_ config: JoryioConfig, offline: Bool) -> any WritesDevice
    func setOffline(_ device: any WritesDevice, _ offline: Bool)
    /// Waits, at most `timeout` real seconds, until an answer on the wire reached the timeline.
    func awaitWire(timeout: TimeInterval) async
    /// Lets the network make progress between two app calls, without waiting.
    func pump()
    func addFault(path: String, count: Int, _ fault: WritesFault) async throws
    func clearFaults() async throws
    func profile(userId: String) async throws -> ModelProfile?
    /// Every profile, with the ids of the operations applied to it.
    func profiles() async throws -> [(profile: ModelProfile, operationIDs: [String])]
    func tearDown()
}

extension WritesBackend {
    /// Drives `device` until `condition` holds: runs due work, waits for the wire (at most `realLimit`
    /// in all) only while a request is on it, and otherwise jumps virtual time to the next due timer,
    /// never beyond `virtualLimit` from now. Returns whether `condition` held. (``SandboxRig/drive``.)
    @discardableResult
    func drive(
        _ device: any WritesDevice,
        virtualLimit: TimeInterval = 3_600,
        realLimit: TimeInterval = 30,
        until condition: () async throws -> Bool
    ) async rethrows -> Bool {
        let virtualDeadline = self.time.now().addingTimeInterval(virtualLimit)
        let realDeadline = Date().addingTimeInterval(realLimit)
        while true {
            self.time.runUntilIdle()
            if try await condition() { return true }
            if device.inFlight > 0 {
                let remaining = realDeadline.timeIntervalSinceNow
                guard remaining > 0 else { return false }
                await self.awaitWire(timeout: remaining)
                continue
            }
            guard let next = self.time.nextDueDate, next <= virtualDeadline else { return false }
            self.time.advance(to: next)
        }
    }

    /// Runs `device` until nothing is on the wire and no timer is due within `virtualLimit`.
    func settle(_ device: any WritesDevice, virtualLimit: TimeInterval = 600) async {
        await self.drive(device, virtualLimit: virtualLimit) { false }
    }
}

// MARK: - In process

/// The unit lane's backend: ``WritesServer`` behind ``WritesServerTransport``. Requests are processed
/// when sent; their answers wait on the wire until the simulation waits for it (``awaitWire(timeout:)``)
/// or, at random (seeded), between two app calls (``pump()``). Virtual time does not move while a
/// request is on the wire, as with the sandbox, and no real time passes at all.
final class InProcessWritesBackend: WritesBackend {
    let server = WritesServer()
    let time = ManualScheduler()
    let requestTimeout: TimeInterval = 1
    private let directory: URL
    private var network: SplitMix64
    private var launches: UInt64 = 0
    private var devices: [InProcessDevice] = []

    init(seed: UInt64) {
        self.network = SplitMix64(seed: seed ^ 0x3E7_0000_0000_0001)
        self.directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("joryio-writes-sim-\(seed)-\(UUID().uuidString)", isDirectory: true)
    }

    func launch(_ config: JoryioConfig, offline: Bool) -> any WritesDevice {
        self.launches += 1
        let scheduler = InstanceScheduler(self.time)
        let transport = WritesServerTransport(server: self.server, scheduler: scheduler)
        transport.offline = offline
        let logs = InMemoryLogSink()
        let environment = JoryioEnvironment.rig(
            scheduler: scheduler,
            transport: transport,
            identifiers: SequentialIdentifierGenerator(first: self.launches << 32)
        )
        let joryio = Joryio(environment: environment)
        joryio.initialize(
            sdkKey: SandboxRig.sdkKey,
            apiHost: "https://writes.simulation.invalid/api",
            config: config.rig(directory: self.directory, logs: logs)
        )
        self.time.runUntilIdle()
        let device = InProcessDevice(joryio: joryio, scheduler: scheduler, transport: transport, logs: logs)
        self.devices.append(device)
        return device
    }

    func setOffline(_ device: any WritesDevice, _ offline: Bool) {
        (device as? InProcessDevice)?.transport.offline = offline
    }

    /// Delivers the oldest answer on the wire, at once.
    func awaitWire(timeout: TimeInterval) async {
        for device in self.devices where device.transport.deliverOldest() { return }
    }

    /// Each answer on the wire arrives with probability ½.
    func pump() {
        for device in self.devices {
            while device.transport.waiting > 0, self.network.chance(0.5), device.transport.deliverOldest() {}
        }
    }

    func addFault(path: String, count: Int, _ fault: WritesFault) async throws {
        self.server.addFault(path: path, count: count, fault)
    }

    func clearFaults() async throws {
        self.server.clearFaults()
    }

    func profile(userId: String) async throws -> ModelProfile? {
        self.server.profile(userId: userId)
    }

    func profiles() async throws -> [(profile: ModelProfile, operationIDs: [String])] {
        self.server.profiles()
    }

    func tearDown() {
        for device in self.devices { device.crash() }
        self.devices = []
        try? FileManager.default.removeItem(at: self.directory)
    }
}

/// One SDK instance of the ``InProcessWritesBackend``.
final class InProcessDevice: WritesDevice {
    let joryio: Joryio
    let scheduler: InstanceScheduler
    let transport: WritesServerTransport
    let logs: InMemoryLogSink

    init(joryio: Joryio, scheduler: InstanceScheduler, transport: WritesServerTransport, logs: InMemoryLogSink) {
        self.joryio = joryio
        self.scheduler = scheduler
        self.transport = transport
        self.logs = logs
    }

    var inFlight: Int { self.transport.inFlight }

    func crash() {
        self.scheduler.crash()
        self.transport.close()
    }
}

/// One instance's connection to the ``WritesServer``: the server processes a request when it is sent,
/// and the answer waits on the wire until ``deliverOldest()`` hands it to the instance's scheduler.
/// Offline, every request fails with `cannotConnect`; after ``close()``, with `cancelled`.
final class WritesServerTransport: Transport {
    private struct State {
        var offline = false
        var closed = false
        var wire: [@Sendable () -> Void] = []
        /// Answers handed to the scheduler whose completion has not run yet.
        var delivered = 0
    }

    private let server: WritesServer
    private let scheduler: InstanceScheduler
    private let state = Locked(State())

    init(server: WritesServer, scheduler: InstanceScheduler) {
        self.server = server
        self.scheduler = scheduler
    }

    var offline: Bool {
        get { self.state.withLock { $0.offline } }
        set { self.state.withLock { $0.offline = newValue } }
    }

    /// Requests sent whose completion has not run yet.
    var inFlight: Int { self.state.withLock { $0.wire.count + $0.delivered } }

    /// Answers still on the wire.
    var waiting: Int { self.state.withLock { $0.wire.count } }

    func send(_ request: HTTPRequest, completion: @escaping @Sendable (Result<HTTPResponse, TransportError>) -> Void) {
        let (offline, closed) = self.state.withLock { ($0.offline, $0.closed) }
        let result: Result<HTTPResponse, TransportError> =
            closed
            ? .failure(TransportError(.cancelled, "closed (simulated)"))
            : offline ? .failure(TransportError(.cannotConnect, "offline (simulated)")) : self.server.receive(request)
        self.state.withLock { $0.wire.append { completion(result) } }
    }

    /// Hands the oldest answer on the wire to the scheduler; `false` when none waits.
    @discardableResult
    func deliverOldest() -> Bool {
        let answer = self.state.withLock { state -> (@Sendable () -> Void)? in
            guard !state.wire.isEmpty else { return nil }
            state.delivered += 1
            return state.wire.removeFirst()
        }
        guard let answer else { return false }
        self.scheduler.enqueue {
            self.state.withLock { $0.delivered -= 1 }
            answer()
        }
        return true
    }

    /// The process died: the answers on the wire are lost, and later requests fail.
    func close() {
        self.state.withLock { state in
            state.closed = true
            state.wire = []
            state.delivered = 0
        }
    }
}

// MARK: - Sandbox

/// The sandbox lane's backend: a ``SandboxRig`` (libcurl against the Python sandbox).
final class SandboxWritesBackend: WritesBackend {
    let rig: SandboxRig
    private let refusing: RefusingPort
    /// Short, so a delay fault costs little real time; the delay is 0.3 s longer.
    let requestTimeout: TimeInterval = 0.5

    init() async throws {
        self.rig = try await SandboxRig()
        self.refusing = try RefusingPort()
    }

    var time: ManualScheduler { self.rig.time }

    func launch(_ config: JoryioConfig, offline: Bool) -> any WritesDevice {
        self.rig.launch(config, offlineTarget: offline ? self.refusing.url : nil)
    }

    func setOffline(_ device: any WritesDevice, _ offline: Bool) {
        (device as? SandboxSDK)?.transport.target = offline ? self.refusing.url : nil
    }

    func awaitWire(timeout: TimeInterval) async {
        _ = await self.time.waitForWork(timeout: timeout)
    }

    func pump() {}  // answers arrive by themselves, in real time

    func addFault(path: String, count: Int, _ fault: WritesFault) async throws {
        let sandbox = self.rig.sandbox
        switch fault {
        case .status(let status, let retryAfter):
            try await sandbox.addFault(
                path: path,
                count: count,
                status: status,
                retryAfter: retryAfter.map(String.init)
            )
        case .successFalse:
            try await sandbox.addFault(
                path: path,
                count: count,
                status: 200,
                body: ["success": false, "error": "busy"]
            )
        case .drop:
            try await sandbox.addFault(path: path, count: count, drop: true)
        case .dropAfterProcessing:
            try await sandbox.addFault(path: path, count: count, dropAfterProcessing: true)
        case .delayBeyondTimeout:
            try await sandbox.addFault(path: path, count: count, delayMs: Int((self.requestTimeout + 0.3) * 1_000))
        }
    }

    func clearFaults() async throws {
        try await self.rig.sandbox.clearFaults()
    }

    func profile(userId: String) async throws -> ModelProfile? {
        try await self.rig.sandbox.profile(userId: userId).map(ModelProfile.init(sandbox:))
    }

    func profiles() async throws -> [(profile: ModelProfile, operationIDs: [String])] {
        try await self.rig.sandbox.profiles().map { profile in
            let operations = profile["operations"] as? [[String: Any]] ?? []
            return (ModelProfile(sandbox: profile), operations.map { $0["id"] as? String ?? "<no id>" })
        }
    }

    func tearDown() {
        self.rig.tearDown()
    }
}

extension SandboxSDK: WritesDevice {
    var inFlight: Int { self.transport.inFlight }
}
