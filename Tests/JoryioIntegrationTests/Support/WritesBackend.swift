import Foundation
import Joryio
import JoryioCore
import JoryioTesting
import Testing

// Where the writes simulation (WritesSimulationTests.swift) runs: the Python sandbox over libcurl.

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
            try await sandbox.addFault(path: path, count: count, status: status, retryAfter: retryAfter.map(String.init))
        case .successFalse:
            try await sandbox.addFault(path: path, count: count, status: 200, body: ["success": false, "error": "busy"])
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
