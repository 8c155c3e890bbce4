internal import Foundation
internal import JoryioConsent
internal import JoryioCore
internal import JoryioDelivery
internal import JoryioFeature

/// Syncing campaigns (INAPP-8 … INAPP-15): one sync on the wire at a time; a sync asked for
/// meanwhile goes when it ends. A failed sync keeps the campaigns the SDK has; the next trigger
/// syncs again (a sync changes nothing on the server, so nothing is queued for it).
extension InAppFeature {
    /// Decides whether `reason` syncs now (``InAppSyncPolicy``) and starts it. `done` is called
    /// once the sync asked for ended, or at once when none goes.
    func sync(_ reason: InAppSyncPolicy.Reason, done: (@Sendable () -> Void)? = nil) {
        let now = self.context.clock.now()
        let allowed = self.context.privacy().allowsCollection
        let decision = self.core.withLock { core -> InAppSyncPolicy.Decision in
            guard core.privacy != nil else { return .notAllowed }  // before the launch's privacy
            return core.policy.decide(reason, now: now, allowed: allowed)
        }
        switch decision {
        case .sync:
            self.startSync(reason, done: done)
        case .tooSoon:
            self.dependencies.logger.debug("in-app sync (\(reason.rawValue)) skipped: the last one is recent")
            done?()
        case .disabled:
            done?()
        case .notAllowed:
            self.dependencies.logger.debug(
                "in-app sync (\(reason.rawValue)) waits: collection is not allowed (consent pending, denied or opted out)"
            )
            done?()
        }
    }

    /// Sends a sync now, or after the one on the wire.
    func startSync(_ reason: InAppSyncPolicy.Reason, done: (@Sendable () -> Void)? = nil) {
        let send = self.core.withLock { core -> Bool in
            if let done { core.syncWaiters.append(done) }
            guard !core.syncing else {
                core.syncAgain = reason
                return false
            }
            core.syncing = true
            return true
        }
        guard send else { return }
        let identity = self.context.identity()
        let request = InAppSyncRequest(identity: self.currentIdentity)
        let now = self.context.clock.now()
        let credentials = self.dependencies.authorization.credentials(for: identity.userId)
        self.dependencies.logger.debug("syncing in-app campaigns (\(reason.rawValue))")
        self.dependencies.send(self.requests.sync(request, sentAt: now), credentials: credentials) { [self] answer in
            switch answer {
            case .tokenRejected:
                self.dependencies.onResult(.http(status: 401, body: nil))
                self.dependencies.logger.warning("in-app sync refused: the server rejected the SDK-auth token")
            case .result(let result):
                self.synced(InAppSyncOutcome.classify(result, now: self.context.clock.now()), for: identity)
            }
            self.syncEnded()
        }
    }

    /// Applies a sync's answer, unless the person changed while it was on the wire.
    private func synced(_ outcome: InAppSyncOutcome, for identity: (userId: String?, anonymousId: String)) {
        let logger = self.dependencies.logger
        switch outcome {
        case .synced(let answer):
            self.dependencies.onResult(nil)
            for problem in answer.problems { logger.warning("in-app campaign left out: \(problem)") }
            let current = self.context.identity()
            guard current.userId == identity.userId, current.anonymousId == identity.anonymousId else {
                logger.debug("in-app sync answer dropped: the person changed while it was on the wire")
                return
            }
            let now = self.context.clock.now()
            // The writes of this person the server has not confirmed override its snapshot (ATTR-17).
            let unconfirmed =
                answer.attributes == nil
                ? []
                : self.context.unconfirmedAttributes().filter {
                    $0.isOfPerson(userId: current.userId, anonymousId: current.anonymousId)
                }
            var reached: Set<String> = []
            let (rules, held) = self.core.withLock { core -> (InAppContactRules, [String]) in
                core.campaigns = answer.campaigns
                if let rules = answer.contactRules { core.rules = rules }
                if let snapshot = answer.attributes {
                    reached = core.attributes.replace(
                        with: snapshot,
                        unconfirmed: unconfirmed.map { ($0.key, $0.operation) }
                    )
                }
                defer { core.heldEvents = [] }
                let recent = core.heldEvents.filter { now.timeIntervalSince($0.at) <= Self.heldEventMaxAge }
                var names: [String] = []
                for event in recent where core.eventNames.contains(event.name) && !names.contains(event.name) {
                    names.append(event.name)
                }
                return (core.rules, names)
            }
            self.feed { .contactRules(rules, at: $0) }
            logger.debug("in-app sync: \(answer.campaigns.count) campaigns")
            self.occurred(.synced)
            if !reached.isEmpty { self.occurred(.attributes(reached)) }
            for name in held {
                logger.debug(
                    "in-app: \"\(String(name.prefix(64)))\", tracked while the sync was on the wire, checked now"
                )
                self.occurred(.event(name))
            }
        case .unusable(let problem):
            self.dependencies.onResult(.server(message: "unusable in-app sync answer"))
            logger.warning("in-app sync answer not usable (\(problem)); the campaigns the SDK has are kept")
        case .rejected(let status, let error):
            self.dependencies.onResult(.http(status: status, body: nil))
            logger.error("in-app sync refused by the server (HTTP \(status)\(error.map { ", \($0)" } ?? ""))")
        case .stopped(let status, _):
            self.dependencies.onResult(.http(status: status, body: nil))
            logger.warning("in-app sync answered HTTP \(status); the campaigns the SDK has are kept")
        case .retry(let error, _), .unconfirmed(let error, _):
            self.dependencies.onResult(error)
            logger.warning("in-app sync failed (\(error)); the campaigns the SDK has are kept")
        }
    }

    /// The sync on the wire ended: its waiters are answered, and a sync asked for meanwhile goes.
    private func syncEnded() {
        let (waiters, again) = self.core.withLock { core -> ([@Sendable () -> Void], InAppSyncPolicy.Reason?) in
            core.syncing = false
            // Held for an answer that brought nothing usable: kept only for the sync that goes next.
            if core.syncAgain == nil { core.heldEvents = [] }
            defer {
                core.syncWaiters = []
                core.syncAgain = nil
            }
            return (core.syncWaiters, core.syncAgain)
        }
        waiters.forEach { $0() }
        if let again { self.startSync(again) }
    }

    /// Something happened that may make campaigns eligible (INAPP-13). The campaigns it triggers
    /// go to the display rules (caps, one at a time) once those are wired.
    func occurred(_ occurrence: InAppOccurrence) {
        let triggered = self.core.withLock { core in
            InAppTriggerMatcher.triggered(by: occurrence, in: core.campaigns, attributes: core.attributes)
        }
        guard !triggered.isEmpty else { return }
        self.dependencies.logger.debug("in-app: \(triggered.count) campaigns triggered")
        self.core.withLock { $0.offered += triggered.map(\.id) }
        self.offer(triggered)
    }

}
