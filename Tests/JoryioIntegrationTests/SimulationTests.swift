import Foundation
import Joryio
import JoryioCore
import JoryioStorage
import JoryioTesting
import JoryioTransport
import Testing

/// Deterministic simulation (ARCHITECTURE §8.4): random API calls (consent and opt-out included),
/// clock jumps, transport faults and restarts under virtual time, with the invariants checked after
/// every step. Privacy invariants: nothing tracked while opted out or denied is stored or reaches
/// the server; no request leaves while collection is not allowed (see `settleRequests`); an opt-out
/// or denial purges the queue on purpose; held (pending) events are delivered once granted.
///
/// SDK authentication (AUTH, 60 % of the seeds): user switches, `reset()`, token changes (for the
/// next user too, forged, repeated) and expiry, with an error handler that answers on the virtual
/// timeline after a random delay, or never. Invariants: no request ever carries a token whose `sub`
/// is not the request's user (nor a token on an anonymous request, nor a batch mixing users); the
/// handler hears only about the current user, once until a token arrives; the current user's events
/// survive a 401, and only a departed user's may be dropped by one (AUTH-8).
///
/// `JORYIO_SIM_SEEDS=<n>` runs seeds 1…n (default 20), `JORYIO_SIM_SEED=<s>` replays one seed,
/// `JORYIO_SIM_STEPS=<n>` changes the number of steps (default 300), `JORYIO_SIM_STATS=1` prints what
/// each seed exercised. A failure names its seed and step and shows the last things that happened.
@Suite("Seeded simulation")
struct SimulationTests {
    static let seeds: [UInt64] = {
        let environment = ProcessInfo.processInfo.environment
        if let seed = environment["JORYIO_SIM_SEED"].flatMap(UInt64.init) { return [seed] }
        let count = environment["JORYIO_SIM_SEEDS"].flatMap(Int.init) ?? 20
        return Array(1...UInt64(max(1, count)))
    }()

    static let steps = ProcessInfo.processInfo.environment["JORYIO_SIM_STEPS"].flatMap(Int.init) ?? 300

    @Test(
        "Random calls, faults and restarts: nothing accepted is lost or stored twice, the queue stays bounded and drains",
        arguments: Self.seeds
    )
    func simulate(seed: UInt64) {
        let simulation = Simulation(seed: seed)
        defer { simulation.tearDown() }
        let failure = simulation.run(steps: Self.steps)
        if ProcessInfo.processInfo.environment["JORYIO_SIM_STATS"] != nil {
            print("seed \(seed): \(simulation.statistics)")
        }
        guard let failure else { return }
        Issue.record("\(failure.message)")
    }

    @Test("The same seed replays exactly")
    func replaysExactly() {
        func trace(_ seed: UInt64) -> [String] {
            let simulation = Simulation(seed: seed)
            defer { simulation.tearDown() }
            _ = simulation.run(steps: 100)
            return simulation.server.state.withLock { $0.trace }
        }
        let first = trace(7)
        #expect(first.count > 100)
        #expect(trace(7) == first)
    }
}

/// One seeded run: a configuration, a fake server, and SDK instances over one SQLite directory.
final class Simulation {
    private enum Kind {
        case track, burst, trackWithoutRunning, flush, background, advance, faults, restart, crash
        case privacy, privacyBurst
        case identify, reset, setToken, expire
    }

    /// How a seed uses SDK authentication (AUTH).
    private enum AuthMode: CustomStringConvertible {
        /// Off: no token is ever set, the server checks nothing, and no request may carry a header.
        case off
        /// `JoryioConfig(enableSdkAuthentication: true)` on every launch.
        case config
        /// A token set before the first `initialize()` turns it on (AUTH-3, AUTH-11), for good.
        case preInitToken

        var description: String {
            switch self {
            case .off: "off"
            case .config: "enableSdkAuthentication"
            case .preInitToken: "a token set before initialize()"
            }
        }
    }

    /// A privacy call, as the app makes it.
    private enum Decision: CustomStringConvertible {
        case optOut, optIn, consent(TrackingConsent)

        var description: String {
            switch self {
            case .optOut: "optOut()"
            case .optIn: "optIn()"
            case .consent(let consent): "updateConsent(.\(consent))"
            }
        }
    }

    private struct Instance {
        let joryio: Joryio
        let scheduler: InstanceScheduler
        let transport: SimTransport
        let spy: SpyQueueStore
    }

    let seed: UInt64
    let server: SimServer
    private var rng: SplitMix64
    private let time = ManualScheduler()
    private let directory: URL
    private let ledger = SimLedger()
    private let config: JoryioConfig
    private var current: Instance?
    private var launches: UInt64 = 0
    /// Launches that made calls before `initialize()`.
    private var preInitLaunches = 0
    private var nextTag = 0
    private var invalidTags: Set<Int> = []
    /// Tags tracked since the engine last ran to idle, and whether the SDK should store them.
    private var unsettled: [Int: Bool] = [:]
    /// Accepted events not yet delivered, evicted or rejected: each must still be queued.
    private var outstanding: Set<String> = []
    private var step = 0

    // The privacy model (SPEC CONSENT-18). Collection is allowed only when not opted out and consent
    // is `.granted`; a `track` while opted out or denied is dropped at the call; while `.pending`
    // events are held on the device and nothing is sent. Opt-out and denial persist across
    // restarts, `.pending` does not, and `.pending` never overrides a denial.
    private var optedOut = false
    private var consent: TrackingConsent = .granted
    /// Tags tracked while opted out or denied: none may be stored, let alone reach the server.
    private var notAllowedTags: Set<Int> = []
    /// Every tag below this was tracked before an opt-out or denial deleted the queue: such an
    /// event is "purged on purpose" unless it was delivered first, and must no longer be queued.
    private var purgedBelow = 0
    /// The server's request count when the simulation last looked.
    private var requestsChecked = 0
    /// Whether a request may have left since then: collection was allowed at some point (in call
    /// order) since the last look. See ``settleRequests(_:)``.
    private var mayHaveSent = true
    private var requestViolation: String?

    // SDK authentication (AUTH). The server checks every event request's token against its events'
    // users (SimAuthCheck); the model knows who is current (`server.state.currentUser`, the same
    // value the handler and the transport read on the virtual timeline).
    private let authMode: AuthMode
    private static let users = ["u1", "u2", "u3"]
    /// A user the app set a token for before identifying them (AUTH-6), likely the next `identify`.
    private var nextUser: String?
    /// The last token the app set, for setting the same one again.
    private var lastToken: String?

    private var currentUser: String? {
        get { self.server.state.withLock { $0.currentUser } }
        set { self.server.state.withLock { $0.currentUser = newValue } }
    }

    private var allowed: Bool { !self.optedOut && self.consent == .granted }
    private var privacyDescription: String { "optedOut \(self.optedOut), consent .\(self.consent)" }

    init(seed: UInt64) {
        self.seed = seed
        self.rng = SplitMix64(seed: seed)
        self.server = SimServer(seed: seed ^ 0x5EED_5E4E_4000_0001)
        self.directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("joryio-sim-\(seed)-\(UUID().uuidString)", isDirectory: true)
        var rng = self.rng
        var config = JoryioConfig(
            batchSize: rng.int(1...60),
            flushInterval: rng.double(1...10),
            sendImmediately: rng.chance(0.1),
            maxQueueSize: rng.int(20...200),
            maxRetries: rng.int(0...4),
            retryBackoffMs: rng.double(50...3_000),
            requestTimeout: rng.double(1...15)
        )
        config.trackSessionStart = false  // the model counts exactly the events it tracks
        let authRoll = rng.int(0...99)
        self.authMode = authRoll < 40 ? .off : authRoll < 70 ? .config : .preInitToken
        config.enableSdkAuthentication = self.authMode == .config
        self.config = config
        self.rng = rng
        self.server.state.withLock { $0.authEnabled = self.authMode != .off }
        self.note(
            "config: batchSize \(self.config.batchSize), flushInterval \(self.config.flushInterval), sendImmediately \(self.config.sendImmediately), "
                + "maxQueueSize \(self.config.maxQueueSize), maxRetries \(self.config.maxRetries), retryBackoffMs \(self.config.retryBackoffMs), "
                + "requestTimeout \(self.config.requestTimeout), SDK authentication \(self.authMode)"
        )
    }

    func tearDown() {
        self.current?.scheduler.crash()
        self.current = nil
        try? FileManager.default.removeItem(at: self.directory)
    }

    /// A broken invariant, described for a human, with the seed and step to replay it.
    struct Failure {
        var message: String
    }

    /// Runs `steps` random steps and the final drain; the first broken invariant, or `nil`.
    func run(steps: Int) -> Failure? {
        self.launch()
        for number in 1...steps {
            self.step = number
            self.perform(self.nextKind())
            if let problem = self.check() { return Failure(message: self.failure(problem)) }
        }
        self.step = steps + 1
        return self.drain().map { Failure(message: self.failure($0.message)) }
    }

    // MARK: - Steps

    private func nextKind() -> Kind {
        var kinds: [(Int, Kind)] = [
            (30, .track), (3, .burst), (4, .trackWithoutRunning), (8, .flush), (4, .background),
            (31, .advance), (12, .faults), (3, .restart), (2, .crash),
            (8, .privacy), (1, .privacyBurst), (4, .identify), (2, .reset),
        ]
        if self.authMode != .off { kinds += [(5, .setToken), (4, .expire)] }
        return self.rng.pick(kinds)
    }

    private func perform(_ kind: Kind) {
        guard let sdk = self.current else { return }
        switch kind {
        case .track, .burst, .trackWithoutRunning:
            let count = kind == .burst ? self.rng.int(10...50) : self.rng.int(1...3)
            let first = self.nextTag
            for _ in 0..<count { self.trackRandomEvent(sdk.joryio) }
            self.note(
                "step \(self.step): track \(count) (tags \(first)…\(self.nextTag - 1))\(kind == .trackWithoutRunning ? ", not run yet" : "")"
            )
            if kind != .trackWithoutRunning { self.time.runUntilIdle() }
        case .flush:
            self.note("step \(self.step): flush")
            sdk.joryio.flush()
            self.time.runUntilIdle()
        case .background:
            self.note("step \(self.step): background")
            sdk.joryio.applicationDidEnterBackground()
            self.time.runUntilIdle()
        case .advance:
            let ranges: [ClosedRange<Double>] = [0.001...1, 1...15, 15...120, 300...3_600]
            let seconds = self.rng.double(ranges[self.rng.pick([(40, 0), (40, 1), (15, 2), (5, 3)])])
            self.note("step \(self.step): advance \(seconds) s")
            self.time.advance(by: seconds)
        case .faults:
            let faults = (0..<self.rng.int(1...3)).map { _ in self.randomFault() }
            self.note("step \(self.step): script \(faults)")
            self.server.state.withLock { $0.script += faults }
        case .privacy:
            // Whatever earlier steps left runs first (the engine would run it before the decision
            // anyway), so this step checks strictly: nothing may leave once the decision applied.
            self.time.runUntilIdle()
            self.settleRequests("before the decision")
            let decision = self.randomDecision()
            self.note("step \(self.step): \(decision)")
            self.apply(decision, to: sdk.joryio)
            self.mayHaveSent = self.allowed
            self.time.runUntilIdle()
        case .privacyBurst:
            // Calls in a row with nothing run in between: the engine must apply them in call order
            // (`optOut(); track(); optIn()` never collects the track).
            var calls: [String] = []
            for _ in 0..<self.rng.int(2...6) {
                if self.rng.chance(0.4) {
                    calls.append("track (tag \(self.nextTag))")
                    self.trackRandomEvent(sdk.joryio)
                } else {
                    let decision = self.randomDecision()
                    calls.append("\(decision)")
                    self.apply(decision, to: sdk.joryio)
                }
            }
            self.note("step \(self.step): in a row: \(calls.joined(separator: ", ")) → \(self.privacyDescription)")
            self.time.runUntilIdle()
        case .identify:
            self.time.runUntilIdle()  // the model and the engine change users at the same point
            let user =
                self.nextUser.flatMap { self.rng.chance(0.7) ? $0 : nil } ?? Self.users[self.rng.int(0...2)]
            let previous = self.currentUser
            self.currentUser = user
            self.nextUser = nil
            self.userChanged()
            // The usual login: identify, then the user's token (the other order is `setToken`).
            let login = self.authMode != .off && previous != user && self.rng.chance(0.5)
            self.note(
                "step \(self.step): identify(\(user))\(previous.map { $0 == user ? " again" : " (switch from \($0))" } ?? "")"
                    + (login ? " and a token for them" : "")
            )
            sdk.joryio.identify(user)
            if login { self.setToken(sub: user, lifetime: self.rng.double(30...7_200), on: sdk.joryio) }
            self.time.runUntilIdle()
        case .reset:
            self.time.runUntilIdle()
            self.note("step \(self.step): reset()\(self.currentUser.map { " (\($0) logs out)" } ?? "")")
            self.currentUser = nil
            self.userChanged()
            sdk.joryio.reset()
            self.time.runUntilIdle()
        case .setToken:
            let roll = self.rng.int(0...99)
            let lifetime = self.rng.double(30...7_200)
            if roll < 10, let token = self.lastToken {
                self.note("step \(self.step): the same token again")
                self.setToken(token, on: sdk.joryio)
            } else if roll < 18, let user = self.currentUser {
                self.note("step \(self.step): a forged token for \(user)")
                self.setToken(sub: user, lifetime: lifetime, signed: false, on: sdk.joryio)
            } else if roll < 40 || self.currentUser == nil {
                let others = Self.users.filter { $0 != self.currentUser }
                let user = others[self.rng.int(0...(others.count - 1))]
                self.nextUser = user
                self.note("step \(self.step): a token for the next user, \(user)")
                self.setToken(sub: user, lifetime: lifetime, on: sdk.joryio)
            } else if let user = self.currentUser {
                self.note("step \(self.step): a fresh token for \(user)")
                self.setToken(sub: user, lifetime: lifetime, on: sdk.joryio)
            }
            self.time.runUntilIdle()
        case .expire:
            // The current token runs out: a short-lived one, then the clock passes its `exp`.
            guard let user = self.currentUser else { return }
            let lifetime = self.rng.double(0...5)
            let seconds = self.rng.double(5...90)
            self.note("step \(self.step): a token for \(user) expiring in \(lifetime) s, then advance \(seconds) s")
            self.setToken(sub: user, lifetime: lifetime, on: sdk.joryio)
            self.time.runUntilIdle()
            self.time.advance(by: seconds)
        case .restart, .crash:
            self.note(
                "step \(self.step): \(kind == .restart ? "restart (pending work committed first)" : "crash (pending work lost)")"
            )
            if kind == .restart { self.time.runUntilIdle() }
            // Sometimes the new launch is configured to start opted out or with consent pending.
            let roll = self.rng.int(0...99)
            let pending = (6..<26).contains(roll)
            self.restart(optOut: roll < 6, pending: pending)
            self.time.runUntilIdle()
        }
    }

    /// A random privacy call. Withdrawals are rarer than restorations, and a state that does not
    /// allow collection is usually undone next, so events still flow most of the time (the repeated
    /// calls that change nothing are part of the test).
    private func randomDecision() -> Decision {
        if !self.allowed, self.rng.chance(0.85) {
            return self.optedOut && (self.consent == .granted || self.rng.chance(0.5)) ? .optIn : .consent(.granted)
        }
        return self.rng.pick([
            (5, .optOut), (30, .optIn), (5, .consent(.denied)), (8, .consent(.pending)), (30, .consent(.granted)),
        ])
    }

    /// The app sets a fresh token for `sub`, expiring `lifetime` seconds from now.
    private func setToken(sub: String, lifetime: TimeInterval, signed: Bool = true, on joryio: Joryio) {
        self.setToken(
            self.server.mintToken(sub: sub, now: self.time.now(), lifetime: lifetime, signed: signed),
            on: joryio
        )
    }

    private func setToken(_ token: String, on joryio: Joryio) {
        self.lastToken = token
        Self.tokenSet(token, server: self.server)
        joryio.setSdkAuthenticationToken(token)
    }

    /// A token for its `sub` was set: the handler may be asked about them again (GAP-36).
    private static func tokenSet(_ token: String, server: SimServer) {
        guard let sub = SimJWT.decode(token)?.sub else { return }
        _ = server.state.withLock { $0.askedWithoutToken.remove(sub) }
    }

    /// `identify` or `reset()`: a new episode for the handler's single flight.
    private func userChanged() {
        self.server.state.withLock { $0.askedWithoutToken = [] }
    }

    /// The app's SDK-authentication error handler (AUTH-4): it fetches a fresh token from "the
    /// backend" and sets it after a short random delay, or (sometimes) never. It must only hear
    /// about the current user (AUTH-9), once per episode (GAP-36).
    private static func errorHandler(
        server: SimServer,
        scheduler: InstanceScheduler,
        joryio: Joryio
    ) -> @Sendable (JoryioAuthError) -> Void {
        // Weak: the instance keeps the handler, and a crashed instance must be able to go away.
        { [weak joryio] error in
            let plan = server.state.withLock { state -> (delay: Double, lifetime: Double)? in
                state.handlerCalls += 1
                let user = error.userId ?? "an anonymous visitor"
                if error.userId == nil || error.userId != state.currentUser {
                    state.violations.append(
                        "the error handler heard about \(user) (\(error.reason)) while \(state.currentUser ?? "nobody") is current (AUTH-9)"
                    )
                }
                if let userId = error.userId, !state.askedWithoutToken.insert(userId).inserted {
                    state.violations.append(
                        "the error handler was asked about \(userId) (\(error.reason)) again, with no token set since (GAP-36)"
                    )
                }
                let answers = state.draining || state.authRng.chance(0.85)
                let plan = answers ? (state.authRng.double(0.01...30), state.authRng.double(30...7_200)) : nil
                state.trace.append(
                    "  handler: \(error.reason) for \(user)"
                        + (plan.map { " → a token in \($0.0) s, valid \($0.1) s" } ?? " → never answers")
                )
                return plan
            }
            guard let plan, let user = error.userId, let joryio else { return }
            scheduler.schedule(after: plan.delay) {
                let draining = server.state.withLock { $0.draining }
                let token = server.mintToken(
                    sub: user,
                    now: scheduler.now(),
                    lifetime: draining ? 86_400 * 3 : plan.lifetime
                )
                server.state.withLock {
                    $0.trace.append("  the handler sets \(SimJWT.describe(token, now: scheduler.now()))")
                }
                Self.tokenSet(token, server: server)
                joryio.setSdkAuthenticationToken(token)
            }
        }
    }

    /// Makes a privacy call and updates the model the same way, in call order.
    private func apply(_ decision: Decision, to joryio: Joryio) {
        switch decision {
        case .optOut:
            joryio.optOut()
            if !self.optedOut {
                self.optedOut = true
                self.purge()
            }
        case .optIn:
            joryio.optIn()
            self.optedOut = false  // held events (if any) become sendable when consent is granted too
        case .consent(let consent):
            joryio.updateConsent(consent)
            switch consent {
            case .denied:
                if self.consent != .denied {
                    self.consent = .denied
                    self.purge()
                }
            case .pending:
                if self.consent == .granted { self.consent = .pending }  // never overrides a denial
            case .granted:
                self.consent = .granted
            }
        }
        self.mayHaveSent = self.mayHaveSent || self.allowed
    }

    /// An opt-out or denial deletes everything queued, held or not, delivered-not-yet or on its
    /// way to the store: every event tracked so far is "purged on purpose" unless it arrived first.
    private func purge() {
        self.purgedBelow = self.nextTag
        self.unsettled = [:]
    }

    /// Invariant (2): no request leaves while the effective state is pending, opted out or denied.
    ///
    /// The server counts a request when it arrives, which is the instant the client sends it. A
    /// request already in flight when a decision stops collection was counted before it, so it is
    /// allowed (its answer may still arrive later); what is not allowed is any request — a retry of
    /// it included — sent after the engine applied the decision. Single decision steps run what
    /// earlier steps left before the decision and check strictly from there; a `privacyBurst`
    /// allows requests if collection was allowed at any point of its call sequence (a track made
    /// in an allowed window may send before the next decision runs); a restart checks the old
    /// instance against the old state and the new instance against the state it starts in.
    private func settleRequests(_ context: String) {
        let requests = self.server.state.withLock { $0.requests }
        if requests > self.requestsChecked, !self.mayHaveSent, self.requestViolation == nil {
            self.requestViolation =
                "\(requests - self.requestsChecked) request(s) left \(context) while collection was not allowed "
                + "(\(self.privacyDescription))"
        }
        self.requestsChecked = requests
        self.mayHaveSent = self.allowed
    }

    private func randomFault() -> SimFault {
        switch self.rng.int(0...99) {
        case 0..<22:
            let status = [500, 502, 503, 504][self.rng.int(0...3)]
            return .status(
                status,
                retryAfter: self.rng.chance(0.3) ? self.rng.int(1...30) : nil,
                asDate: self.rng.chance(0.3)
            )
        case 22..<36:
            return .status(
                429,
                retryAfter: self.rng.chance(0.7) ? self.rng.int(1...60) : nil,
                asDate: self.rng.chance(0.3)
            )
        case 36..<40: return .status(404, retryAfter: nil, asDate: false)
        case 40..<46: return .successFalse
        case 46..<57: return .refused
        case 57..<69: return .timeout(processed: self.rng.chance(0.5))
        case 69..<80: return .invalid(self.rng.chance(0.5) ? 400 : 413)
        case 80..<99: return .indices(rejected: self.rng.double(0...0.3), failed: self.rng.double(0...0.4))
        default: return .status(402, retryAfter: nil, asDate: false)
        }
    }

    /// Tracks one random event tagged `properties.k`, noting whether the SDK should store it.
    private func trackRandomEvent(_ joryio: Joryio) {
        let tag = self.nextTag
        self.nextTag += 1
        var name = ["Item Viewed", "Café ☕ Ordered", "e\u{301}vénement", "Emoji 😀", "tab\tand \"quotes\""][
            self.rng.int(0...4)
        ]
        var properties: [String: Any] = ["k": tag]
        for index in 0..<self.rng.int(0...5) {
            properties["p\(index)"] = self.randomValue(containers: self.rng.int(0...4))
        }
        var valid = true
        switch self.rng.int(0...99) {
        case 0..<6: properties["poison"] = true  // valid for the SDK; the server refuses it
        case 6..<9: properties["nan"] = Double.nan  // the property is dropped, the event kept
        case 9..<11: properties["odd"] = NSObject()  // unsupported type: dropped, event kept
        case 11..<13: name = String(repeating: "\u{1F600}", count: 255)  // longest valid name
        case 13..<16:
            name = ""
            valid = false
        case 16..<18:
            name = String(repeating: "\u{E9}", count: 256)
            valid = false
        case 18..<20:
            for index in 0..<200 { properties["key\(index)"] = index }
            valid = false
        case 20..<22:
            properties["deep"] = [[[[[1]]]]]  // depth 6 with the properties object
            valid = false
        case 22..<24:
            properties["blob"] = String(repeating: "x", count: 51_200)
            valid = false
        case 24..<27:
            // Large events fill the request byte budget; near the 50 KB limit, the other random
            // properties decide, so measure with the canonical encoder (checked against the server
            // by SandboxEncoderMatchesServerTests).
            properties["big"] = String(repeating: "y", count: self.rng.int(20_000...51_000))
            valid = JSONValue.object(JSONValue.convert(properties).value).encodedByteCount <= 51_200
        default: break
        }
        if !valid { self.invalidTags.insert(tag) }
        if self.optedOut || self.consent == .denied {
            // Dropped at the call, whatever follows (CONSENT-18); held when pending.
            self.notAllowedTags.insert(tag)
            self.unsettled[tag] = false
        } else {
            self.unsettled[tag] = valid
        }
        joryio.track(name, properties: properties)
    }

    /// A random property value with at most `containers` levels of arrays and objects.
    private func randomValue(containers: Int) -> Any {
        switch self.rng.int(containers > 0 ? 0...10 : 0...8) {
        case 0:
            return [
                "", "plain", "é ☕ 😀", "line\nbreak \"q\" \\ \u{1}",
                String(repeating: "ab", count: self.rng.int(0...40)),
            ][self.rng.int(0...4)]
        case 1: return [0, -1, 42, Int.max, Int.min][self.rng.int(0...4)]
        case 2: return [0.1, -0.0, 1e300, Double.leastNonzeroMagnitude, 99.99, 1e16][self.rng.int(0...5)]
        case 3: return self.rng.chance(0.5)
        case 4: return NSNull()
        case 5: return Date(timeIntervalSince1970: self.rng.double(0...2_000_000_000))
        case 6: return URL(string: "https://example.com/p?q=\(self.rng.int(0...99))")!
        case 7: return Float(self.rng.double(-1_000...1_000))
        case 8: return Int?.none as Any
        case 9: return (0..<self.rng.int(0...3)).map { _ in self.randomValue(containers: containers - 1) }
        default:
            var object: [String: Any] = [:]
            for index in 0..<self.rng.int(0...3) { object["n\(index)"] = self.randomValue(containers: containers - 1) }
            return object
        }
    }

    // MARK: - Instances

    private func launch(optOut: Bool = false, pending: Bool = false) {
        self.launches += 1
        let scheduler = InstanceScheduler(self.time)
        let transport = SimTransport(server: self.server, scheduler: scheduler)
        let spyBox = Locked<SpyQueueStore?>(nil)
        let ledger = self.ledger
        let environment = JoryioEnvironment(
            scheduler: scheduler,
            clock: scheduler,
            identifiers: SequentialIdentifierGenerator(first: self.launches << 32),
            jitter: DeterministicJitter(seed: self.seed &* 0x9E37_79B9 &+ self.launches),
            makeTransport: { _ in transport },
            openStores: { config, sdkKey, logger in
                let stores = JoryioEnvironment.openStores(
                    config: config,
                    sdkKey: sdkKey,
                    clock: scheduler,
                    logger: logger
                )
                let spy = SpyQueueStore(inner: stores.events, capacity: config.maxQueueSize, ledger: ledger)
                spyBox.withLock { $0 = spy }
                // The real secure and durable stores: the user id and the tokens survive restarts.
                return JoryioStores(
                    events: spy,
                    keyValue: stores.keyValue,
                    secure: stores.secure,
                    durable: stores.durable
                )
            },
            gzip: { try? Gzip.compress($0) },
            userAgent: "joryio-swift/simulation (Linux)"
        )
        var config = self.config
        config.optOut = optOut
        config.trackingConsent = pending ? .pending : nil
        config.storage = .sqlite(directory: self.directory)
        config.logSink = NoOpLogSink()
        config.logLevel = LogLevel.none
        let joryio = Joryio(environment: environment)
        let handler = Self.errorHandler(server: self.server, scheduler: scheduler, joryio: joryio)
        self.server.state.withLock { $0.askedWithoutToken = [] }  // a new launch, a new coordinator
        let handlerBeforeInit = self.rng.chance(0.5)
        if handlerBeforeInit { joryio.setSdkAuthenticationErrorHandler(handler) }
        if self.authMode == .preInitToken, self.launches == 1 {
            let user = Self.users[self.rng.int(0...2)]
            self.nextUser = user
            self.note("before initialize(): a token for \(user)")
            self.setToken(sub: user, lifetime: self.rng.double(30...7_200), on: joryio)
        }
        // Sometimes the app calls before `initialize()` (INIT-5, INIT-6): tracks, privacy
        // decisions, identify with the user's token, reset, in any order. A launch the configuration
        // opts out or holds pending gets none, so the model's order (config, then calls) is the SDK's.
        if !optOut, !pending, self.rng.chance(0.35) {
            self.preInitCalls(on: joryio)
        }
        joryio.initialize(
            sdkKey: "jry_sdk_ios_simulation",
            apiHost: "https://api.simulation.joryio.test/api",
            config: config
        )
        if !handlerBeforeInit { joryio.setSdkAuthenticationErrorHandler(handler) }
        self.time.runUntilIdle()
        let spy = spyBox.value!
        precondition(spy.inner is SQLiteQueueStore, "the simulation must run over SQLite")
        self.current = Instance(joryio: joryio, scheduler: scheduler, transport: transport, spy: spy)
    }

    /// Up to six calls before `initialize()`, applied to the model in call order: a call that
    /// collects while the decisions made so far forbid it is dropped at the call (INIT-8); a later
    /// opt-out or denial deletes what earlier calls collected; identify and its token, and reset,
    /// take effect in order, so a token set after `identify(a)` is a's (AUTH-6, AUTH-11).
    private func preInitCalls(on joryio: Joryio) {
        self.preInitLaunches += 1
        for _ in 0..<self.rng.int(1...6) {
            switch self.rng.int(0...9) {
            case 0...3:
                self.note("before initialize(): track")
                self.trackRandomEvent(joryio)
            case 4...6:
                let decision = self.randomDecision()
                self.note("before initialize(): \(decision)")
                self.apply(decision, to: joryio)
            case 7, 8:
                let user = Self.users[self.rng.int(0...2)]
                self.currentUser = user
                self.nextUser = nil
                self.userChanged()
                let login = self.authMode != .off
                self.note("before initialize(): identify(\(user))\(login ? " and a token for them" : "")")
                joryio.identify(user)
                if login { self.setToken(sub: user, lifetime: self.rng.double(30...7_200), on: joryio) }
            default:
                self.note("before initialize(): reset()")
                self.currentUser = nil
                self.userChanged()
                joryio.reset()
            }
        }
    }

    /// A new instance over the same directory; the old one's pending work and answers are gone.
    private func restart(optOut configOptOut: Bool = false, pending configPending: Bool = false) {
        self.settleRequests("before the restart")
        if let old = self.current {
            old.scheduler.crash()
            old.transport.crash()
        }
        self.current = nil
        self.unsettled = [:]  // uncommitted events may be lost: they were never accepted
        // The stored state comes back: opt-out and denial persist, `.pending` does not.
        if self.consent == .pending { self.consent = .granted }
        if configOptOut, !self.optedOut {
            self.optedOut = true  // `optOut: true` persists exactly like optOut()
            self.purge()
        }
        if configPending, self.consent == .granted { self.consent = .pending }
        self.note(
            "restart\(configOptOut ? " with optOut: true" : "")\(configPending ? " with trackingConsent: .pending" : "") → "
                + self.privacyDescription
        )
        self.mayHaveSent = self.allowed
        self.launch(optOut: configOptOut, pending: configPending)
    }

    // MARK: - Invariants

    private var isIdle: Bool {
        guard let next = self.time.nextDueDate else { return true }
        return next > self.time.now()
    }

    /// The first broken invariant, or `nil`.
    private func check() -> String? {
        guard let sdk = self.current else { return "no instance" }
        self.settleRequests("during the step")
        if let requestViolation { return requestViolation }
        if sdk.joryio.isUserOptedOut() != self.optedOut || sdk.joryio.getTrackingConsent() != self.consent {
            return
                "the getters answer optedOut \(sdk.joryio.isUserOptedOut()), consent .\(sdk.joryio.getTrackingConsent()); "
                + "expected \(self.privacyDescription)"
        }
        if sdk.joryio.getUserId() != self.currentUser {
            return "getUserId() answers \(sdk.joryio.getUserId() ?? "nil"), expected \(self.currentUser ?? "nil")"
        }
        let (violation, newlyStored, newlyAcked) = self.server.state.withLock { state in
            defer {
                state.newlyStored = []
                state.newlyAcked = []
            }
            return (state.violations.first, state.newlyStored, state.newlyAcked)
        }
        if let violation { return "protocol rule broken: \(violation)" }
        let (problem, newlyAccepted, acceptedTags) = self.ledger.state.withLock { state in
            defer { state.newlyAccepted = [] }
            return (state.problems.first, state.newlyAccepted, state.acceptedTags)
        }
        if let problem { return problem }

        // Validation: exactly the events that pass the SDK's checks are stored.
        let wronglyStored = acceptedTags.intersection(self.invalidTags)
        if !wronglyStored.isEmpty { return "events that fail validation were stored: tags \(wronglyStored.sorted())" }

        // Invariant (1): nothing tracked while not allowed is collected, so it cannot reach the server.
        let collected = acceptedTags.intersection(self.notAllowedTags)
        if !collected.isEmpty {
            return "events tracked while opted out or denied were stored: tags \(collected.sorted().prefix(10))"
        }
        let arrived = self.ledger.state.withLock { ledger in
            (newlyStored + newlyAcked).first { ledger.accepted[$0].map(self.notAllowedTags.contains) ?? false }
        }
        if let arrived { return "\(arrived), tracked while opted out or denied, reached the server" }
        if self.isIdle {
            let missing = self.unsettled.filter { $0.value && !acceptedTags.contains($0.key) }.keys.sorted()
            if !missing.isEmpty { return "valid events were not stored: tags \(missing)" }
            self.unsettled = [:]
        }

        // Nothing delivered twice: an event is acknowledged again only after an acknowledgement
        // the client never saw (a timeout after processing, or a crash with the answer on its way).
        let phantom = self.ledger.state.withLock { state in newlyStored.first { state.accepted[$0] == nil } }
        if let phantom { return "the server stored \(phantom), which the SDK never committed" }
        let duplicate = self.server.state.withLock { state -> String? in
            for id in newlyAcked where state.acks[id, default: 0] > 1 + state.lostAcks[id, default: 0] {
                return
                    "\(id) acknowledged \(state.acks[id, default: 0]) times, but only \(state.lostAcks[id, default: 0]) "
                    + "acknowledgements went unseen by the client"
            }
            return nil
        }
        if let duplicate { return duplicate }

        // Nothing accepted is lost: delivered, still queued, evicted by maxQueueSize, or refused by
        // the server on purpose.
        let queued: [String]
        let count: Int
        do {
            queued = try sdk.spy.storedMessageIDs()
            count = try sdk.spy.count()
        } catch {
            return "cannot read the queue: \(error)"
        }
        self.outstanding.formUnion(newlyAccepted)
        let purgedBelow = self.purgedBelow
        let queuedSet = Set(queued)
        let (resolved, stillQueued) = self.server.state.withLock { server in
            self.ledger.state.withLock { ledger in
                (
                    self.outstanding.filter {
                        server.stored.contains($0) || server.rejected.contains($0) || ledger.evicted.contains($0)
                            || (ledger.accepted[$0].map { $0 < purgedBelow } ?? false)  // purged on purpose
                            // a departed user's events, dropped on a 401 (AUTH-8)
                            || (server.authDropped.contains($0) && !queuedSet.contains($0))
                    },
                    queued.first { ledger.accepted[$0].map { $0 < purgedBelow } ?? false }
                )
            }
        }
        if let stillQueued {
            return
                "\(stillQueued) is still queued after an opt-out or denial deleted the queue (\(self.privacyDescription))"
        }
        if self.optedOut || self.consent == .denied, !queued.isEmpty {
            return "\(queued.count) events queued while \(self.privacyDescription)"
        }
        self.outstanding.subtract(resolved)
        let lost = self.outstanding.subtracting(queued)
        if !lost.isEmpty {
            return
                "accepted events lost (not delivered, queued, evicted, rejected or dropped as a departed user's): "
                + "\(lost.sorted().prefix(5)) of \(lost.count)"
        }

        // The queue stays within maxQueueSize, and getQueueSize() tells the truth.
        if count != queued.count { return "count() is \(count), but the store holds \(queued.count) records" }
        if count > self.config.maxQueueSize {
            return "the queue holds \(count) events, over maxQueueSize \(self.config.maxQueueSize)"
        }
        let reported = sdk.joryio.getQueueSize()
        if reported > self.config.maxQueueSize {
            return "getQueueSize() is \(reported), over maxQueueSize \(self.config.maxQueueSize)"
        }
        if self.isIdle, reported != count { return "getQueueSize() is \(reported) while \(count) events are queued" }
        return nil
    }

    /// Faults stop, the clock runs on: the queue must drain to zero.
    private func drain() -> Failure? {
        self.server.state.withLock { $0.script = [] }
        if self.current?.transport.isStopped == true {
            self.note("end: restart after 402")
            self.time.runUntilIdle()
            self.restart()
        }
        self.note("end: faults stop, the clock runs on")
        guard let sdk = self.current else { return Failure(message: "no instance") }
        self.note("end: updateConsent(.granted), optIn()")
        self.apply(.consent(.granted), to: sdk.joryio)
        self.apply(.optIn, to: sdk.joryio)
        self.server.state.withLock { $0.draining = true }  // the handler answers, with long-lived tokens
        if self.authMode != .off, let user = self.currentUser {
            self.note("end: a long-lived token for \(user)")
            self.setToken(sub: user, lifetime: 86_400 * 3, on: sdk.joryio)
        }
        self.time.runUntilIdle()
        var drained = self.runClock(sdk, hours: 6)
        if let problem = self.check() { return Failure(message: problem) }
        let failures = sdk.transport.consecutiveFailures
        if !drained, failures > self.config.maxRetries {
            // Documented: after maxRetries failures in a row the SDK waits for the next trigger.
            self.note("end: \(failures) failures in a row (maxRetries \(self.config.maxRetries)); one more event")
            self.trackSentinel(sdk.joryio)
            drained = self.runClock(sdk, hours: 6)
            if let problem = self.check() { return Failure(message: problem) }
        }
        if !drained {
            let left = sdk.joryio.getQueueSize()
            let failures = sdk.transport.consecutiveFailures
            sdk.joryio.flush()
            let flushed = self.runClock(sdk, hours: 6)
            return Failure(
                message:
                    "the queue did not drain by the clock: \(left) events left after \(failures) failures in a row; "
                    + (flushed ? "flush() then sends them all" : "flush() does not help either")
            )
        }
        if !self.outstanding.isEmpty {
            return Failure(message: "drained, yet \(self.outstanding.count) accepted events never arrived")
        }
        return nil
    }

    private func trackSentinel(_ joryio: Joryio) {
        let tag = self.nextTag
        self.nextTag += 1
        self.unsettled[tag] = true
        joryio.track("Sentinel", properties: ["k": tag])
        self.time.runUntilIdle()
    }

    /// Advances to each due job in turn, at most `hours` of virtual time, checking invariants on the
    /// way; whether the queue drained and nothing is on the wire.
    private func runClock(_ sdk: Instance, hours: Double) -> Bool {
        let deadline = self.time.now().addingTimeInterval(hours * 3_600)
        for _ in 0..<100_000 {
            self.time.runUntilIdle()
            if ((try? sdk.spy.count()) ?? -1) == 0, sdk.transport.inFlight == 0 { return true }
            if self.check() != nil { return false }
            guard let next = self.time.nextDueDate, next <= deadline else { return false }
            self.time.advance(to: next)
        }
        return false
    }

    // MARK: - Reporting

    /// What the seed exercised, in one line.
    var statistics: String {
        self.server.state.withLock { state in
            let reasons = state.unauthorized.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
            return
                "auth \(self.authMode), \(self.launches) launches (\(self.preInitLaunches) with pre-init calls), \(state.requests) event requests, \(state.stored.count) stored, "
                + "401: [\(reasons.joined(separator: ", "))], handler calls \(state.handlerCalls), "
                + "departed users' events dropped \(state.authDropped.subtracting(state.stored).count), "
                + "writes \(Dictionary(state.writes.map { ($0, 1) }, uniquingKeysWith: +).sorted { $0.key < $1.key })"
        }
    }

    private func note(_ line: String) {
        self.server.state.withLock { $0.trace.append(line) }
    }

    private func failure(_ problem: String) -> String {
        let trace = self.server.state.withLock { $0.trace }
        return """
            seed \(self.seed) step \(self.step): \(problem)
            replay: JORYIO_SIM_SEED=\(self.seed) swift test --filter SimulationTests
            \(trace.first ?? "")
            last events:
            \(trace.suffix(25).joined(separator: "\n"))
            """
    }
}
