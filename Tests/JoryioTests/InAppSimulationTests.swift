import Foundation
import Joryio
import JoryioCore
import JoryioInApp
import JoryioKit
import JoryioTesting
import Testing

/// Seeded simulation of in-app messaging through the SDK (issue 16): syncs, event triggers, taps,
/// dismissals, backgrounding, identify / reset / opt-out / consent changes, restarts on real
/// SQLite and report faults, against ``InAppServerDouble`` and a fake platform.
///
/// Invariants, checked as they happen and at the end:
/// - never two messages on screen (INAPP-48);
/// - no campaign cap ever exceeded since the last reset or wipe (INAPP-45, INAPP-46);
/// - nothing reported without a delivery token (INAPP-63);
/// - nothing presented or reported while consent is pending or denied, or the person opted out
///   (INAPP-14, INAPP-53);
/// - nothing counted that was not on screen for the dwell second, or tapped or closed before it
///   (INAPP-56, INAPP-58).
///
/// `JORYIO_INAPP_SIM_SEEDS=<n>` runs seeds 1…n (default 30), `JORYIO_INAPP_SIM_SEED=<s>` one.
@Suite("Seeded simulation of in-app messaging")
struct InAppSimulationTests {
    static let seeds: [UInt64] = {
        let environment = ProcessInfo.processInfo.environment
        if let seed = environment["JORYIO_INAPP_SIM_SEED"].flatMap(UInt64.init) { return [seed] }
        let count = environment["JORYIO_INAPP_SIM_SEEDS"].flatMap(Int.init) ?? 30
        return Array(1...UInt64(max(1, count)))
    }()

    @Test(
        "Random in-app steps: one message at a time, caps, tokens, privacy and the dwell second hold",
        arguments: Self.seeds
    )
    func simulate(seed: UInt64) throws {
        let simulation = try InAppSimulation(seed: seed)
        defer { simulation.tearDown() }
        if let failure = simulation.run(steps: 80) {
            Issue.record("seed \(seed): \(failure)\ntrace:\n\(simulation.trace.suffix(60).joined(separator: "\n"))")
        }
    }
}

/// The in-app endpoints in Swift: a fixed campaign set with tokens, the track reports received
/// (deduplicated by `messageId`), scripted faults, and checks at the moment a request arrives.
final class InAppServerDouble: Transport, @unchecked Sendable {
    static let campaigns = #"""
        {"success":true,"contactRules":{"minDelayBetweenMessages":2},"campaigns":[
          {"id":"cart","type":"modal","deliveryToken":"tok-cart","content":{"native":{"headline":"Cart"}},
           "triggers":[{"type":"event","name":"Added to Cart"}],"caps":{"maxImpressions":2}},
          {"id":"promo","type":"banner","deliveryToken":"tok-promo","content":{"native":{"headline":"Promo"}},
           "triggers":[{"type":"event","name":"Product Viewed"}],"caps":{"maxImpressions":3,"window":60}},
          {"id":"web","type":"modal","deliveryToken":"tok-web","content":{"html":"<p>x</p>"},
           "triggers":[{"type":"event","name":"Product Viewed"}]}]}
        """#

    struct Report {
        var campaignId: String
        var action: String
        var timestamp: String
    }

    private struct State {
        var allowed = true
        var faults = 0
        var seen: Set<String> = []
        var reports: [Report] = []
        var violations: [String] = []
    }

    private let state = Locked(State())

    var allowed: Bool {
        get { self.state.withLock { $0.allowed } }
        set { self.state.withLock { $0.allowed = newValue } }
    }
    var reports: [Report] { self.state.withLock { $0.reports } }
    var violations: [String] { self.state.withLock { $0.violations } }

    func fail(next count: Int) { self.state.withLock { $0.faults += count } }
    func clearFaults() { self.state.withLock { $0.faults = 0 } }
    func violation(_ text: String) { self.state.withLock { $0.violations.append(text) } }

    func send(_ request: HTTPRequest, completion: @escaping @Sendable (Result<HTTPResponse, TransportError>) -> Void) {
        let path = request.url.path
        if path.hasSuffix("/v1/in-app/sync") {
            if !self.allowed { self.violation("a sync was sent while collection was not allowed") }
            return completion(.success(.json(200, Self.campaigns)))
        }
        guard path.hasSuffix("/v1/in-app/track") else { return completion(.success(.ok)) }
        let body = request.json ?? .null
        let answer = self.state.withLock { state -> Result<HTTPResponse, TransportError> in
            let campaign = body["campaignId"]?.stringValue ?? "?"
            let action = body["action"]?.stringValue ?? "?"
            if !state.allowed { state.violations.append("\(action) \(campaign) was sent while not allowed") }
            if body["deliveryToken"]?.stringValue != "tok-\(campaign)" {
                state.violations.append("\(action) \(campaign) was sent without its delivery token")
            }
            if state.faults > 0 {
                state.faults -= 1
                return .success(.json(503, #"{"success":false}"#))
            }
            let id = body["messageId"]?.stringValue ?? ""
            if state.seen.insert(id).inserted {
                state.reports.append(
                    Report(campaignId: campaign, action: action, timestamp: body["timestamp"]?.stringValue ?? "")
                )
            }
            return .success(.ok)
        }
        completion(answer)
    }
}

/// One seed: the SDK on real SQLite, restarted now and then, driven by random steps.
final class InAppSimulation: @unchecked Sendable {
    private var random: SplitMix64
    private let directory: URL
    private var scheduler = ManualScheduler()
    private let server = InAppServerDouble()
    private var platform = FakeInAppPlatform()
    private var sdk: TestSDK
    private var nextFirstId: UInt64 = 100_000
    private(set) var trace: [String] = []

    // The model.
    private var optedOut = false
    private var consent: TrackingConsent = .granted
    /// The consent a relaunch finds: pending is never stored (CONSENT-9).
    private var storedConsent: TrackingConsent = .granted
    private var onScreen: (id: String, since: Date)?
    private var seenCalls = 0
    /// Displays counted per campaign since the last reset or wipe, by report timestamp.
    private var lastClear = ""
    /// When the simulation tapped or closed each campaign on screen (a `displayed` then may come early).
    private var earlyEnds: [String: [String]] = [:]
    /// When each campaign was last presented.
    private var presentedAt: [String: [Date]] = [:]

    private var allowed: Bool { !self.optedOut && self.consent == .granted }

    init(seed: UInt64) throws {
        self.random = SplitMix64(seed: seed)
        self.directory = FileManager.default.temporaryDirectory.appendingPathComponent("inapp-sim-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: self.directory, withIntermediateDirectories: true)
        self.sdk = Self.launch(self.directory, self.scheduler, self.server, self.platform, firstId: 1)
        self.sdk.start()
        self.lastClear = JSONTimestamp.string(from: self.scheduler.now())
    }

    private static func launch(
        _ directory: URL,
        _ scheduler: ManualScheduler,
        _ server: InAppServerDouble,
        _ platform: FakeInAppPlatform,
        firstId: UInt64
    ) -> TestSDK {
        let sdk = TestSDK(
            transport: server,
            storage: .sqlite(directory: directory),
            scheduler: scheduler,
            identifiers: SequentialIdentifierGenerator(first: firstId),
            features: .joryio(push: NoPushPlatform(), inApp: platform)
        )
        sdk.joryio.inAppPresenter = StubInAppPresenter()
        platform.clock = { scheduler.now() }
        return sdk
    }

    func tearDown() {
        try? FileManager.default.removeItem(at: self.directory)
    }

    func run(steps: Int) -> String? {
        for _ in 0..<steps {
            self.step()
            self.scheduler.runUntilIdle()
            self.observe()
            if let violation = self.server.violations.first { return violation }
        }
        // Settle: allowed, no faults, time passing.
        self.note("settle")
        self.server.clearFaults()
        self.sdk.joryio.optIn()
        self.sdk.joryio.updateConsent(.granted)
        self.optedOut = false
        self.consent = .granted
        self.storedConsent = .granted
        self.server.allowed = true
        for _ in 0..<6 {
            self.scheduler.advance(by: 120)
            self.sdk.joryio.applicationWillEnterForeground()
            self.scheduler.runUntilIdle()
            self.observe()
        }
        if let violation = self.server.violations.first { return violation }
        return self.checkReports()
    }

    private func step() {
        let roll = Int.random(in: 0..<100, using: &self.random)
        switch roll {
        case 0..<22:
            let name = ["Added to Cart", "Product Viewed"][Int.random(in: 0..<2, using: &self.random)]
            self.note("track \(name)")
            self.sdk.joryio.track(name)
        case 22..<32:
            if let screen = self.onScreen {
                self.note("tap \(screen.id)")
                self.end(screen.id, clicked: "button")
            }
        case 32..<44:
            if let screen = self.onScreen {
                self.note("close \(screen.id)")
                self.end(screen.id, clicked: nil)
            }
        case 44..<50:
            self.note("background, foreground")
            self.platform.isActive = false
            self.sdk.joryio.applicationDidEnterBackground()
            self.scheduler.runUntilIdle()
            self.scheduler.advance(by: [0.3, 2][Int.random(in: 0..<2, using: &self.random)])
            self.platform.isActive = true
            self.sdk.joryio.applicationWillEnterForeground()
            self.sdk.joryio.applicationDidBecomeActive()
        case 50..<54:
            let user = ["u1", "u2"][Int.random(in: 0..<2, using: &self.random)]
            self.note("identify \(user)")
            self.sdk.joryio.identify(user)
        case 54..<57:
            self.note("reset")
            // A millisecond apart, so reports before and after the reset never share a timestamp.
            self.scheduler.advance(by: 0.001)
            self.sdk.joryio.reset()
            self.lastClear = JSONTimestamp.string(from: self.scheduler.now())
        case 57..<60:
            self.note("optOut")
            self.sdk.joryio.optOut()
            self.optedOut = true
        case 60..<64:
            self.note("optIn")
            self.sdk.joryio.optIn()
            self.optedOut = false
        case 64..<67:
            self.note("consent denied")
            self.sdk.joryio.updateConsent(.denied)
            self.consent = .denied
            self.storedConsent = .denied
        case 67..<70:
            self.note("consent granted")
            self.sdk.joryio.updateConsent(.granted)
            self.consent = .granted
            self.storedConsent = .granted
        case 70..<71:
            self.note("consent pending")
            self.sdk.joryio.updateConsent(.pending)
            self.consent = .pending
        case 71..<75:
            let count = Int.random(in: 1...3, using: &self.random)
            self.note("track faults \(count)")
            self.server.fail(next: count)
        case 75..<80:
            self.note("restart")
            self.sdk.joryio.relinquishStorage()
            self.scheduler = ManualScheduler(start: self.scheduler.now())
            self.platform = FakeInAppPlatform()
            self.seenCalls = 0
            self.onScreen = nil
            self.sdk = Self.launch(
                self.directory,
                self.scheduler,
                self.server,
                self.platform,
                firstId: self.nextFirstId
            )
            self.nextFirstId += 100_000
            // Pending is never stored (CONSENT-9): the relaunch has the last stored answer.
            if self.consent == .pending { self.consent = self.storedConsent }
            self.server.allowed = self.allowed
            self.sdk.start()
        default:
            let seconds = [0.2, 0.5, 0.999, 1.001, 3, 30][Int.random(in: 0..<6, using: &self.random)]
            self.note("advance \(seconds) s")
            self.scheduler.advance(by: seconds)
        }
        self.server.allowed = self.allowed
    }

    /// The simulation plays the presenter's delegate: a tap or a close, on the engine.
    private func end(_ id: String, clicked element: String?) {
        guard let feature = self.sdk.joryio.feature(InAppFeature.self) else { return }
        let now = JSONTimestamp.string(from: self.scheduler.now())
        self.earlyEnds[id, default: []].append(now)
        self.scheduler.enqueue { feature.viewEvent(campaignId: id, clicked: element) }
        if element == nil { self.onScreen = nil }
    }

    /// Reads the platform's new calls: presentations must find the screen free and collection
    /// allowed.
    private func observe() {
        let calls = self.platform.calls
        for call in calls.dropFirst(self.seenCalls) {
            let parts = call.split(separator: " ").map(String.init)
            guard parts.count >= 2 else { continue }
            switch parts[0] {
            case "present":
                if let screen = self.onScreen {
                    self.server.violation("\(parts[1]) presented while \(screen.id) is on screen")
                }
                if !self.allowed { self.server.violation("\(parts[1]) presented while not allowed") }
                self.onScreen = (parts[1], self.scheduler.now())
                self.note("  presented \(parts[1])")
            case "takeDown":
                if self.onScreen?.id == parts[1] { self.onScreen = nil }
            case "deliver":
                self.server.violation("a message went to a callback that was never set")
            default:
                break
            }
        }
        self.seenCalls = calls.count
        for (id, at) in self.platform.presentations where !(self.presentedAt[id] ?? []).contains(at) {
            self.presentedAt[id, default: []].append(at)
        }
    }

    /// Caps since the last clear, and the dwell second behind every `displayed`.
    private func checkReports() -> String? {
        let caps = ["cart": 2]
        let displayed = self.server.reports.filter { $0.action == "displayed" && $0.timestamp >= self.lastClear }
        for (campaign, cap) in caps {
            let count = displayed.filter { $0.campaignId == campaign }.count
            if count > cap {
                let all = self.server.reports.map { "\($0.action) \($0.campaignId) \($0.timestamp)" }
                return "\(campaign) was counted \(count) times since the last reset (cap \(cap)); reports: \(all)"
            }
        }
        for report in displayed {
            let dwelled = (self.presentedAt[report.campaignId] ?? []).contains {
                report.timestamp >= JSONTimestamp.string(from: $0.addingTimeInterval(0.999))
            }
            let endedEarly = (self.earlyEnds[report.campaignId] ?? []).contains(report.timestamp)
            if !dwelled && !endedEarly {
                return
                    "displayed \(report.campaignId) at \(report.timestamp) without the dwell second or an earlier tap or close"
            }
        }
        if self.server.reports.contains(where: { $0.campaignId == "web" }) {
            return "the HTML campaign was shown although allowHtmlJsInAppMessages is off"
        }
        for report in self.server.reports where report.action == "clicked" || report.action == "dismissed" {
            let before = self.server.reports.contains {
                $0.campaignId == report.campaignId && $0.action == "displayed" && $0.timestamp <= report.timestamp
            }
            if !before { return "\(report.action) \(report.campaignId) without a displayed before it" }
        }
        return nil
    }

    private func note(_ line: String) {
        self.trace.append(line)
    }
}
