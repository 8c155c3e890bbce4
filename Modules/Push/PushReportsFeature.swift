package import Foundation
internal import JoryioConsent
internal import JoryioCore
package import JoryioDelivery
package import JoryioFeature

/// Push receipts and clicks on the engine's seam (issue 14; protocol.md 5.11; PUSH-19, PUSH-27,
/// PUSH-33): records each report by `trackingId` under the ids of the person who received the push,
/// keeps it in one secure item until the server confirms it, and sends one report per request,
/// oldest first, one request at a time.
///
/// - Privacy (PUSH-33, CONSENT-16): a report is not recorded while the person is opted out or has
///   denied consent; one recorded while consent is pending waits, and is deleted when collection
///   stops (``PrivacyChange/collectionStopped``) or sent once it is granted. `wipeData()` deletes
///   every report.
/// - Answers: the success shape deletes the report (also `"duplicate": true`); 400, 413 and 422
///   drop it and log; 402 and 403 keep it and stop reports for the instance; a current user's 401
///   waits for a new token (AUTH-9) and a departed user's report is dropped (AUTH-8); everything
///   else keeps it and retries with backoff, never before `Retry-After`, with the same `messageId`.
/// - A push is reported once per kind: a second receipt (or click) of a `trackingId` among the
///   last ``Settings/recentKeys`` recorded is ignored.
/// - At most ``Settings/maxReports`` wait; a new one beyond that drops the oldest, with a warning.
///
/// Runs on the engine's executor, like every feature: each method must be called there.
package final class PushReportsFeature: EngineFeature, PushReporting {
    /// Where the reports are kept (the secure store, STORE-3: they carry the user id).
    package static let storageKey = "jry_push_reports"

    /// Limits and retry settings.
    package struct Settings: Sendable {
        /// The most reports kept; a new one beyond it drops the oldest waiting (with a warning).
        package var maxReports: Int
        /// How many recently recorded reports a repeat is checked against.
        package var recentKeys: Int
        /// The backoff schedule (BATCH-18).
        package var backoff: BackoffPolicy
        /// Failures in a row after which the feature stops arming its own retry timer and waits
        /// for the next trigger (a report, the foreground, consent), as the other channels (GAP-18).
        package var maxRetries: Int

        /// Creates settings.
        package init(backoff: BackoffPolicy, maxRetries: Int, maxReports: Int = 500, recentKeys: Int = 200) {
            self.backoff = backoff
            self.maxRetries = maxRetries
            self.maxReports = max(1, maxReports)
            self.recentKeys = max(0, recentKeys)
        }
    }

    /// The feature's mutable state, behind ``state``.
    struct State {
        /// The reports waiting and the recent keys.
        var book = PushReportBook()
        /// ``start()`` has loaded the stored reports.
        var loaded = false
        /// Nothing goes until the launch's privacy was applied (INIT-17).
        var sendingHeld = true
        /// Opted in with consent granted.
        var collectionAllowed = false
        /// A 402 or 403 stopped reports for this instance.
        var stopped = false
        /// The current user's token was rejected: nothing goes until a new one arrives (AUTH-9).
        var awaitingToken = false
        /// The `messageId` of the report on the wire.
        var inFlight: String?
        /// The failure streak, backoff and `Retry-After`.
        var retry = RetryState()

        /// The send decision's inputs.
        var gate: SendGate {
            SendGate(
                stopped: self.stopped,
                held: !self.loaded || self.sendingHeld || !self.collectionAllowed,
                awaitingToken: self.awaitingToken,
                inFlight: self.inFlight != nil,
                hasWork: !self.book.reports.isEmpty,
                retryAfterUntil: self.retry.retryAfterUntil,
                backoffUntil: self.retry.backoffUntil
            )
        }
    }

    let context: FeatureContext
    let settings: Settings
    let builder: PushReportRequestBuilder
    let dependencies: ChannelDependencies
    let state = Locked(State())
    let retryTimer: ChannelTimer

    /// A feature made with `context` by its registration.
    package init(context: FeatureContext, builder: PushReportRequestBuilder, settings: Settings) {
        self.context = context
        self.builder = builder
        self.settings = settings
        self.dependencies = context.channelDependencies("push reports")
        self.retryTimer = ChannelTimer(scheduler: context.scheduler)
    }

    // MARK: - State (any thread)

    /// The reports waiting, oldest first (the one on the wire included).
    package var pending: [PushReport] { self.state.withLock { $0.book.reports } }

    /// Whether a 402 or 403 stopped reports for this instance.
    package var isStopped: Bool { self.state.withLock { $0.stopped } }

    // MARK: - PushReporting

    /// Records a receipt (PUSH-27).
    package func reportDelivered(trackingId: String, at timestamp: Date) {
        self.record(.receipt, trackingId: trackingId, at: timestamp)
    }

    /// Records a click.
    package func reportClicked(trackingId: String, at timestamp: Date) {
        self.record(.click, trackingId: trackingId, at: timestamp)
    }

    /// Records a report of `kind` for `trackingId` made at `timestamp`, under the current ids,
    /// unless collection is off (PUSH-33) or the push was reported already; then sends what may go.
    package func record(_ kind: PushReport.Kind, trackingId: String, at timestamp: Date) {
        let logger = self.dependencies.logger
        guard PushPayload.isValidTrackingId(trackingId) else {
            logger.warning(
                "push \(kind.rawValue) ignored: the trackingId must be 1 to \(PushPayload.maxTrackingIdLength) characters without control characters"
            )
            return
        }
        guard self.context.privacy().gate(.event) != .drop else {
            logger.debug("push \(kind.rawValue) dropped: collection is not allowed (opted out or consent denied)")
            return
        }
        let identity = self.context.identity()
        let report = PushReport(
            kind: kind,
            messageId: self.context.identifiers.next(),
            trackingId: trackingId,
            timestamp: timestamp,
            userId: identity.userId,
            anonymousId: identity.anonymousId.isEmpty ? nil : identity.anonymousId,
            deviceId: self.context.deviceId()
        )
        let outcome = self.state.withLock { state -> (added: Bool, evicted: Int) in
            guard !state.book.recent.contains(report.dedupKey) else { return (false, 0) }
            state.book.reports.append(report)
            state.book.recent.append(report.dedupKey)
            state.book.recent.removeFirst(max(0, state.book.recent.count - self.settings.recentKeys))
            var evicted = 0
            while state.book.reports.count > self.settings.maxReports,
                let index = state.book.reports.firstIndex(where: { $0.messageId != state.inFlight })
            {
                state.book.reports.remove(at: index)
                evicted += 1
            }
            return (true, evicted)
        }
        guard outcome.added else {
            logger.debug("push \(kind.rawValue) of a push already reported ignored")
            return
        }
        if outcome.evicted > 0 {
            logger.warning(
                "more than \(self.settings.maxReports) push receipts and clicks wait; dropped the oldest \(outcome.evicted)"
            )
        }
        self.save()
        self.sendIfDue()
    }

    // MARK: - EngineFeature

    /// Loads the reports earlier launches kept; nothing goes until the launch's privacy is applied.
    package func start() {
        self.load()
    }

    /// Holds or releases sending (held while consent is pending), deletes every report when
    /// collection stops (PUSH-33), retries at once when it resumes.
    package func privacyChanged(_ change: PrivacyChange) {
        switch change {
        case .applied(let privacy):
            self.state.withLock { state in
                state.collectionAllowed = privacy.allowsCollection
                state.sendingHeld = false
            }
            self.sendIfDue()
        case .collectionStopped:
            self.discardAll(reason: "collection stopped (opt-out or consent denied)")
        case .collectionResumed:
            self.trigger()
        }
    }

    /// A new token: the reports held for one go again (AUTH-9).
    package func authorizationChanged() {
        let resume = self.state.withLock { state -> Bool in
            defer { state.awaitingToken = false }
            return state.awaitingToken
        }
        if resume { self.sendIfDue() }
    }

    /// Foreground: a fresh retry budget and a send now (never before `Retry-After`).
    package func lifecycle(_ event: LifecycleEvent) {
        switch event {
        case .foreground: self.trigger()
        case .background: self.sendIfDue()
        case .terminate: break
        }
    }

    /// `wipeData()` deletes every report and the memory of recent ones (WIPE-1).
    package func wipe() {
        self.discardAll(reason: "wipeData()")
    }

    /// Users whose reports still wait (AUTH-5).
    package var usersWithPendingItems: Set<String> {
        Set(self.pending.compactMap(\.userId))
    }

    /// A retry trigger: a fresh retry budget and a send now if possible.
    func trigger() {
        self.state.withLock { $0.retry.consecutiveFailures = 0 }
        self.sendIfDue()
    }
}
