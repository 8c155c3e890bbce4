import Foundation
import Joryio
import JoryioCore
import JoryioTesting
import Testing

/// Seeded simulation of attributes and durable writes (issue 5), against the sandbox's profile rules: random
/// attribute calls (ints, strings, bools, fractional numbers, `nil`, NaN), increments, unsets,
/// aliases, subscriptions and groups, identify (same user, new user, user switch, previous user),
/// `reset()`, `wipeData()`, opt-out / opt-in and consent (pending, granted, denied, a grant passed at
/// launch), restarts and crashes, server faults on `/api/v1/*` (503, 429 with Retry-After, drop,
/// dropAfterProcessing, a delay beyond the request timeout, 200 with `success: false`), offline
/// periods, the foreground trigger and clock jumps. Invariant: at the end of every seed the server's
/// profiles equal the model's (``WritesModel``) exactly (attributes, aliases, subscriptions, groups,
/// anonymous ids; no other profile), and no operation id was applied twice.
///
/// The seeds run in process (the unit lane), on ``WritesServer``, a Swift double of the sandbox's
/// profile rules, on virtual time only; ``SandboxWritesSimulationTests`` runs one seed against the
/// real sandbox over libcurl (the sandbox lane), so the double cannot drift from the sandbox unseen.
///
/// The model stays deterministic because the simulation settles (no faults, online, everything that
/// may be sent delivered) before each call that purges, stops sending or changes the identity:
/// `optOut()`, `updateConsent(.denied)`, `updateConsent(.pending)` from granted, `reset()`,
/// `wipeData()` and an identify of another user. What it deliberately leaves out:
/// - subscription calls without an identified user whose profile the sandbox already has (a
///   subscription change never creates a profile, and one made anonymously is sent as the user
///   before the identify creates that profile: see SandboxWritesSimulationFindingsTests);
/// - an identify while pending over held anonymous durable writes (same reason, at grant time);
/// - 400/403/409/413/422 and 402 answers, and `rejectAttributeKeys` (drops that depend on timing);
/// - more than 9 `success: false` answers per seed (a durable write is dropped at the 11th: 10 retries).
/// An identify held while pending that `optOut()` or a denial drops is owed again for the user still
/// on the device, like an identify made while opted out (IDENT-5, GAP-23 in docs/decisions.md): the
/// model keeps it and expects it once collection is allowed (seeds 60, 102, 141, 179, 196 and 294 of
/// 1…300 run into this). The SDK bugs the simulation found earlier are pinned, fixed, by
/// SandboxWritesSimulationFindingsTests. Open: of seeds 1…2000, seeds 376, 397 and 1852 end with an
/// anonymous id joined to another user than the model expects: identifies of users A, B, A of one
/// anonymous id held while pending; the second A replaces the first (the identify's replacement key,
/// GAP-32), so B's arrives first and takes the anonymous id.
/// Fractional increments compacted into an integral delta are compared by value only
/// (``ModelProfile/looseNumbers``).
///
/// `JORYIO_WRITES_SIM_SEEDS=<n>` runs seeds 1…n (default 8), `JORYIO_WRITES_SIM_SEED=<s>` replays
/// one seed, `JORYIO_WRITES_SIM_STEPS=<n>` changes the number of steps (default 80),
/// `JORYIO_WRITES_SIM_VERBOSE=1` prints each seed's trace and expected profiles. In process, a seed
/// replays exactly; against the sandbox, request timing over libcurl is real, so retries (and which
/// subscription calls find a profile) may differ between runs.
@Suite("Seeded simulation of attributes and durable writes")
struct WritesSimulationTests {
    static let seeds: [UInt64] = {
        let environment = ProcessInfo.processInfo.environment
        if let seed = environment["JORYIO_WRITES_SIM_SEED"].flatMap(UInt64.init) { return [seed] }
        let count = environment["JORYIO_WRITES_SIM_SEEDS"].flatMap(Int.init) ?? 8
        return Array(1...UInt64(max(1, count)))
    }()

    static let steps = ProcessInfo.processInfo.environment["JORYIO_WRITES_SIM_STEPS"].flatMap(Int.init) ?? 80

    @Test(
        "Random writes, privacy calls, faults and restarts: the server's profiles equal the model's",
        arguments: Self.seeds
    )
    func simulate(seed: UInt64) async {
        let simulation = WritesSimulation(seed: seed, backend: InProcessWritesBackend(seed: seed))
        defer { simulation.tearDown() }
        guard let failure = await simulation.run(steps: Self.steps) else { return }
        Issue.record("\(failure)")
    }

    @Test("The same seed replays exactly, in process")
    func replaysExactly() async {
        func trace(_ seed: UInt64) async -> [String] {
            let simulation = WritesSimulation(seed: seed, backend: InProcessWritesBackend(seed: seed))
            defer { simulation.tearDown() }
            _ = await simulation.run(steps: 40)
            return simulation.trace
        }
        let first = await trace(5)
        #expect(first.count > 40)
        #expect(await trace(5) == first)
    }
}

/// One seeded run over a fresh ``WritesBackend``.
final class WritesSimulation {
    let seed: UInt64
    private var rng: SplitMix64
    private let backend: any WritesBackend
    private var sdk: any WritesDevice
    private var config: JoryioConfig
    private var offline = false
    private var step = 0
    /// What happened, step by step.
    private(set) var trace: [String] = []

    // The device as the model sees it.
    private var optedOut = false
    private var consent: TrackingConsent = .granted
    private var userId: String?
    private var anonymousId: String
    /// A user id identified while opted out or denied, to identify once allowed (IDENT-5).
    private var keptIdentify = false
    private var knownUsers: [String] = []
    private var model = WritesModel()
    private var seq = 0
    private var aliasNames = 0
    /// Uses of `success: false` faults left: a durable write is dropped at the 11th (10 retries, DURABLE-8).
    private var successFalseBudget = 9

    private static let keys = ["plan", "level", "score", "vip", "nickname"]

    private var allowed: Bool { !self.optedOut && self.consent == .granted }
    private var blocked: Bool { self.optedOut || self.consent == .denied }

    init(seed: UInt64, backend: any WritesBackend) {
        self.seed = seed
        self.rng = SplitMix64(seed: seed)
        self.backend = backend
        var config = JoryioConfig()
        config.requestTimeout = backend.requestTimeout  // so that a delayed answer times out
        self.config = config
        self.sdk = backend.launch(config, offline: false)
        self.anonymousId = self.sdk.joryio.getAnonymousId()
        self.note("seed \(seed): anonymous id \(self.anonymousId)")
    }

    func tearDown() {
        self.backend.tearDown()
    }

    // MARK: - Run

    /// Runs `steps` random steps, then settles and compares; the failure message, or `nil`.
    func run(steps: Int) async -> String? {
        do {
            for index in 1...max(1, steps) {
                self.step = index
                try await self.randomStep()
            }
            self.step = steps + 1
            return try await self.finish()
        } catch let failure as SimulationFailure {
            return self.failure(failure.message)
        } catch {
            return self.failure("error: \(error)")
        }
    }

    private struct SimulationFailure: Error {
        var message: String
    }

    private enum Kind {
        case setOne, setMany, increment, unset, alias, subscription, identify, reset, wipe
        case optOut, optIn, consent, restart, crash, fault, advance, foreground, network
    }

    private func randomStep() async throws {
        let kind = self.rng.pick([
            (10, Kind.setOne), (6, .setMany), (7, .increment), (4, .unset), (5, .alias), (10, .subscription),
            (5, .identify), (2, .reset), (1, .wipe), (2, .optOut), (3, .optIn), (4, .consent), (2, .restart),
            (2, .crash),
            (8, .fault), (5, .advance), (2, .foreground), (4, .network),
        ])
        switch kind {
        case .setOne:
            let key = self.randomKey()
            let value = self.randomValue(allowNaN: true)
            self.note("step \(self.step): setAttribute(\(key), \(value.map { "\($0)" } ?? "nil"))")
            self.call { $0.setAttribute(key, value: value?.any) }
            if let value {
                if case .nan = value { return }  // dropped with a warning (ATTR-6)
            }
            self.collect([value.flatMap(\.model).map { .set(key, $0) } ?? .unset(key)])
        case .setMany:
            var attributes: [String: Any?] = [:]
            var kinds: [ModelWrite.Kind] = []
            for key in Self.keys where self.rng.chance(0.4) {
                let value = self.randomValue(allowNaN: false)
                attributes[key] = .some(value?.any)
                kinds.append(value?.model.map { .set(key, $0) } ?? .unset(key))
            }
            if self.rng.chance(0.3) { attributes["broken"] = .some(Double.nan) }  // dropped, the rest goes
            self.note("step \(self.step): setAttributes(\(attributes.keys.sorted()))")
            self.call { $0.setAttributes(attributes) }
            self.collect(kinds.sorted { "\($0)" < "\($1)" })
        case .increment:
            let key = self.randomKey()
            let delta = self.rng.pick([
                (5, Double(self.rng.int(1...5))), (2, -2), (3, self.rng.pick([(1, 0.5), (1, 0.25), (1, 1.5)])),
            ])
            self.note("step \(self.step): incrementAttribute(\(key), by: \(delta))")
            self.call { $0.incrementAttribute(key, by: delta) }
            self.collect([.increment(key, delta)])
        case .unset:
            let key = self.randomKey()
            self.note("step \(self.step): unsetAttribute(\(key))")
            self.call { $0.unsetAttribute(key) }
            self.collect([.unset(key)])
        case .alias:
            self.aliasNames += 1
            let label = self.rng.chance(0.5) ? "crm_id" : "loyalty_id"
            let name = "N-\(self.aliasNames)"  // unique: never an alias_conflict
            self.note("step \(self.step): addAlias(\(label), name: \(name))")
            self.call { $0.addAlias(label, name: name) }
            self.collect([.alias(label: label, name: name)])
        case .subscription:
            try await self.subscriptionStep()
        case .identify:
            try await self.identifyStep()
        case .reset:
            try await self.settleSendable(before: "reset()")
            self.note("step \(self.step): reset()")
            self.call { $0.reset() }
            self.model.purgeHeld(attributesOnly: true)
            self.userId = nil
            self.keptIdentify = false
            self.anonymousId = self.sdk.joryio.getAnonymousId()
            self.note("  new anonymous id \(self.anonymousId)")
        case .wipe:
            try await self.settleSendable(before: "wipeData()")
            self.note("step \(self.step): wipeData()")
            self.call { $0.wipeData() }
            self.model.purgeHeld(attributesOnly: false)  // withdrawals are kept (WIPE-6)
            self.userId = nil
            self.keptIdentify = false  // WIPE-7
            self.anonymousId = self.sdk.joryio.getAnonymousId()
            self.note("  new anonymous id \(self.anonymousId)")
        case .optOut:
            guard !self.optedOut else {
                self.note("step \(self.step): optOut() again (no change)")
                self.call { $0.optOut() }
                return
            }
            try await self.settleSendable(before: "optOut()")
            self.note("step \(self.step): optOut()")
            self.call { $0.optOut() }
            self.optedOut = true
            self.record(.optOutRecord(true))
            self.stopCollection()
        case .optIn:
            self.note("step \(self.step): optIn()")
            self.call { $0.optIn() }
            self.applyOptIn()
        case .consent:
            let consent = self.rng.pick([(1, TrackingConsent.pending), (2, .granted), (1, .denied)])
            if consent == .denied, self.consent != .denied {
                try await self.settleSendable(before: "updateConsent(.denied)")
            }
            if consent == .pending, self.allowed {
                // Unconfirmed writes would be held from now on, and a later denial would purge them.
                try await self.settleSendable(before: "updateConsent(.pending)")
            }
            self.note("step \(self.step): updateConsent(.\(consent))")
            self.call { $0.updateConsent(consent) }
            self.applyConsent(consent)
        case .restart:
            self.note("step \(self.step): restart")
            _ = await self.backend.drive(self.sdk, virtualLimit: 0, realLimit: 5) { self.sdk.inFlight == 0 }
            self.relaunch()
        case .crash:
            self.note("step \(self.step): crash")
            self.relaunch()
        case .fault:
            try await self.addFault()
        case .advance:
            let seconds = self.rng.pick([
                (3, self.rng.double(0.01...2)), (2, self.rng.double(2...60)), (1, self.rng.double(60...900)),
            ])
            self.note("step \(self.step): advance \(String(format: "%.3f", seconds)) s")
            _ = self.backend.time.advance(by: seconds)
            self.backend.time.runUntilIdle()
        case .foreground:
            self.note("step \(self.step): applicationWillEnterForeground()")
            self.call { $0.applicationWillEnterForeground() }
        case .network:
            self.offline.toggle()
            self.note("step \(self.step): \(self.offline ? "offline" : "online")")
            self.backend.setOffline(self.sdk, self.offline)
            if !self.offline, self.rng.chance(0.5) {
                await self.backend.settle(self.sdk, virtualLimit: 30)
            }
        }
    }

    private func subscriptionStep() async throws {
        // Subscriptions need a profile (404 otherwise): only for an identified user whose profile
        // the sandbox already has, so the write resolves there whatever the timing.
        if let userId = self.userId, self.allowed, self.rng.chance(0.9),
            try await self.backend.profile(userId: userId) == nil
        {
            try await self.settleSendable(before: "a subscription call")  // the identify creates the profile
        }
        guard let userId = self.userId, try await self.backend.profile(userId: userId) != nil else {
            self.note("step \(self.step): (no subscription call: no confirmed user profile)")
            return
        }
        let channel = self.rng.chance(0.5) ? "email" : "sms"
        let kind: ModelWrite.Kind
        switch self.rng.int(0...2) {
        case 0:
            let status = self.rng.pick([(1, "subscribed"), (1, "optedIn"), (1, "unsubscribed")])
            kind = .subscription(channel: channel, status: status)
            self.note("step \(self.step): setSubscription(\(channel), \(status))")
            self.call { $0.setSubscription(channel: channel, status: status) }
        case 1:
            let group = self.rng.chance(0.5) ? "news" : "promo"
            kind = .group(channel: channel, groupId: group, join: true)
            self.note("step \(self.step): addToSubscriptionGroup(\(group), \(channel))")
            self.call { $0.addToSubscriptionGroup(group, channel: channel) }
        default:
            let group = self.rng.chance(0.5) ? "news" : "promo"
            kind = .group(channel: channel, groupId: group, join: false)
            self.note("step \(self.step): removeFromSubscriptionGroup(\(group), \(channel))")
            self.call { $0.removeFromSubscriptionGroup(group, channel: channel) }
        }
        self.collect([kind])
    }

    private func identifyStep() async throws {
        // While pending, not over held anonymous durable writes: they would go out at grant time with
        // the user id of that moment (DURABLE-5), before the held identify creates that profile.
        if self.consent == .pending,
            self.model.writes.contains(where: { $0.held && !$0.kind.isAttribute && $0.userId == nil })
        {
            self.note("step \(self.step): (no identify over held anonymous writes while consent is pending)")
            return
        }
        let user: String
        switch self.rng.int(0...3) {
        case 0 where self.userId != nil: user = self.userId!
        case 1 where !self.knownUsers.isEmpty: user = self.knownUsers[self.rng.int(0...self.knownUsers.count - 1)]
        default:
            user = "user-\(self.knownUsers.count + 1)"
            self.knownUsers.append(user)
        }
        if user != self.userId {
            try await self.settleSendable(before: "identify(\(user))")
        }
        self.note(
            "step \(self.step): identify(\(user))\(self.userId.map { $0 == user ? " (same user)" : " (switch from \($0))" } ?? "")"
        )
        self.call { $0.identify(user) }
        guard user != self.userId else { return }
        self.userId = user
        if self.blocked {
            self.keptIdentify = true  // kept on the device only (IDENT-5)
        } else {
            self.keptIdentify = false
            self.record(.identify, held: self.consent == .pending)  // held while pending (CONSENT-18)
        }
    }

    private func addFault() async throws {
        let path = self.rng.pick([
            (3, "/api/v1/attributes"), (1, "/api/v1/identify"), (1, "/api/v1/alias"), (1, "/api/v1/subscriptions"),
            (1, "/api/v1/opt-out"), (2, "/api/v1/*"),
        ])
        let count = self.rng.int(1...3)
        switch self.rng.int(0...5) {
        case 0:
            self.note("step \(self.step): fault \(path) ×\(count): 503")
            try await self.backend.addFault(path: path, count: count, .status(503, retryAfter: nil))
        case 1:
            let seconds = self.rng.int(1...5)
            self.note("step \(self.step): fault \(path) ×\(count): 429 Retry-After \(seconds)")
            try await self.backend.addFault(path: path, count: count, .status(429, retryAfter: seconds))
        case 2:
            self.note("step \(self.step): fault \(path) ×\(count): drop")
            try await self.backend.addFault(path: path, count: count, .drop)
        case 3:
            self.note("step \(self.step): fault \(path) ×\(count): dropAfterProcessing")
            try await self.backend.addFault(path: path, count: count, .dropAfterProcessing)
        case 4:
            self.note("step \(self.step): fault \(path) ×1: answered after the request timeout, processed")
            try await self.backend.addFault(path: path, count: 1, .delayBeyondTimeout)
        default:
            let uses = min(count, self.successFalseBudget)
            guard uses > 0 else { return }
            self.successFalseBudget -= uses
            self.note("step \(self.step): fault \(path) ×\(uses): 200 success:false")
            try await self.backend.addFault(path: path, count: uses, .successFalse)
        }
    }

    // MARK: - Model bookkeeping

    /// Makes an app call, lets the engine accept it, and moves the clock on so that the next call
    /// gets a later timestamp.
    private func call(_ body: (Joryio) -> Void) {
        self.backend.pump()
        body(self.sdk.joryio)
        self.backend.time.runUntilIdle()
        _ = self.backend.time.advance(by: 0.005)
        self.backend.time.runUntilIdle()
    }

    /// Data-collecting writes (and withdrawals) of one call, through the consent × opt-out matrix.
    private func collect(_ kinds: [ModelWrite.Kind]) {
        for kind in kinds {
            if !kind.isWithdrawal, self.blocked { continue }  // dropped at the call (CONSENT-18)
            self.record(kind, held: !kind.isWithdrawal && self.consent == .pending)
        }
    }

    private func record(_ kind: ModelWrite.Kind, held: Bool = false) {
        self.seq += 1
        self.model.add(
            ModelWrite(seq: self.seq, kind: kind, userId: self.userId, anonymousId: self.anonymousId, held: held)
        )
    }

    private func applyOptIn() {
        guard self.optedOut else { return }
        self.optedOut = false
        self.record(.optOutRecord(false))
        if self.consent == .granted { self.resume() }
    }

    private func applyConsent(_ consent: TrackingConsent) {
        switch consent {
        case .pending:
            if self.consent == .granted { self.consent = .pending }
        case .denied:
            guard self.consent != .denied else { return }
            self.consent = .denied
            self.stopCollection()
        case .granted:
            guard self.consent != .granted else { return }
            self.consent = .granted
            if !self.optedOut { self.resume() }
        }
    }

    /// Collection stopped (`optOut()`, or a denial): everything held is dropped (OPTOUT-4,
    /// CONSENT-4), the current user's held identify included. The user id stays on the device, so
    /// that identify is owed again, as if it had been called now: it runs once collection is allowed
    /// (IDENT-5, OPTOUT-8; docs/decisions.md, GAP-23).
    private func stopCollection() {
        let identifyDropped = self.model.writes.contains { write in
            guard write.held, case .identify = write.kind else { return false }
            return write.userId == self.userId
        }
        if identifyDropped, let userId = self.userId {
            self.keptIdentify = true
            self.note("  the held identify of \(userId) is dropped and owed again (IDENT-5)")
        }
        self.model.purgeHeld(attributesOnly: false)
    }

    /// Collection became allowed: held writes go, and the kept identify runs (OPTOUT-8, CONSENT-4).
    private func resume() {
        self.model.releaseHeld()
        if self.keptIdentify, self.userId != nil { self.record(.identify) }
        self.keptIdentify = false
    }

    private func relaunch() {
        self.sdk.crash()
        var config = self.config
        if self.consent == .pending { config.trackingConsent = .pending }  // what the consent manager holds
        // Now and then the consent manager reports a grant at launch: it lifts a stored denial
        // (CONSENT-17), and collection is allowed again.
        let grantAtLaunch = self.consent == .denied && self.rng.chance(0.4)
        if grantAtLaunch { config.trackingConsent = .granted }
        self.sdk = self.backend.launch(config, offline: self.offline)
        if grantAtLaunch {
            self.note("  launched with trackingConsent: .granted")
            self.applyConsent(.granted)
        }
        if self.sdk.joryio.getAnonymousId() != self.anonymousId || self.sdk.joryio.getUserId() != self.userId {
            self.note(
                "  identity after launch: \(self.sdk.joryio.getIdentity()) (model: \(self.userId ?? "-"), \(self.anonymousId))"
            )
        }
    }

    /// Before a call that purges or changes the identity: no faults, online, and every write that
    /// may be sent now delivered (held writes stay held).
    private func settleSendable(before call: String) async throws {
        try await self.backend.clearFaults()
        self.offline = false
        self.backend.setOffline(self.sdk, false)
        await self.retryTrigger()
        if self.consent == .pending {
            await self.backend.settle(self.sdk, virtualLimit: 900)  // withdrawals go; the rest is held
            return
        }
        let settled = await self.backend.drive(self.sdk, virtualLimit: 3_600, realLimit: 20) {
            self.sdk.joryio.pendingWrites == (0, 0) && self.sdk.inFlight == 0
        }
        guard settled else {
            throw SimulationFailure(
                message: "before \(call): writes did not settle: pendingWrites \(self.sdk.joryio.pendingWrites), "
                    + "in flight \(self.sdk.inFlight), next timer \(self.backend.time.nextDueDate.map { "\($0.timeIntervalSince(self.backend.time.now())) s" } ?? "none")"
                    + "\nlast SDK logs:\n"
                    + self.sdk.logs.records.suffix(25).map { "  \($0.level) \($0.message)" }.joined(separator: "\n")
            )
        }
    }

    /// The app returns to the foreground once the requests on the wire are answered, so that
    /// channels that stopped after failures in a row retry (ATTR-8). A trigger that arrives while a
    /// request is on the wire does nothing: if that request then fails, the channel waits again.
    private func retryTrigger() async {
        _ = await self.backend.drive(self.sdk, virtualLimit: 0, realLimit: 10) { self.sdk.inFlight == 0 }
        self.sdk.joryio.applicationWillEnterForeground()
        self.backend.time.runUntilIdle()
    }

    // MARK: - End of seed

    private func finish() async throws -> String? {
        self.note("end: no faults, online, updateConsent(.granted), optIn()")
        try await self.backend.clearFaults()
        self.offline = false
        self.backend.setOffline(self.sdk, false)
        self.call { $0.updateConsent(.granted) }
        self.applyConsent(.granted)
        self.call { $0.optIn() }
        self.applyOptIn()
        await self.retryTrigger()
        let settled = await self.backend.drive(self.sdk, virtualLimit: 3_600, realLimit: 30) {
            self.sdk.joryio.pendingWrites == (0, 0) && self.sdk.inFlight == 0
        }
        guard settled else {
            return self.failure("the writes did not settle: pendingWrites \(self.sdk.joryio.pendingWrites)")
        }
        await self.backend.settle(self.sdk, virtualLimit: 60)

        let profiles = try await self.backend.profiles()
        var problems: [String] = []
        var actual: [String: ModelProfile] = [:]
        var operationIDs: [String: Int] = [:]
        for (comparable, operations) in profiles {
            if actual[comparable.key] != nil { problems.append("two server profiles for \(comparable.key)") }
            actual[comparable.key] = comparable
            for id in operations {
                operationIDs[id, default: 0] += 1
            }
        }
        for (id, count) in operationIDs where count > 1 {
            problems.append("operation \(id) applied \(count) times")
        }
        let expected = self.model.expectedProfiles()
        for key in Set(expected.keys).union(actual.keys).sorted() {
            switch (expected[key], actual[key]) {
            case (let want?, let got?) where !want.matches(got):
                problems.append("\(key):\n    expected \(Self.describe(want))\n    server   \(Self.describe(got))")
            case (let want?, nil):
                problems.append("\(key): missing on the server; expected \(Self.describe(want))")
            case (nil, let got?):
                problems.append("\(key): unexpected on the server: \(Self.describe(got))")
            default:
                break
            }
        }
        if ProcessInfo.processInfo.environment["JORYIO_WRITES_SIM_VERBOSE"] != nil {
            print(self.trace.joined(separator: "\n"))
            for (key, profile) in expected.sorted(by: { $0.key < $1.key }) {
                print("expected \(key): \(Self.describe(profile))")
            }
        }
        guard problems.isEmpty else {
            let writes = self.model.writes.suffix(40).map { "  \($0)" }.joined(separator: "\n")
            return self.failure(
                "the server's profiles differ from the model's:\n  " + problems.joined(separator: "\n  ")
                    + "\nlast model writes:\n\(writes)"
            )
        }
        return nil
    }

    private static func describe(_ profile: ModelProfile) -> String {
        let attributes = profile.attributes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(
            separator: " "
        )
        return
            "anon \(profile.anonymousIds.sorted()) attrs [\(attributes)] aliases \(profile.aliases.sorted { $0.key < $1.key }) "
            + "subs \(profile.subscriptions.sorted { $0.key < $1.key }) groups \(profile.groups.sorted { $0.key < $1.key })"
    }

    // MARK: - Values

    private enum Value: CustomStringConvertible {
        case int(Int), double(Double), string(String), bool(Bool), nan

        var any: Any {
            switch self {
            case .int(let value): value
            case .double(let value): value
            case .string(let value): value
            case .bool(let value): value
            case .nan: Double.nan
            }
        }

        var model: ModelValue? {
            switch self {
            case .int(let value): .int(value)
            case .double(let value): .double(value)
            case .string(let value): .string(value)
            case .bool(let value): .bool(value)
            case .nan: nil
            }
        }

        var description: String { self.model?.description ?? "NaN" }
    }

    private func randomKey() -> String {
        Self.keys[self.rng.int(0...Self.keys.count - 1)]
    }

    /// A value for a `set`, or `nil` (removes the attribute).
    private func randomValue(allowNaN: Bool) -> Value? {
        switch self.rng.int(0...(allowNaN ? 9 : 8)) {
        case 0, 1, 2: .int(self.rng.int(-5...100))
        case 3: .double(Double(self.rng.int(0...40)) + 0.5)
        case 4, 5: .string("s\(self.rng.int(0...99))")
        case 6: .bool(self.rng.chance(0.5))
        case 7, 8: nil
        default: .nan
        }
    }

    // MARK: - Reporting

    private func note(_ line: String) {
        self.trace.append(line)
    }

    private func failure(_ problem: String) -> String {
        """
        seed \(self.seed) step \(self.step): \(problem)
        replay: JORYIO_WRITES_SIM_SEED=\(self.seed) swift test --filter WritesSimulation
        privacy: optedOut \(self.optedOut), consent .\(self.consent); user \(self.userId ?? "-"), anonymous \(self.anonymousId)
        last steps:
        \(self.trace.suffix(30).joined(separator: "\n"))
        """
    }
}
