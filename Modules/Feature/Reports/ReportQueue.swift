package import Foundation
package import JoryioConsent
package import JoryioCore
package import JoryioDelivery

/// A queue of data-collecting reports, each sent in a request of its own (push receipts and
/// clicks, in-app impressions and form submissions): kept in one secure item until the server
/// confirms them, sent oldest first, one request at a time. The feature that owns it forwards its
/// hooks (``start()``, ``privacyChanged(_:)``, …).
///
/// - Privacy (CONSENT-16): nothing is recorded while the person is opted out or has denied
///   consent; a report recorded while consent is pending waits, and is deleted when collection
///   stops or sent once it is granted. `wipeData()` deletes every report.
/// - Answers (``ReportOutcome``): the success shape deletes the report (also `"duplicate": true`);
///   400, 413 and 422 drop it and log; 402 and 403 keep it and stop the queue for the instance; a
///   current user's 401 waits for a new token (AUTH-9) and a departed user's report is dropped
///   (AUTH-8); everything else keeps it and retries with backoff, never before `Retry-After`, with
///   the same `messageId`.
/// - A report whose ``QueuedReport/dedupKey`` is among the last ``Settings/recentKeys`` recorded
///   is ignored.
/// - At most ``Settings/maxReports`` wait; a new one beyond that drops the oldest, with a warning.
///
/// Runs on the engine's executor: each method must be called there.
package final class ReportQueue<Report: QueuedReport>: Sendable {
    /// Limits and retry settings.
    package struct Settings: Sendable {
        /// The most reports kept; a new one beyond it drops the oldest waiting (with a warning).
        package var maxReports: Int
        /// How many recently recorded reports a repeat is checked against.
        package var recentKeys: Int
        /// The backoff schedule (BATCH-18).
        package var backoff: BackoffPolicy
        /// Failures in a row after which the queue stops arming its own retry timer and waits for
        /// the next trigger (a report, the foreground, consent), as the other channels (GAP-18).
        package var maxRetries: Int

        /// Creates settings.
        package init(backoff: BackoffPolicy, maxRetries: Int, maxReports: Int = 500, recentKeys: Int = 200) {
            self.backoff = backoff
            self.maxRetries = maxRetries
            self.maxReports = max(1, maxReports)
            self.recentKeys = max(0, recentKeys)
        }
    }

    /// The queue's mutable state.
    struct State: Sendable {
        var book = ReportBook<Report>()
        var loaded = false
        var sendingHeld = true
        var collectionAllowed = false
        var stopped = false
        var awaitingToken = false
        var inFlight: String?
        var retry = RetryState()

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

    private let storageKey: String
    private let noun: String
    private let settings: Settings
    private let builder: ReportRequestBuilder
    private let dependencies: ChannelDependencies
    private let secure: any SecureStore
    private let privacy: @Sendable () -> PrivacyState
    private let classify: @Sendable (Result<HTTPResponse, TransportError>, Date) -> ReportOutcome
    private let state = Locked(State())
    private let retryTimer: ChannelTimer

    /// A queue kept under `storageKey` in `context`'s secure store; `noun` names its reports in
    /// logs (`"push receipts and clicks"`). `classify` reads answers (``ReportOutcome/table`` unless
    /// an endpoint refines it).
    package init(
        storageKey: String,
        noun: String,
        builder: ReportRequestBuilder,
        settings: Settings,
        dependencies: ChannelDependencies,
        secure: any SecureStore,
        privacy: @escaping @Sendable () -> PrivacyState,
        classify: @escaping @Sendable (Result<HTTPResponse, TransportError>, Date) -> ReportOutcome = {
            ReportOutcome.classify($0, now: $1)
        }
    ) {
        self.classify = classify
        self.storageKey = storageKey
        self.noun = noun
        self.builder = builder
        self.settings = settings
        self.dependencies = dependencies
        self.secure = secure
        self.privacy = privacy
        self.retryTimer = ChannelTimer(scheduler: dependencies.scheduler)
    }

    /// The reports waiting, oldest first (the one on the wire included).
    package var pending: [Report] { self.state.withLock { $0.book.reports } }

    /// Whether a 402 or 403 stopped the queue for this instance.
    package var isStopped: Bool { self.state.withLock { $0.stopped } }

    /// Users whose reports still wait (AUTH-5).
    package var usersWithPendingItems: Set<String> {
        Set(self.pending.compactMap(\.userId))
    }

    /// Records `report` unless collection is off or it repeats a recent one; then sends what may
    /// go. Returns whether it was recorded.
    @discardableResult
    package func record(_ report: Report) -> Bool {
        let logger = self.dependencies.logger
        guard self.privacy().gate(.event) != .drop else {
            logger.debug("\(report.logName) dropped: collection is not allowed (opted out or consent denied)")
            return false
        }
        let outcome = self.state.withLock { state -> (added: Bool, evicted: Int) in
            if let key = report.dedupKey {
                guard !state.book.recent.contains(key) else { return (false, 0) }
                state.book.recent.append(key)
                state.book.recent.removeFirst(max(0, state.book.recent.count - self.settings.recentKeys))
            }
            state.book.reports.append(report)
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
            logger.debug("\(report.logName) already reported; ignored")
            return false
        }
        if outcome.evicted > 0 {
            logger.warning(
                "more than \(self.settings.maxReports) \(self.noun) wait; dropped the oldest \(outcome.evicted)"
            )
        }
        self.save()
        self.sendIfDue()
        return true
    }

    // MARK: - Hooks

    /// Loads the reports earlier launches kept; nothing goes until the launch's privacy is applied.
    package func start() {
        self.load()
    }

    /// Holds or releases sending (held while consent is pending), deletes every report when
    /// collection stops, retries at once when it resumes.
    package func privacyChanged(_ allowsCollection: Bool?, stopped: Bool = false, resumed: Bool = false) {
        if let allowsCollection {
            self.state.withLock { state in
                state.collectionAllowed = allowsCollection
                state.sendingHeld = false
            }
            self.sendIfDue()
        }
        if stopped { self.discardAll(reason: "collection stopped (opt-out or consent denied)") }
        if resumed { self.trigger() }
    }

    /// A new token: the reports held for one go again (AUTH-9).
    package func authorizationChanged() {
        let resume = self.state.withLock { state -> Bool in
            defer { state.awaitingToken = false }
            return state.awaitingToken
        }
        if resume { self.sendIfDue() }
    }

    /// A retry trigger (the foreground): a fresh retry budget and a send now if possible.
    package func trigger() {
        self.state.withLock { $0.retry.consecutiveFailures = 0 }
        self.sendIfDue()
    }

    /// Deletes every report and the memory of recent ones; a report on the wire is not kept,
    /// whatever its answer.
    package func discardAll(reason: String) {
        let count = self.state.withLock { state -> Int in
            defer { state.book = ReportBook() }
            return state.book.reports.count
        }
        if count > 0 {
            self.dependencies.logger.info("deleted \(count) \(self.noun): \(reason)")
        }
        self.save()
    }

    // MARK: - Storage

    /// Reads the stored reports. An item that cannot be read is logged and deleted; a store that
    /// fails is logged, and the queue runs with what it has in memory.
    private func load() {
        let logger = self.dependencies.logger
        var stored = ReportBook<Report>()
        do {
            if let data = try self.secure.data(forKey: self.storageKey) {
                if let book = ReportBook<Report>.decode(data) {
                    stored = book
                } else {
                    logger.error("deleted stored \(self.noun) that cannot be read")
                    try? self.secure.set(nil, forKey: self.storageKey)
                }
            }
        } catch {
            logger.error("cannot read stored \(self.noun): \(error)")
        }
        self.state.withLock { state in
            let known = Set(stored.reports.map(\.messageId))
            stored.reports += state.book.reports.filter { !known.contains($0.messageId) }
            stored.recent += state.book.recent
            stored.recent.removeFirst(max(0, stored.recent.count - self.settings.recentKeys))
            state.book = stored
            state.loaded = true
        }
        if !stored.reports.isEmpty {
            logger.debug("loaded \(stored.reports.count) \(self.noun)")
        }
        self.sendIfDue()
    }

    /// Writes the reports to the secure item (deleted when nothing is left to remember). On failure
    /// they stay in memory and are sent during this launch.
    private func save() {
        let book = self.state.withLock { $0.book }
        let data = book.reports.isEmpty && book.recent.isEmpty ? nil : book.encoded()
        do {
            try self.secure.set(data, forKey: self.storageKey)
        } catch {
            self.dependencies.logger.error(
                "cannot store \(self.noun); they are kept in memory for this launch: \(error)"
            )
        }
    }

    /// Removes `report` from memory and the store.
    private func remove(_ report: Report) {
        let removed = self.state.withLock { state -> Bool in
            guard let index = state.book.reports.firstIndex(where: { $0.messageId == report.messageId }) else {
                return false
            }
            state.book.reports.remove(at: index)
            return true
        }
        if removed { self.save() }
    }

    // MARK: - Sending

    /// Sends the oldest report unless one is on the wire or the queue must wait.
    package func sendIfDue() {
        let now = self.dependencies.clock.now()
        let (decision, report) = self.state.withLock { state -> (SendDecision, Report?) in
            let decision = state.gate.decision(at: now)
            guard decision == .send, let head = state.book.reports.first else { return (decision, nil) }
            state.inFlight = head.messageId
            return (decision, head)
        }
        switch decision {
        case .idle, .busy:
            return
        case .wait(let until):
            self.retryTimer.arm(at: until, now: now) { [self] in self.sendIfDue() }
        case .send:
            guard let report else { return }
            // The token is that of the report's user, read now (AUTH-5).
            let credentials = self.dependencies.authorization.credentials(for: report.userId)
            let request = self.builder.request(for: report, sentAt: now)
            self.dependencies.logger.debug("sending \(report.logName)")
            self.dependencies.send(request, credentials: credentials) { [self] answer in
                self.state.withLock { $0.inFlight = nil }
                switch answer {
                case .tokenRejected(let rejection): self.handle(rejection, report: report)
                case .result(let result): self.handle(result, report: report)
                }
            }
        }
    }

    /// Applies the reports' table to an answer.
    private func handle(_ result: Result<HTTPResponse, TransportError>, report: Report) {
        let now = self.dependencies.clock.now()
        let logger = self.dependencies.logger
        let name = report.logName
        switch self.classify(result, now) {
        case .delivered:
            self.dependencies.onResult(nil)
            self.remove(report)
            self.state.withLock { $0.retry.recordSuccess() }
            self.sendIfDue()
        case .rejected(let status):
            self.dependencies.onResult(.http(status: status, body: nil))
            logger.error("\(name) rejected by the server (HTTP \(status)); dropped")
            self.remove(report)
            self.state.withLock { $0.retry.recordSuccess() }
            self.sendIfDue()
        case .stopped(let status, let retryAfter):
            self.dependencies.onResult(.http(status: status, body: nil))
            logger.warning("HTTP \(status): \(self.noun) are kept and not sent again until the next launch")
            self.state.withLock { state in
                state.stopped = true
                if let retryAfter { state.retry.retryAfterUntil = now.addingTimeInterval(retryAfter) }
            }
        case .retry(let error, let retryAfter):
            self.dependencies.onResult(error)
            logger.warning("\(name) failed (\(error)); kept for retry")
            self.backOff(retryAfter: retryAfter, now: now)
        case .unconfirmed(let error, let retryAfter):
            self.dependencies.onResult(error)
            let first = self.state.withLock { $0.retry.noteUnconfirmed() }
            logger.unconfirmedAnswer(error, to: "the \(name)", first: first)
            self.backOff(retryAfter: retryAfter, now: now)
        }
    }

    /// The 401 flow's verdict: a departed user's report is dropped (AUTH-8); the current user's
    /// waits for a new token (AUTH-9), or goes again at once when one arrived meanwhile.
    private func handle(_ rejection: TokenRejection, report: Report) {
        self.dependencies.onResult(.http(status: 401, body: nil))
        switch rejection {
        case .drop:
            self.dependencies.logger.warning(
                "\(report.logName) of a user who is no longer current dropped: the server rejected their SDK-auth token"
            )
            self.remove(report)
            self.sendIfDue()
        case .hold(let tokenArrived):
            self.dependencies.logger.warning(
                "the server rejected the SDK-auth token; \(self.noun) wait for a new token"
            )
            self.state.withLock { $0.awaitingToken = true }
            if tokenArrived { self.authorizationChanged() }
        }
    }

    /// Records a failure; arms the retry timer unless `maxRetries` failures in a row were reached.
    private func backOff(retryAfter: TimeInterval?, now: Date) {
        let (failures, due) = self.state.withLock { state in
            state.retry.recordFailure(
                policy: self.settings.backoff,
                jitter: self.dependencies.jitter.next(),
                retryAfter: retryAfter,
                now: now
            )
        }
        if failures <= self.settings.maxRetries {
            self.retryTimer.arm(at: due, now: now) { [self] in self.sendIfDue() }
        } else {
            self.dependencies.logger.info("\(failures) \(self.noun) failures in a row; waiting for the next trigger")
        }
    }
}
