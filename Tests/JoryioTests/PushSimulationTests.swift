import Foundation
import Joryio
import JoryioCore
import JoryioKit
import JoryioPush
import JoryioTesting
import Testing

/// Seeded simulation of push registration (issue 14): random tokens from iOS, `registerPushToken`,
/// `requestPushPermission()`, `unregisterPush()`, identify, reset, wipe, opt-out / opt-in, consent
/// granted / denied, restarts on real SQLite, server faults (503, `success: false`, offline, an
/// answer lost after the server applied the change) and time passing, against ``PushServerDouble``,
/// which applies the protocol's rules (protocol.md 5.9, 5.10: one profile per token, the newest
/// change of a token wins, write ids applied once).
///
/// Invariants, checked after every step and at the end:
/// - at most one push request of the installation is on the wire at any time (PUSH-17, DURABLE-16);
/// - no registration is sent while the person is opted out or has denied consent (PUSH-6,
///   CONSENT-16); unregisters are withdrawals and may go any time (DURABLE-13);
/// - a `registerPushToken` call is never answered twice, and once the seed settles every call of
///   the running process was answered (PUSH-12);
/// - once the seed settles (opted in, consent granted, online, time passing), the server holds
///   exactly the model's token for the current person, or none of this installation's tokens
///   when push is off or no token exists (PUSH-15, PUSH-18, PUSH-32, WIPE-5).
///
/// `JORYIO_PUSH_SIM_SEEDS=<n>` runs seeds 1…n (default 40), `JORYIO_PUSH_SIM_SEED=<s>` replays one.
@Suite("Seeded simulation of push registration")
struct PushSimulationTests {
    static let seeds: [UInt64] = {
        let environment = ProcessInfo.processInfo.environment
        if let seed = environment["JORYIO_PUSH_SIM_SEED"].flatMap(UInt64.init) { return [seed] }
        let count = environment["JORYIO_PUSH_SIM_SEEDS"].flatMap(Int.init) ?? 40
        return Array(1...UInt64(max(1, count)))
    }()

    @Test(
        "Random push calls, privacy, identity, faults and restarts: the server ends with the model's token",
        arguments: Self.seeds
    )
    func simulate(seed: UInt64) async throws {
        let simulation = try PushSimulation(seed: seed)
        defer { simulation.tearDown() }
        if let failure = await simulation.run(steps: 60) {
            Issue.record("seed \(seed): \(failure)\ntrace:\n\(simulation.trace.joined(separator: "\n"))")
        }
    }

    @Test("The simulation catches a registration sent while opted out")
    func catchesRegistrationWhileOptedOut() async throws {
        let server = PushServerDouble(scheduler: ManualScheduler())
        server.record(path: "register", body: .object(["token": .string("ab")]), allowed: false)
        #expect(server.violations.count == 1)
    }
}

/// The push endpoints' rules in Swift, answering on virtual time so requests can overlap.
final class PushServerDouble: Transport, @unchecked Sendable {
    enum Fault: Sendable, Equatable {
        case unavailable, successFalse, offline, lostAnswer
    }

    private struct Holder {
        var owner: String
        var changedAt: String
    }

    private struct State {
        var tokens: [String: Holder] = [:]
        var unregisteredAt: [String: String] = [:]
        var appliedWrites: Set<String> = []
        var inFlight = 0
        var faults: [Fault] = []
        var violations: [String] = []
        var allowed = true
        var sent: [String] = []
    }

    private let state = Locked(State())
    private let current: Locked<ManualScheduler>
    private var scheduler: ManualScheduler { self.current.value }

    init(scheduler: ManualScheduler) {
        self.current = Locked(scheduler)
    }

    /// The process was killed and a new one runs on `scheduler`: the old process's requests are
    /// gone with it (their answers never arrive, and whether the server saw them does not matter to
    /// the rules, which the retries of the next launch exercise anyway).
    func restarted(on scheduler: ManualScheduler) {
        self.current.withLock { $0 = scheduler }
        self.state.withLock { $0.inFlight = 0 }
    }

    /// Whether the person may be registered now (the simulation's model says).
    var allowed: Bool {
        get { self.state.withLock { $0.allowed } }
        set { self.state.withLock { $0.allowed = newValue } }
    }

    var violations: [String] { self.state.withLock { $0.violations } }
    var sent: [String] { self.state.withLock { $0.sent } }

    /// The next requests fail with these faults, in order.
    func inject(_ faults: [Fault]) {
        self.state.withLock { $0.faults += faults }
    }

    func clearFaults() {
        self.state.withLock { $0.faults = [] }
    }

    /// Token → the profile (user id, or anonymous id) holding it.
    var holders: [String: String] {
        self.state.withLock { $0.tokens.mapValues(\.owner) }
    }

    /// Checks the invariants a request must meet when it leaves.
    func record(path: String, body: JSONValue, allowed: Bool) {
        self.state.withLock { state in
            state.sent.append("\(path) \(body["token"]?.stringValue?.prefix(4) ?? "-")")
            if path == "register", !allowed {
                state.violations.append("a registration was sent while not allowed")
            }
        }
    }

    func send(_ request: HTTPRequest, completion: @escaping @Sendable (Result<HTTPResponse, TransportError>) -> Void) {
        guard let range = request.url.path.range(of: "/v1/push/") else {
            // Events, attributes, identify …: accepted.
            self.scheduler.enqueue { completion(.success(.json(200, #"{"success":true}"#))) }
            return
        }
        let path = String(request.url.path[range.upperBound...])
        let body = request.body.flatMap(JSONValue.parse) ?? .null
        let fault = self.state.withLock { state -> Fault? in
            state.inFlight += 1
            if state.inFlight > 1 { state.violations.append("two push requests were on the wire at once") }
            return state.faults.isEmpty ? nil : state.faults.removeFirst()
        }
        self.record(path: path, body: body, allowed: self.allowed)
        let scheduler = self.scheduler
        _ = scheduler.schedule(after: 0.2) { [self] in
            guard self.scheduler === scheduler else { return }  // the process was killed
            self.state.withLock { $0.inFlight -= 1 }
            switch fault {
            case .unavailable:
                completion(.success(.json(503, #"{"success":false}"#)))
            case .successFalse:
                completion(.success(.json(200, #"{"success":false}"#)))
            case .offline:
                completion(.failure(TransportError(.cannotConnect, "offline")))
            case .lostAnswer:
                self.apply(path: path, body: body)
                completion(.failure(TransportError(.timeout, "answer lost")))
            case nil:
                self.apply(path: path, body: body)
                completion(.success(.json(200, #"{"success":true}"#)))
            }
        }
    }

    /// protocol.md 5.9 and 5.10.
    private func apply(path: String, body: JSONValue) {
        guard let token = body["token"]?.stringValue?.lowercased(),
            let writeId = body["writeId"]?.stringValue,
            // Fixed-width ISO 8601 in UTC: the strings order as the instants do.
            let timestamp = body["timestamp"]?.stringValue
        else {
            self.state.withLock { $0.violations.append("a malformed \(path) body") }
            return
        }
        self.state.withLock { state in
            guard state.appliedWrites.insert(writeId).inserted else { return }
            let last = max(state.tokens[token]?.changedAt ?? "", state.unregisteredAt[token] ?? "")
            guard timestamp >= last else { return }  // the newest change of a token wins
            switch path {
            case "register":
                let owner = body["userId"]?.stringValue ?? body["anonymousId"]?.stringValue ?? "?"
                state.tokens[token] = Holder(owner: owner, changedAt: timestamp)
                state.unregisteredAt[token] = nil
            case "unregister":
                state.tokens[token] = nil
                state.unregisteredAt[token] = timestamp
            default:
                state.violations.append("unknown push path \(path)")
            }
        }
    }
}

/// One seed: the SDK over ``PushServerDouble`` on real SQLite, and the model it must agree with.
final class PushSimulation: @unchecked Sendable {
    static let tokens = ["a1", "b2", "c3"].map { String(repeating: $0, count: 32) }
    static let users = ["u1", "u2", "u3"]

    private var random: SplitMix64
    private let directory: URL
    private var scheduler = ManualScheduler()
    let server: PushServerDouble
    private var sdk: TestSDK
    private var nextFirstId: UInt64 = 1
    private(set) var trace: [String] = []
    /// `registerPushToken` call number → how many answers it got.
    private let answers = Locked<[Int: Int]>([:])
    /// The first call number of the running process (earlier ones died with their process).
    private var firstCallOfProcess = 0
    private var calls = 0

    // The model.
    private var token: String?
    private var pushOff = false
    private var optedOut = false
    private var denied = false

    private var allowed: Bool { !self.optedOut && !self.denied }

    init(seed: UInt64) throws {
        self.random = SplitMix64(seed: seed)
        self.directory = FileManager.default.temporaryDirectory.appendingPathComponent("push-sim-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: self.directory, withIntermediateDirectories: true)
        self.server = PushServerDouble(scheduler: self.scheduler)
        self.sdk = Self.launch(self.directory, scheduler: self.scheduler, server: self.server, firstId: 1)
        self.nextFirstId = 100_000
        self.sdk.start()
    }

    private static func launch(
        _ directory: URL,
        scheduler: ManualScheduler,
        server: PushServerDouble,
        firstId: UInt64
    ) -> TestSDK {
        TestSDK(
            transport: server,
            storage: .sqlite(directory: directory),
            scheduler: scheduler,
            identifiers: SequentialIdentifierGenerator(first: firstId),
            features: .joryio(
                push: FakePushPlatform(authorization: .authorized),
                environment: .production,
                bundleId: "com.example.sim"
            )
        )
    }

    func tearDown() {
        try? FileManager.default.removeItem(at: self.directory)
    }

    /// Runs `steps` random steps, then settles; the first broken invariant, or `nil`.
    func run(steps: Int) async -> String? {
        for _ in 0..<steps {
            await self.step()
            self.scheduler.runUntilIdle()
            if let violation = self.server.violations.first { return violation }
        }
        return self.settle()
    }

    private func step() async {
        let roll = Int.random(in: 0..<100, using: &self.random)
        let token = Self.tokens[Int.random(in: 0..<Self.tokens.count, using: &self.random)]
        switch roll {
        case 0..<14:
            self.note("iOS token \(token.prefix(4))")
            self.sdk.joryio.didRegisterForRemoteNotifications(deviceToken: Self.bytes(token))
            self.token = token
        case 14..<24:
            self.note("registerPushToken \(token.prefix(4))")
            let call = self.calls
            self.calls += 1
            self.answers.withLock { $0[call] = 0 }
            self.sdk.joryio.registerPushToken(token) { [answers] _ in answers.withLock { $0[call, default: 0] += 1 } }
            self.token = token
            self.pushOff = false
        case 24..<29:
            self.note("requestPushPermission")
            _ = await self.sdk.joryio.requestPushPermission()
            self.pushOff = false
        case 29..<36:
            self.note("unregisterPush")
            self.sdk.joryio.unregisterPush()
            self.pushOff = true
        case 36..<44:
            let user = Self.users[Int.random(in: 0..<Self.users.count, using: &self.random)]
            self.note("identify \(user)")
            self.sdk.joryio.identify(user)
        case 44..<48:
            self.note("reset")
            self.sdk.joryio.reset()
        case 48..<51:
            self.note("wipeData")
            self.sdk.joryio.wipeData()
            self.token = nil
            self.pushOff = true
        case 51..<56:
            self.note("optOut")
            self.sdk.joryio.optOut()
            self.optedOut = true
        case 56..<61:
            self.note("optIn")
            self.sdk.joryio.optIn()
            self.optedOut = false
        case 61..<65:
            self.note("consent denied")
            self.sdk.joryio.updateConsent(.denied)
            self.denied = true
        case 65..<70:
            self.note("consent granted")
            self.sdk.joryio.updateConsent(.granted)
            self.denied = false
        case 70..<78:
            let faults: [PushServerDouble.Fault] = (0..<Int.random(in: 1...3, using: &self.random)).map { _ in
                [.unavailable, .successFalse, .offline, .lostAnswer][Int.random(in: 0..<4, using: &self.random)]
            }
            self.note("faults \(faults)")
            self.server.inject(faults)
        case 78..<86:
            self.note("restart")
            // A kill: the old process runs nothing more; the new one continues the same clock.
            self.sdk.joryio.relinquishStorage()
            self.scheduler = ManualScheduler(start: self.scheduler.now())
            self.server.restarted(on: self.scheduler)
            self.firstCallOfProcess = self.calls
            self.sdk = Self.launch(
                self.directory,
                scheduler: self.scheduler,
                server: self.server,
                firstId: self.nextFirstId
            )
            self.nextFirstId += 100_000
            if Int.random(in: 0..<3, using: &self.random) == 0 {
                // A token from iOS before initialize() (PUSH-8).
                self.note("  iOS token \(token.prefix(4)) before initialize()")
                self.sdk.joryio.didRegisterForRemoteNotifications(deviceToken: Self.bytes(token))
                self.token = token
            }
            self.server.allowed = self.allowed
            self.sdk.start()
        case 86..<92:
            self.note("foreground")
            self.sdk.joryio.applicationWillEnterForeground()
        default:
            let seconds = [0.1, 1, 5, 30, 300][Int.random(in: 0..<5, using: &self.random)]
            self.note("advance \(seconds) s")
            self.scheduler.advance(by: seconds)
        }
        self.server.allowed = self.allowed
    }

    /// Opted in, consent granted, no faults, time passing: then the server must hold the model's
    /// token for the current person and no other token of this installation.
    private func settle() -> String? {
        self.note("settle")
        self.server.clearFaults()
        self.sdk.joryio.optIn()
        self.sdk.joryio.updateConsent(.granted)
        self.optedOut = false
        self.denied = false
        self.server.allowed = true
        for _ in 0..<12 {
            self.scheduler.advance(by: 600)
            self.sdk.joryio.applicationWillEnterForeground()
            self.scheduler.runUntilIdle()
        }
        if let violation = self.server.violations.first { return violation }
        // PUSH-12: never answered twice; every call of the running process answered by now.
        let counts = self.answers.value
        if let twice = counts.first(where: { $0.value > 1 }) {
            return "registerPushToken call \(twice.key) was answered \(twice.value) times"
        }
        if let unanswered = counts.first(where: { $0.key >= self.firstCallOfProcess && $0.value == 0 }) {
            return "registerPushToken call \(unanswered.key) was never answered"
        }
        let identity = self.sdk.joryio.getIdentity()
        let owner = identity.userId ?? identity.anonymousId
        var expected: [String: String] = [:]
        if let token = self.token, !self.pushOff { expected[token] = owner }
        let holders = self.server.holders.filter { Self.tokens.contains($0.key) }
        guard holders == expected else {
            return "the server holds \(holders.map { "\($0.key.prefix(4))→\($0.value)" }.sorted()), "
                + "the model expects \(expected.map { "\($0.key.prefix(4))→\($0.value)" }.sorted()); "
                + "sent: \(self.server.sent)"
        }
        guard self.sdk.joryio.getDeviceToken() == self.token else {
            return "getDeviceToken() is \(self.sdk.joryio.getDeviceToken()?.prefix(4) ?? "nil"), "
                + "the model's token \(self.token?.prefix(4) ?? "nil")"
        }
        return nil
    }

    private func note(_ line: String) {
        self.trace.append(line)
    }

    private static func bytes(_ hex: String) -> Data {
        var data = Data()
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            data.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        return data
    }
}
